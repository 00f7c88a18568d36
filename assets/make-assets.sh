#!/usr/bin/env bash
# Generates the small, deterministic test clips used by the test suite.
#
# Everything is synthesised from lavfi sources (testsrc2 / smptebars /
# mandelbrot for video, aevalsrc / sine for audio): no random noise, no
# external media. Output goes into the directory this script lives in, and
# re-running it simply regenerates (overwrites) the same files.
#
# Requires: ffmpeg + ffprobe (tested with Debian's FFmpeg 5.1), python3.
set -euo pipefail

ASSETS_DIR="$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd)"
BAD_DIR="$ASSETS_DIR/bad"

for tool in ffmpeg ffprobe python3; do
    command -v "$tool" >/dev/null 2>&1 || { echo "error: '$tool' not found in PATH" >&2; exit 1; }
done

# Common flags: quiet, never read stdin, overwrite, strip metadata and
# version strings so output is reproducible. Encoders run single-threaded
# because x264/libvpx output depends on the thread count.
FF=(ffmpeg -hide_banner -loglevel error -nostdin -y)
BITEXACT=(-fflags +bitexact -flags:v +bitexact -flags:a +bitexact -map_metadata -1 -map_chapters -1)
X264=(-c:v libx264 -threads 1 -preset medium)

# Write to a temp file next to the target, then rename, so an interrupted run
# never leaves a half-written clip that looks valid.
tmp_for() { printf '%s/.tmp.%s' "$(dirname -- "$1")" "$(basename -- "$1")"; }
finish() { mv -f -- "$(tmp_for "$1")" "$1"; echo "  wrote $(basename -- "$1") ($(wc -c <"$1") bytes)"; }

cd "$ASSETS_DIR"
rm -f .tmp.* 2>/dev/null || true
echo "Generating test assets in $ASSETS_DIR"

# 1. H.264 (B-frames, keyframe every 25 frames) + AAC stereo 44.1 kHz, 4 s.
#    Left 440 Hz, right 660 Hz so channel order can be checked.
out=h264-aac.mp4
"${FF[@]}" \
    -f lavfi -i "testsrc2=size=320x240:rate=25:duration=4" \
    -f lavfi -i "aevalsrc=0.5*sin(2*PI*440*t)|0.5*sin(2*PI*660*t):sample_rate=44100:channel_layout=stereo:duration=4" \
    -map 0:v -map 1:a \
    "${X264[@]}" -pix_fmt yuv420p -profile:v high -crf 30 -bf 3 -g 25 -keyint_min 25 -sc_threshold 0 \
    -c:a aac -b:a 64k -ar 44100 -ac 2 \
    -movflags +faststart "${BITEXACT[@]}" -f mp4 "$(tmp_for $out)"
finish $out

# 2. VP9 + Opus stereo 48 kHz in WebM, 3 s, keyframe every 25 frames.
out=vp9-opus.webm
"${FF[@]}" \
    -f lavfi -i "testsrc2=size=320x240:rate=25:duration=3" \
    -f lavfi -i "aevalsrc=0.5*sin(2*PI*523.25*t)|0.5*sin(2*PI*783.99*t):sample_rate=48000:channel_layout=stereo:duration=3" \
    -map 0:v -map 1:a \
    -c:v libvpx-vp9 -threads 1 -row-mt 0 -deadline good -cpu-used 4 -b:v 0 -crf 40 \
    -g 25 -keyint_min 25 -pix_fmt yuv420p \
    -c:a libopus -b:a 64k -ar 48000 -ac 2 \
    "${BITEXACT[@]}" -f webm "$(tmp_for $out)"
finish $out

# 3. Audio only: AAC mono 48 kHz, 3 s.
out=audio-only.m4a
"${FF[@]}" \
    -f lavfi -i "sine=frequency=1000:sample_rate=48000:duration=3" \
    -map 0:a -c:a aac -b:a 48k -ar 48000 -ac 1 \
    -movflags +faststart "${BITEXACT[@]}" -f ipod "$(tmp_for $out)"
