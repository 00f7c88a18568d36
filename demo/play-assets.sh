#!/usr/bin/env bash
# Plays every bundled clip headless in real time with mpv-style status, then prints its end summary.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
swift build -c release --product tandem >&2
tandem=$(swift build -c release --show-bin-path)/tandem
for clip in assets/h264-aac.mp4 assets/vp9-opus.webm assets/audio-only.m4a assets/vfr.mkv assets/10bit.mkv; do
    echo "== $clip"
    "$tandem" play --no-config --headless --json "$clip" | tail -n 1
done
