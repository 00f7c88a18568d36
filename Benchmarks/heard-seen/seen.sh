# shellcheck shell=bash disable=SC2154
# Step `seen`: two windows seen apart (sourced by Benchmarks/heard-seen.sh).

seen() {
    echo "== seen apart: host script $SEEN_SCRIPT"
    describe
    start_x 1920 1080
    start_pulse seen
    party seen "$cache/noise.mp4"
    sleep "$SETTLE"
    grab_side_by_side "$work/seen.nut"
    fg "${py[@]}" drive "$work/host.sock" "$SEEN_SCRIPT" "$work/seen-commands.jsonl"
    kill -TERM "$grab"; wait "$grab" 2>/dev/null || true
    stop_all
    "${py[@]}" self-skew "$work/seen-A.out" "$work/seen-B.out"
    "${py[@]}" underruns "$pulse_log" "$pulse_started" "$work/seen-commands.jsonl"
    "${py[@]}" seen "$work/seen.nut" "$grab_geometry" "$work/seen-commands.jsonl" --tsv "$work/seen.tsv"
    keep "$work/seen.nut"
}

# grab_side_by_side OUT: windows win_a and win_b side by side (without a window manager they open
# centred, one over the other), the middle third of both (where the clip's code is) grabbed together at
# GRAB_FPS into OUT, kept at 1/4 size, gray. Sets grab (its pid) and grab_geometry (for `heard_seen.py seen`).
grab_side_by_side() {
    local wa ha wb hb
    eval "$(xdotool getwindowgeometry --shell "$win_a" | sed -n 's/^WIDTH=/wa=/p; s/^HEIGHT=/ha=/p')"
    eval "$(xdotool getwindowgeometry --shell "$win_b" | sed -n 's/^WIDTH=/wb=/p; s/^HEIGHT=/hb=/p')"
    xdotool windowmove "$win_a" 0 0
    xdotool windowmove "$win_b" "$wa" 0
    sleep 0.5
    echo "windows: A ${wa}x${ha} at 0,0; B ${wb}x${hb} at $wa,0 (video fills each: the clip is 16:9 and so are they)"
    local gw=$((wa + wb)) gh=$(( (ha < hb ? ha : hb) / 3 ))
    gw=$((gw / 4 * 4)); gh=$((gh / 4 * 4))
    ffmpeg -v error -y -copyts -f x11grab -framerate "$GRAB_FPS" -draw_mouse 0 -video_size "${gw}x${gh}" -i "$DISPLAY+0,$gh" \
        -vf "format=gray,scale=iw/4:ih/4:flags=area" -fps_mode passthrough -enc_time_base:v 1:1000000 -c:v rawvideo \
        -f nut "$1" < /dev/null &
    grab=$!
    pids+=($grab)
    grab_geometry="$((gw / 4)) $((gh / 4)) 0 $((wa / 4)) $((wa / 4)) $((wb / 4))"
    sleep 0.5
}
