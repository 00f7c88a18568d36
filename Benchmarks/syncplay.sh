#!/usr/bin/env bash
# Issue #13 part 5, on real processes on loopback, sampled over mpv IPC by `tandem bench party`
# (skew of each member against the first socket, per phase: steady, after resume, after seek, paused):
#   1. one Syncplay room on Debian's syncplay-server: a reference syncplay+mpv peer (driven over its
#      mpv IPC: play, pause, play, seek, seek), and against it a Tandem guest (`tandem join syncplay://`)
#      next to two more syncplay+mpv peers, same run. Goal: Tandem never the worse one.
#   2. one Tandem party served by `tandem host --syncplay`: the host, a Tandem guest, and a syncplay+mpv
#      guest through the gateway, same run: each guest's skew against the host (Syncplay's class is
#      ~100 ms; a Tandem guest's sub-millisecond).
# Usage: Benchmarks/syncplay.sh [1|2]...   (both without arguments; SHORT=1: a quick check run; FILE=: the media)
# Run it with nothing else on the machine.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ -n "${SHORT:-}" ]; then
    SCRIPT="play@2,pause@6,play@7,seek:30@9"; SAMPLE=12
else
    SCRIPT="play@2,pause@10,play@12,seek:30@16,seek:5@24"; SAMPLE=32   # as party-jitter.sh
fi
steps=${*:-1 2}
GUESTS_JOIN=10   # seconds the party's guests get to join before the host's script starts (step 2)

