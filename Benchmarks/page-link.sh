#!/usr/bin/env bash
# A page link to its first frame, against its direct media URL plus yt-dlp's own run (issue #27's
# goal: page ≤ 1.5 × direct + yt-dlp). Pages served on loopback (Benchmarks/range_server.py: Python's
# http.server with byte ranges), read by Debian's yt-dlp through its generic extractor:
#   one.html   a <video> of the 720p H.264 clip (one format with picture and sound);
#   split.html a <video> of a static DASH manifest listing the clip's picture and its sound as two
#              whole files (yt-dlp lists a video-only and a sound-only format; Tandem opens both).
# Each run, in turn: `yt-dlp -J PAGE` (wall time, its own process), `tandem play --headless --json
# --end 0.1` of the direct URL and of the page (the `firstFrame` event's `sinceStartSeconds`, from the
# command's start: a fresh process, yt-dlp's run included for the page). Medians over RUNS (default 10).
#
# Usage: [TANDEM=path] [RUNS=N] bash Benchmarks/page-link.sh
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh yt-dlp python3
Benchmarks/make-media.sh >/dev/null
if [ -z "${TANDEM:-}" ]; then
    swift build -c release --product tandem >&2
    TANDEM=$(swift build -c release --show-bin-path)/tandem
fi
runs=${RUNS:-10}
site=$(mktemp -d)
server=
cleanup() { [ -n "$server" ] && kill "$server" 2>/dev/null; rm -rf "$site"; }
trap cleanup EXIT

clip=bench-out/720p-h264.mp4
cp "$clip" "$site/clip.mp4"
ffmpeg -v error -y -i "$clip" -map 0:v -c copy -movflags +faststart "$site/video.mp4"
ffmpeg -v error -y -i "$clip" -map 0:a -c copy -movflags +faststart "$site/sound.m4a"
page() { printf '<!DOCTYPE html><html><head><title>%s</title></head><body><video src="%s" controls></video></body></html>\n' "$1" "$2"; }
page "One Format" clip.mp4 >"$site/one.html"
page "Two Formats" split.mpd >"$site/split.html"
cat >"$site/split.mpd" <<'EOF'
<?xml version="1.0" encoding="utf-8"?>
<MPD xmlns="urn:mpeg:dash:schema:mpd:2011" profiles="urn:mpeg:dash:profile:isoff-on-demand:2011" type="static"
     mediaPresentationDuration="PT60S" minBufferTime="PT2S">
  <Period>
    <AdaptationSet mimeType="video/mp4" contentType="video">
      <Representation id="v" codecs="avc1.64001f" width="1280" height="720" bandwidth="2000000"><BaseURL>video.mp4</BaseURL></Representation>
    </AdaptationSet>
    <AdaptationSet mimeType="audio/mp4" contentType="audio">
      <Representation id="a" codecs="mp4a.40.2" audioSamplingRate="48000" bandwidth="128000"><BaseURL>sound.m4a</BaseURL></Representation>
    </AdaptationSet>
  </Period>
</MPD>
EOF
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
python3 Benchmarks/range_server.py "$port" "$site" &
server=$!
base=http://127.0.0.1:$port
for _ in $(seq 50); do curl -sf -o /dev/null "$base/one.html" && break; sleep 0.1; done

export HOME=$site  # no user's yt-dlp configuration or cache
first_frame() {
    "$TANDEM" play --headless --json --end 0.1 "$@" 2>/dev/null \
        | python3 -c 'import json,sys
frames = [o["sinceStartSeconds"] for o in map(json.loads, sys.stdin) if o.get("event") == "firstFrame"]
print(frames[0])'
}
ytdlp_time() {
    local start end
    start=$(date +%s.%N); yt-dlp -J "$1" >/dev/null 2>&1; end=$(date +%s.%N)
    python3 -c "print($end - $start)"
}

echo "machine: $(nproc) cores, $(free -g | awk '/Mem:/{print $2}') GiB, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs); load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "tandem: $TANDEM; yt-dlp $(yt-dlp --version); $runs runs"
for case in "one.html clip.mp4" "split.html video.mp4 --audio-file $base/sound.m4a"; do
    set -- $case
    pagefile=$1; shift
    direct=("$base/$1"); shift
    direct+=("$@")
    ytdlp=() ; plain=() ; linked=()
    for _ in $(seq "$runs"); do
        ytdlp+=("$(ytdlp_time "$base/$pagefile")")
        plain+=("$(first_frame "${direct[@]}")")
        linked+=("$(first_frame "$base/$pagefile")")
    done
    python3 - "$pagefile" "${ytdlp[*]}" "${plain[*]}" "${linked[*]}" <<'EOF'
import statistics, sys
name, y, d, p = sys.argv[1], *(list(map(float, a.split())) for a in sys.argv[2:])
my, md, mp = statistics.median(y), statistics.median(d), statistics.median(p)
print(f"| {name} | {my*1000:.0f} ms | {md*1000:.0f} ms | {mp*1000:.0f} ms | {mp/(md+my):.2f} | {(mp-my)/md:.2f} |")
EOF
done
echo "(columns: page; yt-dlp -J alone; direct URL to first frame; page to first frame; page ÷ (direct + yt-dlp); (page − yt-dlp) ÷ direct — goal ≤ 1.5)"
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
