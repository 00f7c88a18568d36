#!/usr/bin/env bash
# Issue #24 part 5: what party members are heard and seen to do, measured outside the players, from a
# private PulseAudio server's recording and from X screen grabs (not from the players' own clocks).
#
#   heard    A party on loopback: a headless host and two members in SDL windows under Xvfb. Member A's
#            sound goes to sink `a`, B's to `b`: two mono remap sinks on one stereo null sink `rec`
#            (a → front-left, b → front-right), so one recording of rec.monitor holds both on one clock.
#            The clip's sound is pink noise; the left and right channels are cross-correlated in 0.5 s
#            windows (FFT, peak refined by a parabola); silent (paused) windows are skipped. The host is
#            driven over its mpv IPC socket through play, pause, resume, seeks and rate changes.
#            Prints p50/p95/max of |lag| overall, in steady play and in the 4 s around each command,
#            what the members' own --json status said meanwhile, and each member stream's underruns
#            from the sound server's debug log.
#   seen     The same party, the two windows moved side by side on one Xvfb screen and grabbed together
#            (`ffmpeg -f x11grab -framerate 60`, the middle third of both); the clip's frames carry their
#            number as a bar code (16 cells, the number's bits over their complement). Prints the frame
#            difference A − B once settled (3 s after a command): mean, max, share ≥ 2 frames.
#   lipsync  One `tandem play` (window, sound through PulseAudio) and one `mpv --ao=pulse` on a clip with
#            a white flash and a 1 kHz click each second; the middle of the window (x11grab at 250 fps)
#            and the sound (rec.monitor) captured by ONE ffmpeg, so both are on its wall-clock timeline.
#            Prints audio − video per flash, with the default output and with PULSE_LATENCY_MSEC=150.
#   browser  Heard apart as `heard`, but member A is a native `tandem join --headless --ao=pulse` and member
#            B a browser guest: Debian's Chromium, headless, joining the party's browser link
#            (Benchmarks/browser_guest.py over chromedriver), its sound on sink b. Also prints the page's
#            own measured error while playing.
#   browser-seen  Seen apart as `seen`, member A a native window and member B the browser guest, Chromium in
#            a window of its own (not headless) on the same Xvfb screen: A's window is sized to the page's
#            picture and put level with it on its left, so one grab holds both codes. Prints the frame
#            difference A − B as `seen`, and the page's own error.
#   live     Heard apart on a live stream: the clip looped by ffmpeg as a live HLS stream (2 s segments, a
#            window of ten) on loopback; member A joins at once, member B LIVE_JOIN s later with its party
#            connection through `tandem bench link` (LINK_MS ± JITTER_MS each way). Prints the lags as
#            `heard`, with B's join as a step: how soon after joining B is heard in sync, and p95 after.
#            Seen too: once B's window is up, both windows side by side grabbed at 60 fps, the stream's
#            own frames (the clip's code) compared as in `seen`.
#   sanity   The method's own error: a WAV whose right channel is the left delayed by 1.2345 ms, played
#            into `rec` (must read +1.2345); one player's sound on both channels through the two remap
#            sinks (a combine sink over a and b; must read 0), for tandem and mpv; mpv --audio-delay=0.1
#            against plain mpv in the lip-sync capture (must read +100 ms).
#
# Usage: Benchmarks/heard-seen.sh [heard] [seen] [lipsync] [browser] [browser-seen] [live] [sanity]   (default: heard seen lipsync)
#   TANDEM=path       the tandem binary (default: swift build -c release)
#   MEMBER_OPTS="…"   extra options for both members and for `tandem play` (e.g. "--ao=pulse")
#   A_ENV="V=x …", B_ENV="V=x …"   environment of member A / B only (e.g. B_ENV="PULSE_LATENCY_MSEC=150")
#   A_OPTS="…", B_OPTS="…"         options of member A / B only, after MEMBER_OPTS (e.g. B_OPTS=--ao=sdl)
#   HEARD_SCRIPT, SEEN_SCRIPT      the host's commands, as `tandem host --script` (seconds after both
#                     windows are up and SETTLE=3 s more; defaults below), sent over its IPC socket
#   LIP_CASES="tandem mpv tandem:PULSE_LATENCY_MSEC=150 mpv:PULSE_LATENCY_MSEC=150"   each PLAYER[:ITEM[,ITEM…]]:
#                     tandem (`tandem play`), tandem-host (a party of one: its clock starts on an instant), mpv;
#                     an ITEM is VAR=x (its environment) or --option=x (one more option of the player, e.g.
#                     mpv:--pulse-buffer=95: mpv's own sound-server queue)
#   LIP_COMPANION=MS  in lipsync, another client (pacat, silence into sink b) keeping the sound server's
#                     latency at MS: the sink's latency is then not set by the player under test
#   MPV_OPTS="…"      extra mpv options in lipsync/sanity;  KEEP=DIR  keep the captures and per-window tables
#   CACHE=DIR         where the clips are made once (default bench-out/heard-seen)
#   SDL_AUDIODRIVER   default pulseaudio;  PULSE_LOG_LEVEL  the sound server's (default debug: underruns)
# Run it with nothing else on the machine for figures; say so when something else ran.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
steps=${*:-heard seen lipsync}
HEARD_SCRIPT=${HEARD_SCRIPT:-"play@1,pause@9,play@12,seek:30@16,seek:8@22,rate:1.25@27,rate:1@33,pause@39,play@41,end@46"}
SEEN_SCRIPT=${SEEN_SCRIPT:-"play@1,pause@16,play@18,seek:35@22,end@37"}
LIP_CASES=${LIP_CASES:-"tandem mpv tandem:PULSE_LATENCY_MSEC=150 mpv:PULSE_LATENCY_MSEC=150"}
SETTLE=${SETTLE:-3}   # seconds the members get after both windows are up, before the first command
LIVE_SCRIPT=${LIVE_SCRIPT:-"play@1,pause@22,play@25,end@40"}  # the live step's host commands
LIVE_JOIN=${LIVE_JOIN:-8}    # seconds after the live step's script starts that B joins (the issue's late joiner)
LINK_MS=${LINK_MS:-50}       # B's party connection: one-way delay each way (tandem bench link) …
JITTER_MS=${JITTER_MS:-20}   # … ± this, uniform per chunk, never reordering

