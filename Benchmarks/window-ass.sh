#!/usr/bin/env bash
# Windowed 1080p playback with ASS subtitles: `tandem play` against `mpv` on the same clip (issue
# #12's benchmark). The 1080p30 H.264 + AAC clip of Benchmarks/make-media.sh is muxed into Matroska
# with a generated, styled ASS track (default-flagged, so both players show it by themselves): three
# styles with outline, shadow and a box, two to three lines on screen at every instant, a new one
# every 0.5 s, some positioned (\pos), moving (\move), fading (\fad) or karaoke (\k). Each player
# runs in its own 1920x1080 Xvfb screen with no sound device (SDL's dummy driver, mpv's null output)
# and no config file, for DURATION seconds. Reports CPU time (user + sys from /usr/bin/time) and
# dropped frames as medians over RUNS alternating runs, and the tandem/mpv ratios, as Markdown.
#   tandem: dropped = the end summary's droppedFrames (late frames the presenter skipped) + the
#           window line's skippedFrames (presented but replaced before the window drew them).
#   mpv:    dropped = frame-drop-count (frames the video output dropped) + decoder-frame-drop-count,
#           the last values of its status line (--term-status-msg, kept with --msg-level statusline=status).
#   mpv's video output is its default, gpu (OpenGL through Mesa's llvmpipe under Xvfb, as SDL's
#   renderer there); MPV_VO="sdl" or "x11" compares against another.
#
#   Benchmarks/window-ass.sh      # RUNS=3, DURATION=60 (the clip's length); CLIP=another 1080p clip;
#                                 # TANDEM=path/to/tandem skips the release build (e.g. a quick check)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${RUNS:-3}
mpv_vo=${MPV_VO:-gpu --gpu-context=x11egl}
scripts/install-deps.sh >&2
command -v mpv >/dev/null || { echo "mpv is not installed (apt-get install mpv)" >&2; exit 1; }
mkdir -p bench-out
clip=${CLIP:-bench-out/1080p-h264.mp4}
if [ ! -s "$clip" ]; then
    # Benchmarks/make-media.sh's 1080p clip.
    ffmpeg -v error -y -f lavfi -i testsrc2=size=1920x1080:rate=30:duration=60 -f lavfi -i sine=f=440:sample_rate=48000:duration=60 \
        -c:v libx264 -preset veryfast -crf 23 -g 60 -pix_fmt yuv420p -c:a aac -b:a 128k -ac 2 -shortest "$clip"
fi
clip_seconds=$(ffprobe -v error -show_entries format=duration -of csv=p=0 "$clip")
duration=${DURATION:-$clip_seconds}
if [ -n "${TANDEM:-}" ]; then
    tandem=$TANDEM
else
    swift build -c release --scratch-path .build-window-release --product tandem >&2
    tandem=$(swift build -c release --scratch-path .build-window-release --show-bin-path)/tandem
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The subtitles: a line every 0.5 s lasting 1.2 s (two to three on screen), cycling through styles
# and effects, for the clip's whole length.
ass=$work/subs.ass
{
    cat <<'EOF'
[Script Info]
ScriptType: v4.00+
PlayResX: 1920
PlayResY: 1080
WrapStyle: 0
ScaledBorderAndShadow: yes

[V4+ Styles]
Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding
Style: Dialogue,DejaVu Sans,64,&H00FFFFFF,&H000000FF,&H00000000,&H80000000,0,0,0,0,100,100,0,0,1,3,2,2,60,60,50,1
Style: Sign,DejaVu Serif,56,&H0000FFFF,&H000000FF,&H00402000,&H80000000,1,0,0,0,100,100,1,0,1,4,0,8,60,60,60,1
Style: Box,DejaVu Sans Mono,48,&H00FFFFFF,&H000000FF,&H00202020,&HA0000000,0,1,0,0,100,100,0,0,3,8,0,7,80,80,80,1

[Events]
Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text
EOF
    awk -v total="$clip_seconds" 'function t(s) { return sprintf("%d:%02d:%05.2f", int(s / 3600), int(s % 3600 / 60), s - 60 * int(s / 60)) }
    BEGIN {
        for (i = 0; i * 0.5 < total; i++) {
            s = i * 0.5; e = s + 1.2; k = i % 6
            if (k == 0) printf "Dialogue: 0,%s,%s,Dialogue,,0,0,0,,Line %d: the quick brown fox jumps over the lazy dog\\Nsecond row of line %d\n", t(s), t(e), i, i
            else if (k == 1) printf "Dialogue: 1,%s,%s,Sign,,0,0,0,,{\\pos(%d,%d)}SIGN %d {\\c&H00FF00&}green part\n", t(s), t(e), 300 + (i * 37) % 1300, 200 + (i * 53) % 500, i
            else if (k == 2) printf "Dialogue: 0,%s,%s,Dialogue,,0,0,0,,{\\fad(200,200)}Fading line %d with {\\i1}italics{\\i0} and {\\b1}bold{\\b0}\n", t(s), t(e), i
            else if (k == 3) printf "Dialogue: 1,%s,%s,Sign,,0,0,0,,{\\move(100,300,1500,400)}Moving sign %d\n", t(s), t(e), i
            else if (k == 4) printf "Dialogue: 0,%s,%s,Box,,0,0,0,,Boxed note %d in a monospaced font\\Non two rows\n", t(s), t(e), i
            else printf "Dialogue: 0,%s,%s,Dialogue,,0,0,0,,{\\k20}Ka{\\k20}ra{\\k20}o{\\k20}ke {\\k30}line {\\k30}%d\n", t(s), t(e), i
        }
    }'
} >"$ass"
subbed=$work/clip-ass.mkv
ffmpeg -v error -y -i "$clip" -i "$ass" -map 0 -map 1 -c copy -c:s ass -disposition:s:0 default "$subbed"
# The figures mean something only if tandem draws the track: its picture at 0.6 s (two events on
# screen) differs from the one without subtitles.
"$tandem" play --no-config --fast --start 0.6 --end 0.7 --snapshot "$work/with.png" "$subbed" >/dev/null
"$tandem" play --no-config --fast --start 0.6 --end 0.7 --sid no --snapshot "$work/without.png" "$subbed" >/dev/null
if cmp -s "$work/with.png" "$work/without.png"; then
    echo "tandem play shows no subtitles on $subbed: nothing to compare" >&2
    exit 1
