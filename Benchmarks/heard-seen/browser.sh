# shellcheck shell=bash disable=SC2154
# Steps `browser` and `browser-seen`: a browser guest against a native member (sourced by
# Benchmarks/heard-seen.sh).

# browser_host STEP: a headless host of the noise clip (IPC at $work/host.sock); sets link and web (its links)
browser_host() {
    "$tandem" host "$cache/noise.mp4" --headless --listen 127.0.0.1:0 --no-port-mapping --name host --ipc "$work/host.sock" --json \
        > "$work/$1-host.out" 2> "$work/$1-host.err" &
    pids+=($!)
    wait_for "$work/$1-host.out" '"link"'
    link=$(sed -n 's/.*"link":"\([^"]*\)".*/\1/p' "$work/$1-host.out" | head -1)
    web=$(sed -n 's/.*"web":"\([^"]*\)".*/\1/p' "$work/$1-host.out" | head -1)
}

browser() {
    echo "== heard apart, native member A (--headless --ao=pulse) against browser guest B (Chromium): host script $HEARD_SCRIPT"
    describe
    echo "chromium: $(chromium --version 2>/dev/null || echo '?')"
    start_pulse browser
    browser_host browser
    # shellcheck disable=SC2086
    env PULSE_SINK=a ${A_ENV:-} "$tandem" join "$link" --headless --ao=pulse --name A --media "$cache" --json ${MEMBER_OPTS:-} \
        > "$work/browser-A.out" 2> "$work/browser-A.err" < /dev/null &
    pids+=($!)
    wait_for "$work/browser-A.out" "joined party"
    # shellcheck disable=SC2086
    env PULSE_SINK=b ${B_ENV:-} python3 "$root/Benchmarks/browser_guest.py" join "$web" "$work/browser-B.jsonl" B \
        > "$work/browser-B.err" 2>&1 &
    pids+=($!)
    wait_for "$work/browser-B.jsonl" '"ready": true'
    record_heard browser
    "${py[@]}" self-skew "$work/browser-A.out"
    python3 "$root/Benchmarks/browser_guest.py" self-skew "$work/browser-B.jsonl"
    "${py[@]}" underruns "$pulse_log" "$pulse_started" "$work/browser-commands.jsonl"
    keep "$work/browser.nut" "$work/browser-B.jsonl"
}

browser_seen() {
    echo "== seen apart, native member A (window) against browser guest B (Chromium in a window): host script $SEEN_SCRIPT"
    describe
    echo "chromium: $(chromium --version 2>/dev/null || echo '?')"
    start_x 1920 1080
    start_pulse browser-seen
    browser_host browser-seen
    # B first, on the right half of the screen: its picture's place decides where A's window goes.
    # shellcheck disable=SC2086
    env PULSE_SINK=b ${B_ENV:-} python3 "$root/Benchmarks/browser_guest.py" join "$web" "$work/browser-seen-B.jsonl" B \
        --window 960,0,960,1000 --picture "$work/picture" > "$work/browser-seen-B.err" 2>&1 &
    pids+=($!)
    # The host plays once B is in, so that the page has a picture to place.
    "${py[@]}" drive "$work/host.sock" "play@0" /dev/null
    wait_for "$work/picture" .
    local px pt pw ph
    read -r px pt pw ph < "$work/picture"
    pw=$((pw / 4 * 4)); ph=$((ph / 12 * 12))
    echo "browser picture: ${pw}x${ph} at $px,$pt"
    "${py[@]}" drive "$work/host.sock" "pause@0" /dev/null
    # A's window: the picture's size, just left of it, top edges level, so that the middle thirds of both
    # pictures (the clip's code) are one strip of the screen.
    # shellcheck disable=SC2086
    env PULSE_SINK=a ${A_ENV:-} "$tandem" join "$link" --name A --media "$cache" --json ${MEMBER_OPTS:-} \
        > "$work/browser-seen-A.out" 2> "$work/browser-seen-A.err" < /dev/null &
    pids+=($!)
    wait_for "$work/browser-seen-A.out" "joined party"
    win_a=$(window_of "$!")
    xdotool windowsize "$win_a" "$pw" "$ph"
    xdotool windowmove "$win_a" $((px - pw)) "$pt"
    sleep "$SETTLE"
    local gw=$((2 * pw)) gh=$((ph / 3))
    ffmpeg -v error -y -copyts -f x11grab -framerate "$GRAB_FPS" -draw_mouse 0 -video_size "${gw}x${gh}" -i "$DISPLAY+$((px - pw)),$((pt + gh))" \
        -vf "format=gray,scale=iw/4:ih/4:flags=area" -fps_mode passthrough -enc_time_base:v 1:1000000 -c:v rawvideo \
        -f nut "$work/browser-seen.nut" < /dev/null &
    grab=$!
    pids+=($grab)
    sleep 0.5
    fg "${py[@]}" drive "$work/host.sock" "$SEEN_SCRIPT" "$work/browser-seen-commands.jsonl"
    kill -TERM "$grab"; wait "$grab" 2>/dev/null || true
    stop_all
    "${py[@]}" self-skew "$work/browser-seen-A.out"
    python3 "$root/Benchmarks/browser_guest.py" self-skew "$work/browser-seen-B.jsonl"
    "${py[@]}" seen "$work/browser-seen.nut" "$((gw / 4)) $((gh / 4)) 0 $((pw / 4)) $((pw / 4)) $((pw / 4))" \
        "$work/browser-seen-commands.jsonl" --tsv "$work/browser-seen.tsv"
    keep "$work/browser-seen.nut" "$work/browser-seen-B.jsonl"
}