finish $out

# 4. Video only: H.264 160x120 30 fps, 3 s (mandelbrot zoom: every frame differs).
out=video-only.mp4
"${FF[@]}" \
    -f lavfi -i "mandelbrot=size=160x120:rate=30,trim=duration=3" \
    -map 0:v -an \
    "${X264[@]}" -pix_fmt yuv420p -crf 28 -g 30 -keyint_min 30 -sc_threshold 0 \
    -movflags +faststart "${BITEXACT[@]}" -f mp4 "$(tmp_for $out)"
finish $out

# 5. Variable frame rate H.264 in Matroska, 3 s: from a 30 fps source keep
#    every 2nd frame for t<1 (15 fps), all frames for 1<=t<2 (30 fps), every
#    3rd frame for t>=2 (10 fps). Passthrough keeps the original timestamps,
#    so frame durations are ~67 ms, ~33 ms and 100 ms.
out=vfr.mkv
"${FF[@]}" \
    -f lavfi -i "testsrc2=size=320x240:rate=30:duration=3" \
    -map 0:v \
    -vf "select='if(lt(t,1),not(mod(n,2)),if(lt(t,2),1,not(mod(n,3))))'" \
    -fps_mode passthrough \
    "${X264[@]}" -pix_fmt yuv420p -crf 30 -bf 2 -g 30 \
    "${BITEXACT[@]}" -f matroska "$(tmp_for $out)"
finish $out

# 6. Odd dimensions 161x97, H.264 + AAC, 2 s. H.264 4:2:0 cannot represent
#    odd sizes (libx264 refuses, and SPS cropping works in 2-pixel units), so
#    this uses yuv444p (High 4:4:4 Predictive profile).
#    testsrc2 rounds odd sizes down for subsampled formats, so render in rgb24.
out=odd-dims.mp4
"${FF[@]}" \
    -f lavfi -i "testsrc2=size=161x97:rate=25:duration=2,format=rgb24" \
    -f lavfi -i "sine=frequency=440:sample_rate=44100:duration=2" \
    -map 0:v -map 1:a \
    "${X264[@]}" -pix_fmt yuv444p -crf 30 -g 25 \
    -c:a aac -b:a 48k -ar 44100 -ac 2 \
    -movflags +faststart "${BITEXACT[@]}" -f mp4 "$(tmp_for $out)"
finish $out

# 6b. Odd dimensions with 4:2:0 chroma (161x97 yuv420p, chroma 81x49): VP9
#     allows this, H.264 does not. Exercises odd-size chroma planes.
out=odd-dims-420.webm
"${FF[@]}" \
    -f lavfi -i "testsrc2=size=161x97:rate=25:duration=2,format=rgb24" \
    -map 0:v \
    -c:v libvpx-vp9 -threads 1 -row-mt 0 -deadline good -cpu-used 4 -b:v 0 -crf 40 \
    -g 25 -keyint_min 25 -pix_fmt yuv420p \
    "${BITEXACT[@]}" -f webm "$(tmp_for $out)"
finish $out

# 7. 10-bit: H.264 High 10 (yuv420p10le) in Matroska, 320x240, 2 s.
out=10bit.mkv
"${FF[@]}" \
    -f lavfi -i "mandelbrot=size=320x240:rate=25,trim=duration=2" \
    -map 0:v \
    "${X264[@]}" -pix_fmt yuv420p10le -profile:v high10 -crf 30 -g 25 \
    "${BITEXACT[@]}" -f matroska "$(tmp_for $out)"
finish $out

# 9. A minute-long, very small clip for watch-party demos and simulations (160x120 10 fps H.264,
#    mono AAC 24 kb/s): long enough for a scripted party, small enough to commit.
out=party.mp4
"${FF[@]}" \
    -f lavfi -i "testsrc2=size=160x120:rate=10:duration=60" \
    -f lavfi -i "sine=frequency=440:sample_rate=22050:duration=60" \
    -map 0:v -map 1:a \
    "${X264[@]}" -pix_fmt yuv420p -crf 38 -g 10 \
    -c:a aac -b:a 24k -ac 1 \
    -movflags +faststart "${BITEXACT[@]}" -f mp4 "$(tmp_for $out)"
