#!/usr/bin/env bash
# Opens, prerolls (seek to 0.5 s) and closes a clip COUNT times (default 1000) in one process built
# with AddressSanitizer; LeakSanitizer fails the run on any leaked allocation at exit.
# (valgrind 3.19 crashes on Swift's dispatch runtime, so LSan is the checker.)
# Usage: scripts/leak-check.sh [COUNT] | --build (builds it and stops: CI builds it ahead, in the background)
set -euo pipefail
cd "$(dirname "$0")/.."
count=${1:-1000}
scripts/install-deps.sh
# Its own build (only LeakCheck, PlayerCore, FFmpegKit and what they import), without an index store or
# debug info: 28 s of CPU instead of 49 s (a cold build, measured), and LeakSanitizer's reports still
# name every function (the symbol table, mangled: `swift demangle` reads them), only not the line.
swift build --product LeakCheck --scratch-path .build-asan -Xswiftc -sanitize=address \
    --disable-index-store -debug-info-format none >&2
[ "$count" != --build ] || exit 0
for clip in assets/h264-aac.mp4 assets/vp9-opus.webm; do
    echo "leak check: $clip × $count" >&2
    ASAN_OPTIONS=detect_leaks=1:halt_on_error=1 .build-asan/debug/LeakCheck "$clip" "$count"
done
echo "leak check: no leaks in $count open/close cycles of each clip" >&2
