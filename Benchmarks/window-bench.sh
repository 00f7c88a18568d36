#!/usr/bin/env bash
# Windowed playback cost: `tandem play` against `ffplay -autoexit` on the same 1080p30 H.264 + AAC
# clip, each in a 1920x1080 Xvfb screen with SDL's dummy sound driver. Reports CPU time (user + sys
# from /usr/bin/time) and dropped frames (tandem: the `--json` end summary's droppedFrames; ffplay:
# the last `fd=` of its -stats line), as medians over RUNS alternating runs, and the tandem/ffplay
# ratios, as a Markdown table.
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

# One run inside its own X server: prints "cpu_seconds dropped_frames wall_seconds".
run_one() {
    local player=$1 out=$work/$1.out err=$work/$1.err times=$work/$1.time
    local cmd
    if [ "$player" = tandem ]; then
        cmd=("$tandem" play "$clip" --json)
    else
        cmd=(ffplay -autoexit -stats -loglevel info "$clip")
    fi
    SDL_AUDIODRIVER=dummy xvfb-run -a -s "-screen 0 1920x1080x24" \
        /usr/bin/time -o "$times" -f "%U %S %e" "${cmd[@]}" >"$out" 2>"$err" </dev/null
    local dropped
    if [ "$player" = tandem ]; then
        dropped=$(grep '"event":"end"' "$out" | sed -E 's/.*"droppedFrames":([0-9]+).*/\1/')
    else
        # The status line is redrawn with \r: the last fd= is the total.
        dropped=$(tr '\r' '\n' <"$err" | grep -oE 'fd= *[0-9]+' | tail -1 | grep -oE '[0-9]+' || echo NA)
    fi
    awk -v d="${dropped:-NA}" '{ printf "%.2f %s %.2f\n", $1 + $2, d, $3 }' "$times"
}

median() { sort -g | awk '{ v[NR] = $1 } END { if (NR == 0) print "NA"; else if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

for i in $(seq "$runs"); do
    for player in tandem ffplay; do
        result=$(run_one "$player")
        echo "run $i $player: cpu ${result% * *} s, dropped $(echo "$result" | cut -d' ' -f2), wall ${result##* } s" >&2
        echo "$result" >>"$work/$player.results"
    done
done

column() { cut -d' ' -f"$2" "$work/$1.results" | grep -v NA | median; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "NA" || b == "NA") print "n/a"; else if (b == 0) print (a == 0 ? "1.00 (both 0)" : "∞ (ffplay 0)"); else printf "%.2f\n", a / b }'; }

t_cpu=$(column tandem 1); f_cpu=$(column ffplay 1)
t_drop=$(column tandem 2); f_drop=$(column ffplay 2)
t_wall=$(column tandem 3); f_wall=$(column ffplay 3)
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs); renderer: SDL under Xvfb 1920x1080x24; sound: SDL dummy"
echo "clip: $clip ($(ffprobe -v error -select_streams v:0 -show_entries stream=width,height,r_frame_rate -of csv=p=0 "$clip"), $(ffprobe -v error -show_entries format=duration -of csv=p=0 "$clip") s); medians of $runs runs"
echo
echo "| windowed playback | tandem play | ffplay -autoexit | tandem/ffplay |"
echo "|---|---|---|---|"
echo "| CPU time (user+sys, s) | $t_cpu | $f_cpu | $(ratio "$t_cpu" "$f_cpu") |"
echo "| dropped frames | $t_drop | $f_drop | $(ratio "$t_drop" "$f_drop") |"
echo "| wall time (s) | $t_wall | $f_wall | $(ratio "$t_wall" "$f_wall") |"