scripts/install-deps.sh pulseaudio pulseaudio-utils mpv xdotool x11-utils chromium chromium-driver >&2
if [ -z "${TANDEM:-}" ]; then swift build -c release --product tandem >&2; fi
tandem=$(realpath "${TANDEM:-$(swift build -c release --show-bin-path)/tandem}")
py=(python3 "$root/Benchmarks/heard_seen.py")

# ------------------------------------------------------------------ media, made once
cache=$(realpath -m "${CACHE:-bench-out/heard-seen}")
mkdir -p "$cache"
# noise.mp4: 60 s, 640x360 60 fps: testsrc2 (some real video to decode) with, over its middle third
# (rows 120–239, clear of the party window's status line on top and its controls at the bottom), the
# frame number N as a bar code: geq on a 16x2 picture (pixel X of row 0 is bit X of N, row 1 its
# complement) scaled up without filtering to 640x120 (cells 40x60 px). Sound: pink noise (anoisesrc,
# seed 7), the same on both channels, AAC 192 kb/s, 48 kHz.
if [ ! -s "$cache/noise.mp4" ]; then
    ffmpeg -v error -y \
        -f lavfi -i "color=c=black:s=16x2:r=60:d=60,format=gray,geq=lum='255*mod(floor(N/pow(2\,X))+Y\,2)'" \
        -f lavfi -i "testsrc2=s=640x360:r=60:d=60" \
        -f lavfi -i "anoisesrc=color=pink:sample_rate=48000:amplitude=0.25:seed=7:duration=60" \
        -filter_complex "[0:v]scale=640:120:flags=neighbor,format=yuv420p[bar];[1:v]format=yuv420p[pic];[pic][bar]overlay=0:120[v]" \
        -map "[v]" -map 2:a -c:v libx264 -preset veryfast -crf 18 -g 60 -pix_fmt yuv420p -c:a aac -b:a 192k -ac 2 \
        "$cache/noise.tmp.mp4" && mv "$cache/noise.tmp.mp4" "$cache/noise.mp4"
