#!/usr/bin/env bash
# A watch party on loopback with the bundled clip: a host serving its party and two headless
# participants that have no copy of the file and stream it, each its own process. Prints each participant's live skew against the host
# (positions sampled through their mpv IPC sockets on this machine's monotonic clock), then a summary.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
swift build -c release --product tandem >&2
tandem=$(swift build -c release --show-bin-path)/tandem
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT

wait_for() { for _ in $(seq 200); do grep -q "$2" "$1" 2>/dev/null && return 0; sleep 0.05; done; echo "timed out waiting for $2 in $1" >&2; exit 1; }

# The host serves its own party — the WebSocket and the media, on one port — and plays at 2 s,
# pauses at 10, resumes at 12, seeks to 0:30 at 15, runs at 1.25x from 19 to 23.
"$tandem" host assets/party.mp4 --listen 127.0.0.1:0 --headless --party demo --key demo --name host \
    --ipc "$work/host.sock" --duration 28 --script "play@2,pause@10,play@12,seek:30@15,rate:1.25@19,rate:1@23" \
    > "$work/host.out" 2> "$work/host.err" &
host=$!
members=($host)
wait_for "$work/host.out" "tandem://"
link=$(grep -m1 '^tandem://' "$work/host.out")
echo "party link $link"
# Two participants join from an empty folder: no copy of the file, so they stream it from the party.
mkdir -p "$work/empty"
for name in alice bob; do
    (cd "$work/empty" && exec "$tandem" join "$link" --headless --name "$name" --media . --ipc "$work/$name.sock" --duration 26) \
        2> "$work/$name.err" &
    members+=($!)
done
"$tandem" bench party --ipc "$work/host.sock" --ipc "$work/alice.sock" --ipc "$work/bob.sock" --duration 22
# The members leave by themselves (--duration); the party ends with its host.
wait "${members[@]}"
echo "--- what alice saw"
tr '\r' '\n' < "$work/alice.err" | grep -v '^party ' | grep -v '^\s*$' | grep -v 'tandem.ipc' | sed 's/\x1b\[K//g' | head -3
echo "--- what the host saw"
tr '\r' '\n' < "$work/host.err" | grep -v '^party ' | grep -v '^\s*$' | grep -v 'tandem.ipc' | sed 's/\x1b\[K//g'
