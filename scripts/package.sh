#!/usr/bin/env bash
# Makes the Debian package tandem_<version>_<arch>.deb: a release build with the Swift runtime linked
# statically (no toolchain on the machine it is installed on), depending on Debian 12's runtime
# libraries by package name, as dpkg-shlibdeps derives them from what the binary links.
# Usage: scripts/package.sh [OUTDIR]   (default: the repository's top folder). Prints the .deb's path.
# The version is the one `tandem --version` prints (Tandem.version in Sources/TandemCLI/Tandem.swift);
# the architecture is dpkg's. TANDEM_BIN packages an already built binary (it must not link the
# toolchain's libraries: checked below). SWIFT_BUILD_FLAGS adds options to the build (CI: no debug info,
# which the strip below would remove anyway).
# The debug build of the tests cannot stand in for the release build by a new link only: its objects were
# compiled against the shared Foundation, and linked with --static-swift-stdlib they leave libFoundation.a's
# ICU and CoreFoundation symbols unresolved.
set -euo pipefail
outdir=${1:-$(dirname "$0")/..}
mkdir -p "$outdir"
outdir=$(cd "$outdir" && pwd)
cd "$(dirname "$0")/.."

# dpkg-dev: dpkg-shlibdeps; binutils: strip.
scripts/install-deps.sh dpkg-dev binutils

if [ -n "${TANDEM_BIN:-}" ]; then
    bin=$TANDEM_BIN
else
    echo "package: release build, Swift runtime static (swift build -c release --static-swift-stdlib)" >&2
    # shellcheck disable=SC2086 # a list of options
    swift build -c release --static-swift-stdlib ${SWIFT_BUILD_FLAGS:-} --product tandem >&2
    # shellcheck disable=SC2086
    bin=$(swift build -c release --static-swift-stdlib ${SWIFT_BUILD_FLAGS:-} --show-bin-path)/tandem
fi
[ -x "$bin" ] || { echo "package: no built tandem at $bin" >&2; exit 1; }

# Nothing of the toolchain may remain: a libswift*, Foundation or Dispatch library, or anything from
# the toolchain's folder, would be missing on a machine without Swift.
toolchain_libs=$(ldd "$bin" | grep -E 'libswift|libFoundation|lib_Foundation|libdispatch|libBlocksRuntime|/opt/swift|not found' || true)
if [ -n "$toolchain_libs" ]; then
    echo "package: $bin links libraries a machine without the Swift toolchain lacks (is --static-swift-stdlib on?):" >&2
    echo "$toolchain_libs" >&2
    exit 1
fi

version=$("$bin" --version | awk '$1 == "tandem" { print $2; exit }')
if ! [[ $version =~ ^[0-9][A-Za-z0-9.+~-]*$ ]]; then
    echo "package: '$bin --version' printed no usable version: $("$bin" --version 2>&1 | head -1)" >&2
    exit 1
fi
arch=$(dpkg --print-architecture)
name=tandem_${version}_${arch}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
root=$work/$name
umask 022
install -d "$root/DEBIAN" "$root/usr/bin" "$root/usr/share/doc/tandem"
# Stripped as Debian strips binaries: only the symbol tables and debug sections go; Swift's metadata
# sections are loaded, so strip keeps them.
install -m 755 "$bin" "$root/usr/bin/tandem"
strip --remove-section=.comment "$root/usr/bin/tandem"
# The bundled docs: the README and docs/ (which the README links to, with the service examples).
install -m 644 README.md "$root/usr/share/doc/tandem/README.md"
cp -r docs "$root/usr/share/doc/tandem/docs"
[ ! -f LICENSE ] || install -m 644 LICENSE "$root/usr/share/doc/tandem/copyright"
chmod -R u=rwX,go=rX "$root/usr/share/doc/tandem"

# The shared libraries' packages, versioned by their symbols files (e.g. "libavcodec59 (>= 7:5.1)").
# dpkg-shlibdeps wants a debian/control beside it, naming the binary package.
mkdir -p "$work/debian"
printf 'Source: tandem\n\nPackage: tandem\nArchitecture: any\n' > "$work/debian/control"
shlibs=$(cd "$work" && dpkg-shlibdeps -O -e"$name/usr/bin/tandem" 2> "$work/shlibdeps.err") || {
    echo "package: dpkg-shlibdeps could not derive the dependencies:" >&2
    cat "$work/shlibdeps.err" >&2
    exit 1
}
depends=${shlibs#shlibs:Depends=}
if [ -z "$depends" ] || [ "$depends" = "$shlibs" ]; then
    echo "package: dpkg-shlibdeps printed no dependencies: $shlibs" >&2
    exit 1
fi
# Files the binary opens at run time rather than links: the window's overlay text is DejaVu Sans
# (OverlayRenderer.defaultFontPath), also the font libass falls back to through fontconfig. A party
# server verified by its CA (a link without fp) needs the system's trust store.
depends="$depends, fonts-dejavu-core"
recommends="ca-certificates"
# Page links (play, host, stories of a web page) run yt-dlp from PATH, as mpv does; without it such a
# link says how to install it. Suggested, not recommended: it brings Python, which a server never needs.
suggests="yt-dlp"

installed_size=$(du -sk --exclude=DEBIAN "$root" | cut -f1)
cat > "$root/DEBIAN/control" <<EOF
Package: tandem
Version: $version
Architecture: $arch
Maintainer: Tandem maintainers <maintainers@users.noreply.a-seed-4fd46522.example>
Installed-Size: $installed_size
Depends: $depends
Recommends: $recommends
Suggests: $suggests
Section: video
Priority: optional
Description: synchronized video playback and watch parties
 Tandem plays video and audio files (FFmpeg, SDL2, libass subtitles,
 PulseAudio) and hosts or joins watch parties where everyone sees the same
 frame at the same instant: a host prints a tandem:// link, guests join it
 and stream the file from the party. It also serves parties for others
 (tandem serve) and joins Syncplay rooms.
EOF

deb=$outdir/$name.deb
dpkg-deb --build --root-owner-group "$root" "$deb" >&2
echo "package: $deb ($(du -k "$deb" | cut -f1) KiB; depends: $depends)" >&2
echo "$deb"