fi
frames=$(awk -v d="$duration" -v r="$(ffprobe -v error -select_streams v:0 -show_entries stream=r_frame_rate -of csv=p=0 "$clip")" \
    'BEGIN { split(r, f, "/"); printf "%d\n", d * f[1] / f[2] }')

# One run inside its own X server: prints "cpu_seconds dropped_frames wall_seconds".
run_one() {
    local player=$1 out=$work/$1.out err=$work/$1.err times=$work/$1.time
    local cmd
    if [ "$player" = tandem ]; then
        cmd=("$tandem" play --no-config --end "$duration" --json "$subbed")
    else
        # shellcheck disable=SC2206 # MPV_VO holds options
        cmd=(mpv --no-config --ao=null --vo=$mpv_vo --end="$duration" --msg-level=all=warn,statusline=status
             '--term-status-msg=bench-status ${frame-drop-count} ${decoder-frame-drop-count}' "$subbed")
    fi
    SDL_AUDIODRIVER=dummy xvfb-run -a -s "-screen 0 1920x1080x24" \
        /usr/bin/time -o "$times" -f "%U %S %e" "${cmd[@]}" >"$out" 2>"$err" </dev/null
    local dropped
    if [ "$player" = tandem ]; then
        local late skipped
        late=$(grep '"event":"end"' "$out" | sed -E 's/.*"droppedFrames":([0-9]+).*/\1/')
        skipped=$(grep '"event":"window"' "$out" | sed -E 's/.*"skippedFrames":([0-9]+).*/\1/')
        dropped=$(( ${late:-0} + ${skipped:-0} ))
    else
        # The status line is redrawn with \r: the last one holds the totals.
        dropped=$(cat "$out" "$err" | tr '\r' '\n' | grep -oE 'bench-status [0-9]+ [0-9]+' | tail -1 \
            | awk '{ print $2 + $3 }')
    fi
    awk -v d="${dropped:-NA}" '{ printf "%.2f %s %.2f\n", $1 + $2, d, $3 }' "$times"
}

# Nearest-rank median, the definition of every figure in BENCHMARKS.md (the lower middle of an even count).
median() { "$tandem" bench percentile 50; }

load_before=$(cut -d' ' -f1-3 /proc/loadavg)
for i in $(seq "$runs"); do
    for player in tandem mpv; do
        result=$(run_one "$player")
        read -r cpu dropped wall <<<"$result"
        echo "run $i $player: cpu $cpu s, dropped $dropped, wall $wall s" >&2
        echo "$result" >>"$work/$player.results"
    done
done

column() { cut -d' ' -f"$2" "$work/$1.results" | grep -v NA | median; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "NA" || b == "NA" || a == "" || b == "") print "n/a"; else if (b == 0) print (a == 0 ? "1.00 (both 0)" : "∞ (mpv 0)"); else printf "%.2f\n", a / b }'; }

t_cpu=$(column tandem 1); m_cpu=$(column mpv 1)
t_drop=$(column tandem 2); m_drop=$(column mpv 2)
t_wall=$(column tandem 3); m_wall=$(column mpv 3)
echo "load average before/after: $load_before / $(cut -d' ' -f1-3 /proc/loadavg) (other work on the machine skews CPU figures)"
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs); Xvfb 1920x1080x24; no sound device; $(mpv --version | head -1 | cut -d' ' -f1-2), --vo=$mpv_vo"
echo "clip: $clip ($(ffprobe -v error -select_streams v:0 -show_entries stream=width,height,r_frame_rate -of csv=p=0 "$clip")) with $(grep -c '^Dialogue' "$ass") ASS events; ${duration} s played; medians of $runs runs"
echo
echo "| windowed 1080p + ASS | tandem play | mpv | tandem/mpv |"
echo "|---|---|---|---|"
echo "| CPU time (user+sys, s) | $t_cpu | $m_cpu | $(ratio "$t_cpu" "$m_cpu") |"
echo "| dropped frames (of $frames) | $t_drop | $m_drop | $(ratio "$t_drop" "$m_drop") |"
echo "| wall time (s) | $t_wall | $m_wall | $(ratio "$t_wall" "$m_wall") |"