scripts/install-deps.sh syncplay-server syncplay mpv >&2
if [ -z "${TANDEM:-}" ]; then swift build -c release --product tandem >&2; fi
tandem=${TANDEM:-$(swift build -c release --show-bin-path)/tandem}   # TANDEM=path: another build
# assets/party.mp4 is 10 fps: mpv under --vo=null reports time-pos a frame at a time, so a syncplay+mpv
# peer's skew is read in 100 ms steps. FILE=bench-out/1080p-h264.mp4 (Benchmarks/make-media.sh) reads finer.
file=$(realpath "${FILE:-assets/party.mp4}")
work=$(mktemp -d)
export HOME=$work XDG_CONFIG_HOME=$work/.config   # syncplay's settings stay out of the user's
unset DISPLAY
# mpv outlives the syncplay client that started it: each is told to quit over its own socket.
quit_mpvs() { for s in "$work"/*.sock; do [ -S "$s" ] && mpv_ipc "$s" quit > /dev/null 2>&1 || true; done; }
trap 'quit_mpvs; kill $(jobs -p) 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$work"' EXIT
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs); script $SCRIPT"

wait_for() { for _ in $(seq 600); do grep -q "$2" "$1" 2>/dev/null && return 0; sleep 0.05; done; echo "timed out waiting for $2 in $1" >&2; exit 1; }
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
# mpv_ipc SOCKET COMMAND ARGS...: one mpv IPC command, its answer's data printed.
mpv_ipc() {
    python3 - "$@" <<'PY'
import json, socket, sys
s = socket.socket(socket.AF_UNIX); s.settimeout(5); s.connect(sys.argv[1])
def arg(a):
    try: return json.loads(a)
    except ValueError: return a
args = [arg(a) for a in sys.argv[2:]]
s.sendall((json.dumps({"command": args, "request_id": 1}) + "\n").encode())
buf = b""
while True:
    chunk = s.recv(65536)
    if not chunk: break
    buf += chunk
    for line in buf.split(b"\n"):
        try: msg = json.loads(line)
        except ValueError: continue
        if msg.get("request_id") == 1: print(json.dumps(msg.get("data"))); sys.exit(0)
PY
}
# syncplay_peer NAME PORT ROOM [PASSWORD]: a syncplay --no-gui client playing $file in mpv
# (no video, no sound) with its IPC at $work/NAME.sock.
syncplay_peer() {
    local password=()
    [ -n "${4:-}" ] && password=(-p "$4")
    syncplay --no-gui --no-store -a "127.0.0.1:$2" -n "$1" -r "$3" "${password[@]}" --player-path /usr/bin/mpv "$file" \
        -- --vo=null --ao=null --input-ipc-server="$work/$1.sock" > "$work/$1.log" 2>&1 &
}
wait_socket() { for _ in $(seq 600); do [ -S "$1" ] && mpv_ipc "$1" get_property duration > /dev/null 2>&1 && return 0; sleep 0.1; done; echo "no mpv on $1:" >&2; cat "${1%.sock}.log" >&2; exit 1; }
# drive SOCKET: the host script's steps on a syncplay+mpv peer. Syncplay may answer the first resume
# with "ready" and stay paused until the others are: a resume is asked again until mpv plays.
drive() {
    local sock=$1 start step at action value
    start=$(date +%s.%N)
    IFS=, read -ra steps_ <<< "$SCRIPT"
    for step in "${steps_[@]}"; do
        at=${step#*@}; action=${step%@*}; value=${action#*:}; action=${action%%:*}
        sleep "$(awk -v s="$start" -v a="$at" -v n="$(date +%s.%N)" 'BEGIN { d = s + a - n; print (d > 0 ? d : 0) }')"
        case $action in
            play) for _ in $(seq 50); do mpv_ipc "$sock" set_property pause false > /dev/null
                      [ "$(mpv_ipc "$sock" get_property pause)" = false ] && break; sleep 0.1; done ;;
            pause) mpv_ipc "$sock" set_property pause true > /dev/null ;;
            seek) mpv_ipc "$sock" set_property time-pos "$value" > /dev/null ;;
        esac
    done
}

if [[ " $steps " == *" 1 "* ]]; then
    echo "## 1. one Syncplay room: a Tandem guest and two syncplay+mpv peers against the reference syncplay+mpv peer"
    port=$(free_port)
    syncplay-server --port "$port" > "$work/server.log" 2>&1 &
    for _ in $(seq 200); do python3 -c "import socket; socket.create_connection(('127.0.0.1', $port))" 2>/dev/null && break; sleep 0.1; done
    syncplay_peer reference "$port" bench
    wait_socket "$work/reference.sock"
    "$tandem" join "syncplay://127.0.0.1:$port/bench" --headless --name tandem --file "$file" --ipc "$work/tandem.sock" \
        --duration $((SAMPLE + 20)) > "$work/tandem.out" 2> "$work/tandem.err" &
    syncplay_peer mpv2 "$port" bench
    syncplay_peer mpv3 "$port" bench
    wait_socket "$work/mpv2.sock"; wait_socket "$work/mpv3.sock"
    for _ in $(seq 200); do [ -S "$work/tandem.sock" ] && break; sleep 0.1; done
    drive "$work/reference.sock" &
    driver=$!
    "$tandem" bench party --ipc "$work/reference.sock" --ipc "$work/tandem.sock" --ipc "$work/mpv2.sock" --ipc "$work/mpv3.sock" \
        --duration "$SAMPLE"
    wait "$driver" 2>/dev/null || true
    quit_mpvs
    rm -f "$work"/*.sock
fi

if [[ " $steps " == *" 2 "* ]]; then
    echo "## 2. one Tandem party (host --syncplay): a Tandem guest and a syncplay+mpv guest against the host"
    # The host's script starts once the guests had time to join (syncplay and mpv start slowly).
    late=$(tr , '\n' <<< "$SCRIPT" | awk -F@ -v d="$GUESTS_JOIN" '{ printf "%s%s@%g", (NR > 1 ? "," : ""), $1, $2 + d }')
    "$tandem" host "$file" --listen 127.0.0.1:0 --syncplay 127.0.0.1:0 --headless --party bench --key benchkey --name host \
        --control everyone --ipc "$work/host.sock" --duration $((SAMPLE + GUESTS_JOIN + 20)) --script "$late" \
        > "$work/host.out" 2> "$work/host.err" &
    wait_for "$work/host.out" "^tandem"
    wait_for "$work/host.err" "syncplay gateway on"
    link=$(grep -m1 '^tandem' "$work/host.out")
    gateway=$(sed -n 's/.*syncplay gateway on 127.0.0.1:\([0-9]*\).*/\1/p' "$work/host.err")
    (cd "$work" && exec "$tandem" join "$link" --headless --name tandem --media "$(dirname "$file")" --ipc "$work/tandem.sock" \
        --duration $((SAMPLE + GUESTS_JOIN + 15))) > "$work/guest.out" 2> "$work/guest.err" &
    syncplay_peer syncplay "$gateway" bench benchkey
    wait_socket "$work/syncplay.sock"
    # Sampling starts with the host's script (at GUESTS_JOIN s after the host joined, about now or later).
    sleep "$(awk -v h="$(stat -c %Y "$work/host.out")" -v n="$(date +%s)" -v d="$GUESTS_JOIN" 'BEGIN { w = h + d - n - 1; print (w > 0 ? w : 0) }')"
    "$tandem" bench party --ipc "$work/host.sock" --ipc "$work/tandem.sock" --ipc "$work/syncplay.sock" --duration "$SAMPLE"
    quit_mpvs
fi