fi
# flash.mkv: 20 s, 640x360 60 fps, black with frames 60k … 60k+2 white (a 50 ms flash at each whole
# second); sound: a 10 ms 1 kHz burst starting at each whole second (sin from phase 0), PCM so that
# no codec smears its onset.
if [ ! -s "$cache/flash.mkv" ]; then
    ffmpeg -v error -y \
        -f lavfi -i "color=c=black:s=640x360:r=60:d=20,drawbox=x=0:y=0:w=iw:h=ih:color=white:t=fill:enable='lt(mod(n\,60)\,3)'" \
        -f lavfi -i "aevalsrc='if(lt(mod(t\,1)\,0.01)\,0.8*sin(2*PI*1000*t)\,0)|if(lt(mod(t\,1)\,0.01)\,0.8*sin(2*PI*1000*t)\,0)':s=48000:d=20" \
        -c:v libx264 -preset veryfast -crf 18 -g 60 -pix_fmt yuv420p -c:a pcm_s16le "$cache/flash.tmp.mkv" \
        && mv "$cache/flash.tmp.mkv" "$cache/flash.mkv"
fi
if [ ! -s "$cache/shifted.wav" ]; then "${py[@]}" shifted-wav "$cache/shifted.wav" 8 1.2345; fi

# ------------------------------------------------------------------ processes
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

