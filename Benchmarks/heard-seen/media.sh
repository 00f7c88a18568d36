# shellcheck shell=bash disable=SC2154
# The clips the steps play, made once into $cache (sourced by Benchmarks/heard-seen.sh).

cache=$(realpath -m "${CACHE:-bench-out/heard-seen}")
mkdir -p "$cache"
# noise.mp4: 60 s, 640x360 60 fps: testsrc2 (some real video to decode) with, over its middle third
# (rows 120–239, clear of the party window's status line on top and its controls at the bottom), the
# frame number N as a bar code: geq on a 16x2 picture (pixel X of row 0 is bit X of N, row 1 its
# complement) scaled up without filtering to 640x120 (cells 40x60 px). Sound: pink noise (anoisesrc,
# seed 7), the same on both channels, AAC 192 kb/s, 48 kHz.
if [ ! -s "$cache/noise.mp4" ]; then
    ffmpeg -v error -y \
        -f lavfi -i "color=c=black:s=16x2:r=60:d=60,format=gray,geq=lum='255*mod(floor(N/pow(2\,X))+Y\,2)'" \
        -f lavfi -i "testsrc2=s=640x360:r=60:d=60" \
        -f lavfi -i "anoisesrc=color=pink:sample_rate=48000:amplitude=0.25:seed=7:duration=60" \
        -filter_complex "[0:v]scale=640:120:flags=neighbor,format=yuv420p[bar];[1:v]format=yuv420p[pic];[pic][bar]overlay=0:120[v]" \
        -map "[v]" -map 2:a -c:v libx264 -preset veryfast -crf 18 -g 60 -pix_fmt yuv420p -c:a aac -b:a 192k -ac 2 \
        "$cache/noise.tmp.mp4" && mv "$cache/noise.tmp.mp4" "$cache/noise.mp4"
fi
# flash.mkv: 20 s, 640x360 60 fps, black with frames 60k … 60k+2 white (a 50 ms flash at each whole
# second); sound: a 10 ms 1 kHz burst starting at each whole second (sin from phase 0), PCM so that
# no codec smears its onset.
if [ ! -s "$cache/flash.mkv" ]; then
    ffmpeg -v error -y \
        -f lavfi -i "color=c=black:s=640x360:r=60:d=20,drawbox=x=0:y=0:w=iw:h=ih:color=white:t=fill:enable='lt(mod(n\,60)\,3)'" \
        -f lavfi -i "aevalsrc='if(lt(mod(t\,1)\,0.01)\,0.8*sin(2*PI*1000*t)\,0)|if(lt(mod(t\,1)\,0.01)\,0.8*sin(2*PI*1000*t)\,0)':s=48000:d=20" \
        -c:v libx264 -preset veryfast -crf 18 -g 60 -pix_fmt yuv420p -c:a pcm_s16le "$cache/flash.tmp.mkv" \
        && mv "$cache/flash.tmp.mkv" "$cache/flash.mkv"
fi
if [ ! -s "$cache/shifted.wav" ]; then "${py[@]}" shifted-wav "$cache/shifted.wav" 8 1.2345; fi
