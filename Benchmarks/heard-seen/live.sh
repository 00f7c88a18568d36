# shellcheck shell=bash disable=SC2154
# Step `live`: a live stream, a late member over a slow link (sourced by Benchmarks/heard-seen.sh).

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
