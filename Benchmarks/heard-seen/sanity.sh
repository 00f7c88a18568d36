# shellcheck shell=bash disable=SC2154
# Step `sanity`: the method's own error (sourced by Benchmarks/heard-seen.sh).

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
