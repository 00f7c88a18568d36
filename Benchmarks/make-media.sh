#!/usr/bin/env bash
# Makes the benchmark clips (not committed: large) into bench-out/: 60 s of 720p H.264 and VP9,
# and 60 s of 1080p H.264, each with stereo AAC/Opus. Deterministic lavfi sources.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p bench-out
mk() { [ -s "$1" ] || ffmpeg -v error -y "${@:2}" "$1"; }
mk bench-out/720p-h264.mp4 -f lavfi -i testsrc2=size=1280x720:rate=30:duration=60 -f lavfi -i sine=f=440:sample_rate=48000:duration=60 \
   -c:v libx264 -preset veryfast -crf 23 -g 60 -pix_fmt yuv420p -c:a aac -b:a 128k -ac 2 -shortest
mk bench-out/720p-vp9.webm -f lavfi -i testsrc2=size=1280x720:rate=30:duration=60 -f lavfi -i sine=f=440:sample_rate=48000:duration=60 \
   -c:v libvpx-vp9 -deadline realtime -cpu-used 8 -b:v 2M -g 60 -row-mt 1 -c:a libopus -b:a 96k -ac 2 -shortest
mk bench-out/1080p-h264.mp4 -f lavfi -i testsrc2=size=1920x1080:rate=30:duration=60 -f lavfi -i sine=f=440:sample_rate=48000:duration=60 \
   -c:v libx264 -preset veryfast -crf 23 -g 60 -pix_fmt yuv420p -c:a aac -b:a 128k -ac 2 -shortest
ls -la bench-out