finish $out

# 8. Invalid / damaged inputs.
rm -rf -- "$BAD_DIR"
mkdir -p -- "$BAD_DIR"
src="$ASSETS_DIR/h264-aac.mp4"
src_size=$(wc -c <"$src")

# 0-byte file.
: >"$BAD_DIR/empty.mp4"

# Plain text with a media extension.
printf 'This is not a media file.\nIt is plain text with an .mp4 extension.\n' >"$BAD_DIR/not-media.mp4"

# Only the first 200 bytes: ftyp + a fragment of moov.
head -c 200 "$src" >"$BAD_DIR/truncated-header.mp4"

# First 60%: moov is intact (faststart) but mdat is cut, so the first part plays.
head -c $(( src_size * 60 / 100 )) "$src" >"$BAD_DIR/truncated.mp4"

# Garbage written into mdat (moov is at the front and stays intact): 64
# bytes in the middle of the video keyframe at t=2 s (damage propagates
# through that GOP until the next keyframe at t=3 s) and 64 bytes in the
# middle of the first audio packet at/after t=2.5 s. Offsets come from
# ffprobe on the (reproducible) source file, so the result is deterministic.
python3 - "$src" "$BAD_DIR/corrupted.mp4" <<'PY'
import subprocess, sys
src, dst = sys.argv[1], sys.argv[2]
out = subprocess.run(
    ["ffprobe", "-v", "error", "-show_entries", "packet=stream_index,pts_time,size,pos,flags",
     "-of", "csv=p=0", src], check=True, capture_output=True, text=True).stdout
pkts = [line.split(",") for line in out.split()]  # stream_index, pts_time, size, pos, flags
video_key = next(p for p in pkts if p[0] == "0" and "K" in p[4] and float(p[1]) >= 2.0)
audio = next(p for p in pkts if p[0] == "1" and float(p[1]) >= 2.5)
data = bytearray(open(src, "rb").read())
for _, _, size, pos, _ in (video_key, audio):
    off = int(pos) + int(size) // 2
    for i in range(64):
        data[off + i] = (0xA5 ^ (i * 37)) & 0xFF
open(dst, "wb").write(data)
PY

# Valid Matroska structure whose video CodecID is unknown to FFmpeg:
# write H.264-in-MKV (no CRC-32 elements) and replace "V_MPEG4/ISO/AVC"
# with the same-length "V_UNKNOWN/X/ABC" so the EBML sizes stay valid.
tmp_mkv="$BAD_DIR/.tmp.unsupported-src.mkv"
"${FF[@]}" \
    -f lavfi -i "smptebars=size=160x120:rate=25:duration=1" \
    -map 0:v "${X264[@]}" -pix_fmt yuv420p -crf 30 -g 25 \
    "${BITEXACT[@]}" -write_crc32 0 -f matroska "$tmp_mkv"
python3 - "$tmp_mkv" "$BAD_DIR/unsupported-codec.mkv" <<'PY'
import sys
data = open(sys.argv[1], "rb").read()
old, new = b"V_MPEG4/ISO/AVC", b"V_UNKNOWN/X/ABC"
assert len(old) == len(new)
if data.count(old) != 1:
    sys.exit("expected exactly one %r in %s, found %d" % (old, sys.argv[1], data.count(old)))
open(sys.argv[2], "wb").write(data.replace(old, new))
PY
rm -f -- "$tmp_mkv"

for f in empty.mp4 not-media.mp4 truncated-header.mp4 truncated.mp4 corrupted.mp4 unsupported-codec.mkv; do
    echo "  wrote bad/$f ($(wc -c <"$BAD_DIR/$f") bytes)"
done
echo "Done."
