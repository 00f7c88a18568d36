#!/usr/bin/env bash
# Builds the libFuzzer targets (Sources/Fuzz*) with -sanitize=fuzzer,address into .build-fuzz and
# runs each for SECONDS (default 60), starting from the committed seeds in Fuzz/corpus/TARGET.
# New inputs go to .build-fuzz/corpus/TARGET (not committed); crashes to Fuzz/crashes/TARGET-*.
# Exit status 1 if any target crashed. Usage: scripts/fuzz.sh [SECONDS | --build] [TARGET...]
# (--build builds the targets and stops: CI builds them ahead, in the background.)
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-60}"
shift || true
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then targets=(FuzzPartyMessage FuzzIPCRequest FuzzHTTPUpgrade FuzzByteRange FuzzWebPath); fi

# The fuzz build is a separate build (every Swift module instrumented); FUZZING swaps each target's
# replaying main for libFuzzer's driver. No index store and no debug info (as scripts/leak-check.sh:
# about 40 % less CPU to compile); a crash's report names the functions (the symbol table), and its
# input replays with lines in the normal debug build
# (`swift build --product TARGET && .build/debug/TARGET Fuzz/crashes/TARGET-…`).
build=(swift build --build-path .build-fuzz -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING
       --disable-index-store -debug-info-format none)
for target in "${targets[@]}"; do
    "${build[@]}" --product "$target" 2>&1 | grep -v "Cannot export local symbol" | tail -3
done
[ "$seconds" != --build ] || exit 0
bin="$("${build[@]}" --show-bin-path)"

mkdir -p Fuzz/crashes
status=0
for target in "${targets[@]}"; do
    work=".build-fuzz/corpus/$target"
    mkdir -p "$work"
    echo "== $target: ${seconds} s"
    log=".build-fuzz/$target.log"
    # Swift's runtime keeps metadata caches for the whole process: not leaks worth a report.
    set +e
    ASAN_OPTIONS="detect_leaks=0:${ASAN_OPTIONS:-}" nice -n 10 "$bin/$target" "$work" "Fuzz/corpus/$target" \
        -max_total_time="$seconds" -max_len=4096 -timeout=20 -rss_limit_mb=2048 -print_final_stats=1 \
        -artifact_prefix="Fuzz/crashes/$target-" >"$log" 2>&1
    code=$?
    set -e
    grep -E "^(#[0-9]+ +DONE|stat::number_of_executed_units|stat::average_exec_per_sec|stat::new_units_added)" "$log" || true
    if [ $code -ne 0 ]; then
        grep -E "==[0-9]+==|SUMMARY|Fatal error|rror:" "$log" | head -20 || true
        echo "!! $target crashed (exit $code): see Fuzz/crashes/$target-* and $log"
        status=1
    fi
done
exit $status
