# shellcheck shell=bash disable=SC2154
# Step `heard`: two members heard apart (sourced by Benchmarks/heard-seen.sh).

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
