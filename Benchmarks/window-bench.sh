#!/usr/bin/env bash
# Windowed playback cost: `tandem play` against `ffplay -autoexit` on the same 1080p30 H.264 + AAC
# clip, each in a 1920x1080 Xvfb screen with SDL's dummy sound driver. Reports CPU time (user + sys
# from /usr/bin/time), dropped frames and frames shown, as medians over RUNS alternating runs, and
# the tandem/ffplay ratios, as a Markdown table.
#   tandem: dropped = the end summary's droppedFrames (late frames the presenter skipped) + the
#           window line's skippedFrames (presented but replaced before the window drew them);
#           shown = the window line's shownFrames.
#   ffplay: dropped = the last `fd=` of its -stats line; shown = the clip's frames − fd.
#
#   Benchmarks/window-bench.sh            # RUNS=3 by default; CLIP=path to use another clip
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${RUNS:-3}
scripts/install-deps.sh >&2
mkdir -p bench-out
clip=${CLIP:-bench-out/1080p30-20s.mp4}
if [ ! -s "$clip" ]; then
    ffmpeg -v error -y -f lavfi -i testsrc2=size=1920x1080:rate=30:duration=20 -f lavfi -i sine=f=440:sample_rate=48000:duration=20 \
        -c:v libx264 -preset veryfast -crf 23 -g 60 -pix_fmt yuv420p -c:a aac -b:a 128k -ac 2 -shortest "$clip"
fi
swift build -c release --scratch-path .build-window-release --product tandem >&2
tandem=$(swift build -c release --scratch-path .build-window-release --show-bin-path)/tandem
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

frames=$(ffprobe -v error -count_packets -select_streams v:0 -show_entries stream=nb_read_packets -of csv=p=0 "$clip")

# One run inside its own X server: prints "cpu_seconds dropped_frames wall_seconds shown_frames".
run_one() {
    local player=$1 out=$work/$1.out err=$work/$1.err times=$work/$1.time
    local cmd
    if [ "$player" = tandem ]; then
        cmd=("$tandem" play --no-config "$clip" --json)
    else
        cmd=(ffplay -autoexit -stats -loglevel info "$clip")
    fi
    SDL_AUDIODRIVER=dummy xvfb-run -a -s "-screen 0 1920x1080x24" \
        /usr/bin/time -o "$times" -f "%U %S %e" "${cmd[@]}" >"$out" 2>"$err" </dev/null
    local dropped shown
    if [ "$player" = tandem ]; then
        local late skipped
        late=$(grep '"event":"end"' "$out" | sed -E 's/.*"droppedFrames":([0-9]+).*/\1/')
        skipped=$(grep '"event":"window"' "$out" | sed -E 's/.*"skippedFrames":([0-9]+).*/\1/')
        shown=$(grep '"event":"window"' "$out" | sed -E 's/.*"shownFrames":([0-9]+).*/\1/')
        dropped=$(( ${late:-0} + ${skipped:-0} ))
    else
        # The status line is redrawn with \r: the last fd= is the total.
        dropped=$(tr '\r' '\n' <"$err" | grep -oE 'fd= *[0-9]+' | tail -1 | grep -oE '[0-9]+' || echo NA)
        shown=$([ "$dropped" = NA ] && echo NA || echo $(( frames - dropped )))
    fi
    awk -v d="${dropped:-NA}" -v s="${shown:-NA}" '{ printf "%.2f %s %.2f %s\n", $1 + $2, d, $3, s }' "$times"
}

# Nearest-rank median, the definition of every figure in BENCHMARKS.md (the lower middle of an even count).
median() { "$tandem" bench percentile 50; }

load_before=$(cut -d' ' -f1-3 /proc/loadavg)
for i in $(seq "$runs"); do
    for player in tandem ffplay; do
        result=$(run_one "$player")
        read -r cpu dropped wall shown <<<"$result"
        echo "run $i $player: cpu $cpu s, dropped $dropped, shown $shown, wall $wall s" >&2
        echo "$result" >>"$work/$player.results"
    done
done

column() { cut -d' ' -f"$2" "$work/$1.results" | grep -v NA | median; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "NA" || b == "NA") print "n/a"; else if (b == 0) print (a == 0 ? "1.00 (both 0)" : "∞ (ffplay 0)"); else printf "%.2f\n", a / b }'; }

t_cpu=$(column tandem 1); f_cpu=$(column ffplay 1)
t_drop=$(column tandem 2); f_drop=$(column ffplay 2)
t_wall=$(column tandem 3); f_wall=$(column ffplay 3)
t_shown=$(column tandem 4); f_shown=$(column ffplay 4)
per_frame() { awk -v c="$1" -v n="$2" 'BEGIN { if (c == "NA" || n == "NA" || n == 0) print "NA"; else printf "%.1f\n", 1000 * c / n }'; }
t_pf=$(per_frame "$t_cpu" "$t_shown"); f_pf=$(per_frame "$f_cpu" "$f_shown")
echo "load average before/after: $load_before / $(cut -d' ' -f1-3 /proc/loadavg) (other work on the machine skews CPU figures)"
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs); renderer: SDL under Xvfb 1920x1080x24; sound: SDL dummy"
echo "clip: $clip ($(ffprobe -v error -select_streams v:0 -show_entries stream=width,height,r_frame_rate -of csv=p=0 "$clip"), $(ffprobe -v error -show_entries format=duration -of csv=p=0 "$clip") s); medians of $runs runs"
echo
echo "| windowed playback | tandem play | ffplay -autoexit | tandem/ffplay |"
echo "|---|---|---|---|"
echo "| CPU time (user+sys, s) | $t_cpu | $f_cpu | $(ratio "$t_cpu" "$f_cpu") |"
echo "| dropped frames (of $frames) | $t_drop | $f_drop | $(ratio "$t_drop" "$f_drop") |"
echo "| frames shown | $t_shown | $f_shown | $(ratio "$t_shown" "$f_shown") |"
echo "| CPU per frame shown (ms) | $t_pf | $f_pf | $(ratio "$t_pf" "$f_pf") |"
echo "| wall time (s) | $t_wall | $f_wall | $(ratio "$t_wall" "$f_wall") |"
