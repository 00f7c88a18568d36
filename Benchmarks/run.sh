#!/usr/bin/env bash
# Runs every player-core benchmark and prints Markdown tables for BENCHMARKS.md.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh mpv
Benchmarks/make-media.sh >&2
swift build -c release --product tandem >&2
tandem=$(swift build -c release --show-bin-path)/tandem
echo "machine: $(nproc) cores, $(free -g | awk '/Mem:/{print $2}') GiB, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)"
"$tandem" bench decode bench-out/720p-h264.mp4 --runs 5
"$tandem" bench decode bench-out/720p-vp9.webm --runs 5
"$tandem" bench real-time bench-out/1080p-h264.mp4 --runs 1
"$tandem" bench first-frame bench-out/720p-h264.mp4 --runs 10
