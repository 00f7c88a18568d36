#!/usr/bin/env bash
# Installs what Tandem needs on Debian 12 (bookworm): FFmpeg 5.1, SDL2, libass, libpulse and alsa-lib development files,
# libnatpmp and libminiupnpc (port mapping on the home router), pkg-config, and the ffmpeg CLI the
# tests compare against. Idempotent: skips what is there.
set -euo pipefail
packages=(pkg-config libavformat-dev libavcodec-dev libavutil-dev libswscale-dev libswresample-dev
          libavfilter-dev libsdl2-dev libsdl2-ttf-dev libass-dev libpulse-dev libasound2-dev libnatpmp-dev libminiupnpc-dev
          fonts-dejavu-core xvfb xauth ffmpeg "$@")
missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
    echo "installing: ${missing[*]}" >&2
    sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
    # Another apt-get (two scripts started at once on a fresh machine) holds the dpkg lock: wait for it
    # (up to 10 minutes) rather than fail.
    lock=(-o DPkg::Lock::Timeout=600)
    $sudo apt-get "${lock[@]}" update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get "${lock[@]}" install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
command -v swift >/dev/null || { echo "swift (6.x) is not on PATH: install the Swift toolchain first" >&2; exit 1; }
