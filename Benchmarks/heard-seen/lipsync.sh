# shellcheck shell=bash disable=SC2154
# Step `lipsync`: one player's sound against its picture (sourced by Benchmarks/heard-seen.sh).

# capture NAME CMD…: runs CMD (a player on flash.mkv, sound to rec) while one ffmpeg grabs the middle
# 32x32 of the screen (where both players centre their window) at 250 fps and records rec.monitor;
# $work/NAME.nut.
capture() {
    local name=$1; shift
    ffmpeg -v error -y -copyts -thread_queue_size 4096 -f x11grab -framerate 250 -draw_mouse 0 -video_size 32x32 \
        -i "$DISPLAY+$((screen_w / 2 - 16)),$((screen_h / 2 - 16))" \
        -thread_queue_size 4096 -f pulse -i rec.monitor -map 0:v -map 1:a -c copy -f nut "$work/$name.nut" < /dev/null > "$work/$name.ffmpeg.log" 2>&1 &
    local grab=$!
    pids+=($grab)
    sleep 1
    fg "$@" > "$work/$name.out" 2> "$work/$name.err" < /dev/null || echo "($name: the player exited with $?)" >&2
    sleep 0.5
    kill -TERM "$grab"; wait "$grab" 2>/dev/null || true
}

lipsync_case() {   # lipsync_case PLAYER[:ITEM,…] [LABEL]: ITEM VAR=x (environment) or --option=x
    local player=${1%%:*} envs="" opts="" label=${2:-$1} item items=()
    [[ $1 == *:* ]] && IFS=, read -ra items <<< "${1#*:}"
    for item in "${items[@]}"; do
        if [[ $item == --* ]]; then opts+=" $item"; else envs+=" $item"; fi
    done
    local name
    name=lip-$(tr -c 'A-Za-z0-9' '_' <<< "$label")
    # shellcheck disable=SC2086
    if [ "$player" = tandem ]; then
        capture "$name" env PULSE_SINK=rec $envs "$tandem" play --no-config ${MEMBER_OPTS:-} $opts "$cache/flash.mkv"
    elif [ "$player" = tandem-host ]; then   # a party of one: its clock started on an instant
        capture "$name" env PULSE_SINK=rec $envs "$tandem" host --insecure --no-port-mapping \
            --listen 127.0.0.1:0 --script play@1 --duration 21 ${MEMBER_OPTS:-} $opts "$cache/flash.mkv"
    else
        capture "$name" env PULSE_SINK=rec $envs mpv --no-config --really-quiet --ao=pulse --vo=x11 --no-osc --osd-level=0 \
            ${MPV_OPTS:-} $opts "$cache/flash.mkv"
    fi
    "${py[@]}" lipsync "$work/$name.nut" --label "$label"
    keep "$work/$name.nut"
}

lipsync() {
    echo "== lip sync: flash.mkv (a flash and a click each second, 20 s); cases: $LIP_CASES"
    describe
    start_x 1280 720
    start_pulse lipsync
    "${py[@]}" lipsync-header
    if [ -n "${LIP_COMPANION:-}" ]; then pacat -p --latency-msec="$LIP_COMPANION" -d b /dev/zero & pids+=($!); fi
    local c
    for c in $LIP_CASES; do lipsync_case "$c"; done
    stop_all
}
