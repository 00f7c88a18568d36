# shellcheck shell=bash disable=SC2154
# The work folder, the private X and PulseAudio servers, a party of two windows (sourced by
# Benchmarks/heard-seen.sh: its traps and exports are the script's own).

work=$(mktemp -d)
pids=()
stop_all() {
    for p in "${pids[@]}"; do kill -TERM "$p" 2>/dev/null || true; done
    for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
    pids=()
}
keep() { if [ -n "${KEEP:-}" ]; then mkdir -p "$KEEP" && cp -r "$@" "$KEEP"/ 2>/dev/null || true; fi; }
trap 'exit 130' INT TERM   # so that the EXIT trap below runs on ^C or kill
trap 'stop_all; keep "$work"/*.out "$work"/*.err "$work"/*.log "$work"/*.tsv "$work"/*.jsonl; rm -rf "$work"' EXIT
mkdir -p "$work/home" "$work/run"
chmod 700 "$work/run"
# The players' settings, remembered volume and sound-server cookie stay in the work folder.
export HOME=$work/home XDG_RUNTIME_DIR=$work/run XDG_CONFIG_HOME=$work/home/.config XDG_STATE_HOME=$work/home/.state
export SDL_AUDIODRIVER=${SDL_AUDIODRIVER:-pulseaudio}
export PULSE_SERVER=unix:$work/native

# fg CMD…: runs CMD in the background and waits for it, so that a TERM to this script is handled at
# once (bash runs a trap only when the foreground command ends; `wait` returns at the signal).
fg() { "$@" & local p=$!; pids+=($p); wait "$p"; }

wait_for() { for _ in $(seq 400); do grep -q "$2" "$1" 2>/dev/null && return 0; sleep 0.05; done; echo "timed out waiting for $2 in $1" >&2; exit 1; }

start_x() {   # start_x WIDTH HEIGHT: a private X server (X_SERVER: Xvfb, or Xorg's dummy driver), DISPLAY exported
    : > "$work/display"
    if [ "$X_SERVER" = dummy ]; then
        # A 60 Hz mode of the screen's size; the server's Present extension paces the windows' swaps on a
        # fake vblank of its own (about 60 Hz, on the server's millisecond timers), which Xvfb does not.
        cat > "$work/xorg.conf" <<EOF
Section "Device"
    Identifier "dummy"
    Driver "dummy"
    VideoRam 256000
EndSection
Section "Monitor"
    Identifier "monitor"
    HorizSync 5.0 - 1000.0
    VertRefresh 5.0 - 200.0
    $(gtf "$1" "$2" 60 -x | grep Modeline)
EndSection
Section "Screen"
    Identifier "screen"
    Device "dummy"
    Monitor "monitor"
    DefaultDepth 24
    SubSection "Display"
        Depth 24
        Modes "$1x$2_60.00"
        Virtual $1 $2
    EndSubSection
EndSection
EOF
        Xorg -displayfd 3 -config "$work/xorg.conf" -logfile "$work/xorg.log" -nolisten tcp -noreset 3> "$work/display" > "$work/xvfb.log" 2>&1 &
    else
        Xvfb -displayfd 3 -screen 0 "$1x$2x24" -nolisten tcp 3> "$work/display" > "$work/xvfb.log" 2>&1 &
    fi
    pids+=($!)
    for _ in $(seq 100); do [ -s "$work/display" ] && break; sleep 0.05; done
    export DISPLAY=:$(head -1 "$work/display")
    screen_w=$1 screen_h=$2
}

start_pulse() {   # start_pulse STEP: a private PulseAudio server on $work/native: rec (stereo), a → rec left,
                  # b → rec right; its log in $pulse_log
    cat > "$work/pulse.pa" <<EOF
load-module module-native-protocol-unix socket=$work/native auth-anonymous=1
load-module module-null-sink sink_name=rec format=float32le rate=48000 channels=2 channel_map=front-left,front-right
load-module module-remap-sink sink_name=a master=rec channels=1 channel_map=mono master_channel_map=front-left remix=no
load-module module-remap-sink sink_name=b master=rec channels=1 channel_map=mono master_channel_map=front-right remix=no
set-default-sink rec
EOF
    # debug: its log tells each stream's underruns (`heard_seen.py underruns`), stamped from its start
    pulse_started=$(date +%s.%N)
    pulseaudio -n --daemonize=no --exit-idle-time=-1 --system=false --use-pid-file=no --disable-shm=no \
        --log-level="${PULSE_LOG_LEVEL:-debug}" --log-time=1 \
        -F "$work/pulse.pa" > "$work/pulse-$1.log" 2>&1 &
    pulse_log=$work/pulse-$1.log
    pids+=($!)
    for _ in $(seq 100); do pactl info > /dev/null 2>&1 && return 0; sleep 0.1; done
    echo "PulseAudio did not start:" >&2; cat "$pulse_log" >&2; exit 1
}

# window_of PID: the visible X window of a process (waits for it)
window_of() {
    local w
    for _ in $(seq 300); do
        w=$(xdotool search --onlyvisible --pid "$1" 2>/dev/null | head -1 || true)
        [ -n "$w" ] && { echo "$w"; return 0; }
        sleep 0.1
    done
    echo "no window for pid $1" >&2; exit 1
}

# party STEP CLIP: a headless host serving on loopback (IPC at $work/host.sock), members A and B in windows,
# A's sound to sink a, B's to sink b; their output in $work/STEP-{host,A,B}.{out,err}. Sets member_pids.
party() {
    local step=$1; shift
    "$tandem" host "$1" --headless --listen 127.0.0.1:0 --name host --ipc "$work/host.sock" --json \
        > "$work/$step-host.out" 2> "$work/$step-host.err" &
    pids+=($!)
    wait_for "$work/$step-host.out" '"link"'
    link=$(sed -n 's/.*"link":"\([^"]*\)".*/\1/p' "$work/$step-host.out" | head -1)
    member_pids=()
    local name sink extra opts
    for name in A B; do
        sink=$(tr AB ab <<< "$name")
        [ "$name" = A ] && extra=${A_ENV:-} || extra=${B_ENV:-}
        [ "$name" = A ] && opts=${A_OPTS:-} || opts=${B_OPTS:-}
        # shellcheck disable=SC2086 # A_ENV/B_ENV/A_OPTS/B_OPTS/MEMBER_OPTS are lists of words
        env PULSE_SINK="$sink" SDL_AUDIO_DEVICE_STREAM_NAME="member $name" $extra "$tandem" join "$link" --name "$name" --media "$(dirname "$1")" --json ${MEMBER_OPTS:-} $opts \
            > "$work/$step-$name.out" 2> "$work/$step-$name.err" < /dev/null &
        pids+=($!)
        member_pids+=($!)
        wait_for "$work/$step-$name.out" "joined party"
    done
    win_a=$(window_of "${member_pids[0]}")
    win_b=$(window_of "${member_pids[1]}")
}

describe() {
    echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), load $(cut -d' ' -f1-3 /proc/loadavg)"
    echo "tandem: $tandem ($("$tandem" --version 2>/dev/null || echo '?')); SDL_AUDIODRIVER=$SDL_AUDIODRIVER;" \
         "MEMBER_OPTS='${MEMBER_OPTS:-}' A_ENV='${A_ENV:-}' B_ENV='${B_ENV:-}'"
}