start_x() {   # start_x WIDTH HEIGHT: a private X server, DISPLAY exported
    : > "$work/display"
    Xvfb -displayfd 3 -screen 0 "$1x$2x24" -nolisten tcp 3> "$work/display" > "$work/xvfb.log" 2>&1 &
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

# ------------------------------------------------------------------ heard apart
record_heard() {   # record_heard STEP: after SETTLE s, records rec.monitor while the host runs HEARD_SCRIPT
                   # (over $work/host.sock), then stops everything and prints the lags of $work/STEP.nut
    sleep "$SETTLE"
    ffmpeg -v error -y -copyts -f pulse -i rec.monitor -c:a copy -f nut "$work/$1.nut" < /dev/null &
    local rec=$!
    pids+=($rec)
    sleep 0.5
    fg "${py[@]}" drive "$work/host.sock" "$HEARD_SCRIPT" "$work/$1-commands.jsonl"
    sleep 1
    kill -TERM "$rec"; wait "$rec" 2>/dev/null || true
    stop_all
    "${py[@]}" heard "$work/$1.nut" "$work/$1-commands.jsonl" --tsv "$work/$1.tsv"
}

heard() {
    echo "== heard apart: host script $HEARD_SCRIPT"
    describe
    start_x 1920 1080
    start_pulse heard
    party heard "$cache/noise.mp4"
    record_heard heard
    "${py[@]}" self-skew "$work/heard-A.out" "$work/heard-B.out"
    "${py[@]}" underruns "$pulse_log" "$pulse_started" "$work/heard-commands.jsonl"
    keep "$work/heard.nut"
}

# ------------------------------------------------------------------ seen apart
seen() {
    echo "== seen apart: host script $SEEN_SCRIPT"
    describe
    start_x 1920 1080
    start_pulse seen
    party seen "$cache/noise.mp4"
    sleep "$SETTLE"
    grab_side_by_side "$work/seen.nut"
    fg "${py[@]}" drive "$work/host.sock" "$SEEN_SCRIPT" "$work/seen-commands.jsonl"
    kill -TERM "$grab"; wait "$grab" 2>/dev/null || true
    stop_all
    "${py[@]}" self-skew "$work/seen-A.out" "$work/seen-B.out"
    "${py[@]}" underruns "$pulse_log" "$pulse_started" "$work/seen-commands.jsonl"
    "${py[@]}" seen "$work/seen.nut" "$grab_geometry" "$work/seen-commands.jsonl" --tsv "$work/seen.tsv"
    keep "$work/seen.nut"
}

# grab_side_by_side OUT: windows win_a and win_b side by side (without a window manager they open
# centred, one over the other), the middle third of both (where the clip's code is) grabbed together at
# 60 fps into OUT, kept at 1/4 size, gray. Sets grab (its pid) and grab_geometry (for `heard_seen.py seen`).
grab_side_by_side() {
    local wa ha wb hb
    eval "$(xdotool getwindowgeometry --shell "$win_a" | sed -n 's/^WIDTH=/wa=/p; s/^HEIGHT=/ha=/p')"
    eval "$(xdotool getwindowgeometry --shell "$win_b" | sed -n 's/^WIDTH=/wb=/p; s/^HEIGHT=/hb=/p')"
    xdotool windowmove "$win_a" 0 0
    xdotool windowmove "$win_b" "$wa" 0
    sleep 0.5
    echo "windows: A ${wa}x${ha} at 0,0; B ${wb}x${hb} at $wa,0 (video fills each: the clip is 16:9 and so are they)"
    local gw=$((wa + wb)) gh=$(( (ha < hb ? ha : hb) / 3 ))
    gw=$((gw / 4 * 4)); gh=$((gh / 4 * 4))
    ffmpeg -v error -y -copyts -f x11grab -framerate 60 -draw_mouse 0 -video_size "${gw}x${gh}" -i "$DISPLAY+0,$gh" \
        -vf "format=gray,scale=iw/4:ih/4:flags=area" -fps_mode passthrough -enc_time_base:v 1:1000000 -c:v rawvideo \
        -f nut "$1" < /dev/null &
    grab=$!
    pids+=($grab)
    grab_geometry="$((gw / 4)) $((gh / 4)) 0 $((wa / 4)) $((wa / 4)) $((wb / 4))"
    sleep 0.5
}

# ------------------------------------------------------------------ lip sync
# capture NAME CMD…: runs CMD (a player on flash.mkv, sound to rec) while one ffmpeg grabs the middle
# 32x32 of the screen (where both players centre their window) at 250 fps and records rec.monitor;
# $work/NAME.nut.
capture() {
    local name=$1; shift
    ffmpeg -v error -y -copyts -thread_queue_size 4096 -f x11grab -framerate 250 -draw_mouse 0 -video_size 32x32 \
        -i "$DISPLAY+$((screen_w / 2 - 16)),$((screen_h / 2 - 16))" \
        -thread_queue_size 4096 -f pulse -i rec.monitor -map 0:v -map 1:a -c copy -f nut "$work/$name.nut" < /dev/null > "$work/$name.ffmpeg.log" 2>&1 &
    local grab=$!
    pids+=($grab)
    sleep 1
    fg "$@" > "$work/$name.out" 2> "$work/$name.err" < /dev/null || echo "($name: the player exited with $?)" >&2
    sleep 0.5
    kill -TERM "$grab"; wait "$grab" 2>/dev/null || true
}

lipsync_case() {   # lipsync_case PLAYER[:ITEM,…] [LABEL]: ITEM VAR=x (environment) or --option=x
    local player=${1%%:*} envs="" opts="" label=${2:-$1} item items=()
    [[ $1 == *:* ]] && IFS=, read -ra items <<< "${1#*:}"
    for item in "${items[@]}"; do
        if [[ $item == --* ]]; then opts+=" $item"; else envs+=" $item"; fi
    done
    local name
    name=lip-$(tr -c 'A-Za-z0-9' '_' <<< "$label")
    # shellcheck disable=SC2086
    if [ "$player" = tandem ]; then
        capture "$name" env PULSE_SINK=rec $envs "$tandem" play --no-config ${MEMBER_OPTS:-} $opts "$cache/flash.mkv"
    elif [ "$player" = tandem-host ]; then   # a party of one: its clock started on an instant
        capture "$name" env PULSE_SINK=rec $envs "$tandem" host --insecure --no-port-mapping \
            --listen 127.0.0.1:0 --script play@1 --duration 21 ${MEMBER_OPTS:-} $opts "$cache/flash.mkv"
    else
        capture "$name" env PULSE_SINK=rec $envs mpv --no-config --really-quiet --ao=pulse --vo=x11 --no-osc --osd-level=0 \
            ${MPV_OPTS:-} $opts "$cache/flash.mkv"
    fi
    "${py[@]}" lipsync "$work/$name.nut" --label "$label"
    keep "$work/$name.nut"
}

lipsync() {
    echo "== lip sync: flash.mkv (a flash and a click each second, 20 s); cases: $LIP_CASES"
    describe
    start_x 1280 720
    start_pulse lipsync
    "${py[@]}" lipsync-header
    if [ -n "${LIP_COMPANION:-}" ]; then pacat -p --latency-msec="$LIP_COMPANION" -d b /dev/zero & pids+=($!); fi
    local c
    for c in $LIP_CASES; do lipsync_case "$c"; done
    stop_all
}

# ------------------------------------------------------------------ a browser guest against a native member
# browser_host STEP: a headless host of the noise clip (IPC at $work/host.sock); sets link and web (its links)
browser_host() {
    "$tandem" host "$cache/noise.mp4" --headless --listen 127.0.0.1:0 --no-port-mapping --name host --ipc "$work/host.sock" --json \
        > "$work/$1-host.out" 2> "$work/$1-host.err" &
    pids+=($!)
    wait_for "$work/$1-host.out" '"link"'
    link=$(sed -n 's/.*"link":"\([^"]*\)".*/\1/p' "$work/$1-host.out" | head -1)
    web=$(sed -n 's/.*"web":"\([^"]*\)".*/\1/p' "$work/$1-host.out" | head -1)
}

browser() {
    echo "== heard apart, native member A (--headless --ao=pulse) against browser guest B (Chromium): host script $HEARD_SCRIPT"
    describe
    echo "chromium: $(chromium --version 2>/dev/null || echo '?')"
    start_pulse browser
    browser_host browser
    # shellcheck disable=SC2086
    env PULSE_SINK=a ${A_ENV:-} "$tandem" join "$link" --headless --ao=pulse --name A --media "$cache" --json ${MEMBER_OPTS:-} \
        > "$work/browser-A.out" 2> "$work/browser-A.err" < /dev/null &
    pids+=($!)
    wait_for "$work/browser-A.out" "joined party"
    # shellcheck disable=SC2086
    env PULSE_SINK=b ${B_ENV:-} python3 "$root/Benchmarks/browser_guest.py" join "$web" "$work/browser-B.jsonl" B \
        > "$work/browser-B.err" 2>&1 &
    pids+=($!)
    wait_for "$work/browser-B.jsonl" '"ready": true'
    record_heard browser
    "${py[@]}" self-skew "$work/browser-A.out"
    python3 "$root/Benchmarks/browser_guest.py" self-skew "$work/browser-B.jsonl"
    "${py[@]}" underruns "$pulse_log" "$pulse_started" "$work/browser-commands.jsonl"
    keep "$work/browser.nut" "$work/browser-B.jsonl"
}

# ------------------------------------------------------------------ a live stream, a late member over a slow link
browser_seen() {
    echo "== seen apart, native member A (window) against browser guest B (Chromium in a window): host script $SEEN_SCRIPT"
    describe
    echo "chromium: $(chromium --version 2>/dev/null || echo '?')"
    start_x 1920 1080
    start_pulse browser-seen
    browser_host browser-seen
    # B first, on the right half of the screen: its picture's place decides where A's window goes.
    # shellcheck disable=SC2086
    env PULSE_SINK=b ${B_ENV:-} python3 "$root/Benchmarks/browser_guest.py" join "$web" "$work/browser-seen-B.jsonl" B \
        --window 960,0,960,1000 --picture "$work/picture" > "$work/browser-seen-B.err" 2>&1 &
    pids+=($!)
    # The host plays once B is in, so that the page has a picture to place.
    "${py[@]}" drive "$work/host.sock" "play@0" /dev/null
    wait_for "$work/picture" .
    local px pt pw ph
    read -r px pt pw ph < "$work/picture"
    pw=$((pw / 4 * 4)); ph=$((ph / 12 * 12))
    echo "browser picture: ${pw}x${ph} at $px,$pt"
    "${py[@]}" drive "$work/host.sock" "pause@0" /dev/null
    # A's window: the picture's size, just left of it, top edges level, so that the middle thirds of both
    # pictures (the clip's code) are one strip of the screen.
    # shellcheck disable=SC2086
    env PULSE_SINK=a ${A_ENV:-} "$tandem" join "$link" --name A --media "$cache" --json ${MEMBER_OPTS:-} \
        > "$work/browser-seen-A.out" 2> "$work/browser-seen-A.err" < /dev/null &
    pids+=($!)
    wait_for "$work/browser-seen-A.out" "joined party"
    win_a=$(window_of "$!")
    xdotool windowsize "$win_a" "$pw" "$ph"
    xdotool windowmove "$win_a" $((px - pw)) "$pt"
    sleep "$SETTLE"
    local gw=$((2 * pw)) gh=$((ph / 3))
    ffmpeg -v error -y -copyts -f x11grab -framerate 60 -draw_mouse 0 -video_size "${gw}x${gh}" -i "$DISPLAY+$((px - pw)),$((pt + gh))" \
        -vf "format=gray,scale=iw/4:ih/4:flags=area" -fps_mode passthrough -enc_time_base:v 1:1000000 -c:v rawvideo \
        -f nut "$work/browser-seen.nut" < /dev/null &
    grab=$!
    pids+=($grab)
    sleep 0.5
    fg "${py[@]}" drive "$work/host.sock" "$SEEN_SCRIPT" "$work/browser-seen-commands.jsonl"
    kill -TERM "$grab"; wait "$grab" 2>/dev/null || true
    stop_all
    "${py[@]}" self-skew "$work/browser-seen-A.out"
    python3 "$root/Benchmarks/browser_guest.py" self-skew "$work/browser-seen-B.jsonl"
    "${py[@]}" seen "$work/browser-seen.nut" "$((gw / 4)) $((gh / 4)) 0 $((pw / 4)) $((pw / 4)) $((pw / 4))" \
        "$work/browser-seen-commands.jsonl" --tsv "$work/browser-seen.tsv"
    keep "$work/browser-seen.nut" "$work/browser-seen-B.jsonl"
}

live() {
    echo "== a live stream heard apart: B joins ${LIVE_JOIN} s after the start over a ${LINK_MS} ± ${JITTER_MS} ms link;" \
         "host script $LIVE_SCRIPT"
    describe
    start_x 1920 1080
    start_pulse live
    # The bar-coded pink-noise clip looped as a live HLS stream in real time (2 s segments, a window of
    # ten: a broadcaster's usual), served by Python's http.server on loopback.
    mkdir -p "$work/live"
    ffmpeg -v error -re -stream_loop -1 -i "$cache/noise.mp4" -c copy -f hls -hls_time 2 -hls_list_size 10 \
        -hls_flags delete_segments "$work/live/live.m3u8" > "$work/live-ffmpeg.log" 2>&1 < /dev/null &
    pids+=($!)
    local port
    port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    python3 -m http.server "$port" --bind 127.0.0.1 --directory "$work/live" > "$work/live-http.log" 2>&1 &
    pids+=($!)
    for _ in $(seq 200); do [ "$(grep -c EXTINF "$work/live/live.m3u8" 2>/dev/null || echo 0)" -ge 4 ] && break; sleep 0.1; done
    # shellcheck disable=SC2086
    "$tandem" host "http://127.0.0.1:$port/live.m3u8" --headless --listen 127.0.0.1:0 --no-port-mapping --name host \
        --ipc "$work/host.sock" --json ${LIVE_HOST_OPTS:-} > "$work/live-host.out" 2> "$work/live-host.err" &
    pids+=($!)
    wait_for "$work/live-host.out" '"link"'
    link=$(sed -n 's/.*"link":"\([^"]*\)".*/\1/p' "$work/live-host.out" | head -1)
    local addr proxied
    addr=$(sed 's|^tandem://\([^/]*\)/.*|\1|' <<< "$link")
    "$tandem" bench link --listen 127.0.0.1:0 --to "$addr" --latency "$LINK_MS" --jitter "$JITTER_MS" --seed 1 --duration 600 \
        > "$work/live-link.out" 2> "$work/live-link.err" &
    pids+=($!)
    wait_for "$work/live-link.out" "listening on"
    proxied=$(sed -n 's/^listening on //p' "$work/live-link.out")
    # shellcheck disable=SC2086
    env PULSE_SINK=a ${A_ENV:-} "$tandem" join "$link" --name A --json ${MEMBER_OPTS:-} \
        > "$work/live-A.out" 2> "$work/live-A.err" < /dev/null &
    pids+=($!)
    local pid_a=$!
    wait_for "$work/live-A.out" "joined party"
    sleep "$SETTLE"
    ffmpeg -v error -y -copyts -f pulse -i rec.monitor -c:a copy -f nut "$work/live.nut" < /dev/null &
    local rec=$!
    pids+=($rec)
    sleep 0.5
    "${py[@]}" drive "$work/host.sock" "$LIVE_SCRIPT" "$work/live-commands.jsonl" &
    local driver=$!
    pids+=($driver)
    # B joins LIVE_JOIN s after the script started, its party connection through the slow link.
    sleep "$LIVE_JOIN"
    # shellcheck disable=SC2086
    env PULSE_SINK=b ${B_ENV:-} "$tandem" join "${link/$addr/$proxied}" --name B --json ${MEMBER_OPTS:-} \
        > "$work/live-B.out" 2> "$work/live-B.err" < /dev/null &
    pids+=($!)
    local pid_b=$!
    echo "{\"step\": \"join B\", \"at\": $LIVE_JOIN, \"sent\": $(date +%s.%N)}" > "$work/live-join.jsonl"
    # Seen too: the stream's own frames (the clip's code) in both windows, once B's is up.
    win_a=$(window_of "$pid_a")
    win_b=$(window_of "$pid_b")
    grab_side_by_side "$work/live-seen.nut"
    wait "$driver" || true
    sleep 1
    kill -TERM "$rec" "$grab"; wait "$rec" "$grab" 2>/dev/null || true
    stop_all
    cat "$work/live-join.jsonl" >> "$work/live-commands.jsonl"
    "${py[@]}" heard "$work/live.nut" "$work/live-commands.jsonl" --tsv "$work/live.tsv"
    "${py[@]}" seen "$work/live-seen.nut" "$grab_geometry" "$work/live-commands.jsonl" --tsv "$work/live-seen.tsv"
    "${py[@]}" self-skew "$work/live-A.out" "$work/live-B.out"
    "${py[@]}" underruns "$pulse_log" "$pulse_started" "$work/live-commands.jsonl"
    echo "B's link: $(cat "$work/live-link.err")"
    keep "$work/live.nut" "$work/live-seen.nut"
}

# ------------------------------------------------------------------ the method's own error
sanity() {
    echo "== sanity: the method's own error"
    describe
    start_x 1920 1080
    start_pulse sanity
    pactl load-module module-combine-sink sink_name=both slaves=a,b > /dev/null
    local rec
    echo "-- 1. shifted.wav (right = left delayed by 1.2345 ms, made by a phase shift) played into rec: must read +1.2345 ms"
    ffmpeg -v error -y -copyts -f pulse -i rec.monitor -c:a copy -f nut "$work/s1.nut" < /dev/null &
    rec=$!; pids+=($rec); sleep 0.5
    paplay -d rec "$cache/shifted.wav"
    sleep 0.5; kill -TERM "$rec"; wait "$rec" 2>/dev/null || true
    "${py[@]}" heard "$work/s1.nut" - --tsv "$work/sanity-shift.tsv"
    echo "-- 2. one tandem play's sound on both channels (sink 'both' = a + b): must read 0"
    ffmpeg -v error -y -copyts -f pulse -i rec.monitor -c:a copy -f nut "$work/s2.nut" < /dev/null &
    rec=$!; pids+=($rec); sleep 0.5
    # shellcheck disable=SC2086
    PULSE_SINK=both "$tandem" play --no-config ${MEMBER_OPTS:-} --end 15 "$cache/noise.mp4" > "$work/s2.out" 2> "$work/s2.err" < /dev/null || true
    sleep 0.5; kill -TERM "$rec"; wait "$rec" 2>/dev/null || true
    "${py[@]}" heard "$work/s2.nut" - --tsv "$work/sanity-tandem-both.tsv"
    echo "-- 3. one mpv's sound on both channels: must read 0"
    ffmpeg -v error -y -copyts -f pulse -i rec.monitor -c:a copy -f nut "$work/s3.nut" < /dev/null &
    rec=$!; pids+=($rec); sleep 0.5
    # shellcheck disable=SC2086
    PULSE_SINK=both mpv --no-config --really-quiet --ao=pulse --vo=null --end=15 ${MPV_OPTS:-} "$cache/noise.mp4" > /dev/null 2>&1 < /dev/null || true
    sleep 0.5; kill -TERM "$rec"; wait "$rec" 2>/dev/null || true
    "${py[@]}" heard "$work/s3.nut" - --tsv "$work/sanity-mpv-both.tsv"
    echo "-- 4. lip sync: mpv, then mpv --audio-delay=0.1 (must read 100 ms more)"
    "${py[@]}" lipsync-header
    lipsync_case mpv "mpv"
    MPV_OPTS="${MPV_OPTS:-} --audio-delay=0.1" lipsync_case mpv "mpv --audio-delay=0.1"
    stop_all
}

for step in $steps; do
    case $step in
        heard|seen|lipsync|browser|live|sanity) "$step"; echo "load after $step: $(cut -d' ' -f1-3 /proc/loadavg)" ;;
        browser-seen) browser_seen; echo "load after $step: $(cut -d' ' -f1-3 /proc/loadavg)" ;;
        *) echo "unknown step $step (heard, seen, lipsync, browser, browser-seen, live, sanity)" >&2; exit 2 ;;
    esac
    echo
done
