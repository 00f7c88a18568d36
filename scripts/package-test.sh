#!/usr/bin/env bash
# The package without a toolchain: installs tandem_<version>_<arch>.deb with `apt-get install ./…deb`
# into a fresh Debian 12 root made by debootstrap (no Swift there) and, inside it, runs
# `tandem --version`, `tandem probe` on a bundled clip, `tandem play` in a window on SDL's offscreen
# driver (its text in the DejaVu font), and a headless `join` of a party hosted outside the root on
# loopback by the repository's own build (the chroot shares this machine's network, so loopback
# reaches it); the guest has no copy of the file and streams it from the party.
#
# Usage: scripts/package-test.sh [DEB]   (default: make it with scripts/package.sh)
#        scripts/package-test.sh --root  only makes the cached Debian 12 root (debootstrap) and exits: CI
#                                        (.ci/run) starts it first, so the download overlaps the compiles.
# Needs root (debootstrap, chroot, mounts); skips with the reason where it is not root or cannot make a
# mount namespace. debootstrap's root is kept in .build-debroot/bookworm (git ignores .build-*/) and
# copied afresh for every run, as are the downloaded .debs (.build-debroot/archives): a rerun skips
# the download. The party's host is TANDEM_HOST_BIN, else the newer of the repository's release and
# debug builds. DEBIAN_MIRROR overrides http://deb.debian.org/debian; APT_INSTALL_OPTIONS adds options
# to the apt-get install (e.g. --no-install-recommends, as on a server).
set -euo pipefail
script=$(realpath "${BASH_SOURCE[0]}")
# The package's path as given, from where the command was run.
if [ $# -gt 0 ] && [ "$1" != --root ]; then set -- "$(realpath -e "$1" 2>/dev/null || echo "$1")"; fi
cd "$(dirname "$script")/.."
top=$PWD

skip() { echo "package test: skipped: $*"; exit 0; }
fail() { echo "package test: FAILED: $*" >&2; echo "package-test: ${passed:-0} passed, 1 failed"; exit 1; }

[ "$(id -u)" -eq 0 ] || skip "debootstrap, chroot and mounting /proc need root (this is uid $(id -u)); CI runs it as root"

# Every mount this script makes lives in a mount namespace of its own: the trap below unmounts them,
# and should the script be killed before it can, they end with the namespace, never left on the machine.
if [ -z "${TANDEM_PACKAGE_TEST_NS:-}" ]; then
    unshare --mount --propagation private true 2>/dev/null \
        || skip "cannot make a private mount namespace here (unshare --mount failed: no CAP_SYS_ADMIN?)"
    TANDEM_PACKAGE_TEST_NS=1 exec unshare --mount --propagation private bash "$script" "$@"
fi

started=$SECONDS
scripts/install-deps.sh debootstrap python3
cache=$top/.build-debroot
base=$cache/bookworm        # debootstrap's root, never changed: each run installs into a copy
archives=$cache/archives    # the .debs apt downloaded, kept for the next run
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
mkdir -p "$cache" "$archives/partial"

# A fresh Debian 12 root, made once and cached; a half-made one (debootstrap interrupted) is made again.
# Under a lock: a run that finds another making it (CI's `--root` started ahead) waits for that one.
make_root() {
    exec {lock}> "$cache/bookworm.lock"
    flock "$lock"
    if [ ! -f "$cache/bookworm.done" ]; then
        rm -rf "$base" "$base.new"
        echo "package test: making a Debian 12 root with debootstrap from $mirror" >&2
        local t=$SECONDS
        if ! debootstrap --variant=minbase bookworm "$base.new" "$mirror" > "$cache/debootstrap.log" 2>&1; then
            tail -5 "$cache/debootstrap.log" >&2
            fail "debootstrap of Debian 12 from $mirror failed (see $cache/debootstrap.log)"
        fi
        mv "$base.new" "$base"
        touch "$cache/bookworm.done"
        echo "package test: Debian 12 root made in $((SECONDS - t)) s (debootstrap --variant=minbase)" >&2
    fi
    exec {lock}>&-
}
if [ "${1:-}" = --root ]; then
    make_root
    exit 0
fi

deb=${1:-}
if [ -z "$deb" ]; then
    deb=$(scripts/package.sh "$cache/out")
fi
[ -f "$deb" ] || fail "no package at '$deb'"
version=$(dpkg-deb -f "$deb" Version)

host_bin=${TANDEM_HOST_BIN:-}
if [ -z "$host_bin" ]; then
    # The newer of the release and debug builds (package.sh has just made one of them).
    for candidate in .build/release/tandem .build/debug/tandem; do
        if [ -x "$candidate" ] && { [ -z "$host_bin" ] || [ "$candidate" -nt "$host_bin" ]; }; then host_bin=$top/$candidate; fi
    done
fi
if [ -z "$host_bin" ] || [ ! -x "$host_bin" ]; then
    fail "no tandem build to host the party outside the root${host_bin:+ ($host_bin)}: run scripts/package.sh or swift build first, or set TANDEM_HOST_BIN"
fi

run="" tmp="" host_pid="" drain_pid=""
cleanup() {
    local status=$?
    set +e
    if [ -n "$host_pid" ]; then kill "$host_pid" 2>/dev/null || true; wait "$host_pid" 2>/dev/null || true; fi
    if [ -n "$drain_pid" ]; then wait "$drain_pid" 2>/dev/null || true; fi
    if [ -n "$run" ]; then
        # Deepest first; the root is removed only when nothing is mounted under it any more.
        findmnt -rn -o TARGET | grep -E "^$run(/|$)" | sort -r | while read -r mount; do
            umount "$mount" || umount --lazy "$mount" || echo "package test: could not unmount $mount" >&2
        done
        if findmnt -rn -o TARGET | grep -qE "^$run(/|$)"; then
            echo "package test: left $run in place: something is still mounted under it" >&2
        else
            rm -rf "$run"
        fi
    fi
    [ -z "$tmp" ] || rm -rf "$tmp"
    exit $status
}
trap cleanup EXIT
trap 'echo "package test: interrupted" >&2; exit 130' INT
trap 'echo "package test: terminated" >&2; exit 143' TERM
tmp=$(mktemp -d)

make_root
run=$(mktemp -d "$cache/run.XXXXXX")
chmod 755 "$run"
cp -a "$base/." "$run/"
grep -q '^12\.' "$run/etc/debian_version" || fail "the root is not Debian 12: $(cat "$run/etc/debian_version")"
mount -t proc proc "$run/proc"
mount -t sysfs sysfs "$run/sys"
mount --bind "$archives" "$run/var/cache/apt/archives"
cp -L /etc/resolv.conf "$run/etc/resolv.conf"
# No package's maintainer script starts a service in the root.
printf '#!/bin/sh\nexit 101\n' > "$run/usr/sbin/policy-rc.d"
chmod 755 "$run/usr/sbin/policy-rc.d"
# Inside the root: its own PATH and nothing of this machine's environment (no toolchain path).
in_root() {
    chroot "$run" /usr/bin/env -i HOME=/root LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive \
        PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin "$@"
}
if [ -e "$run/opt/swift" ] || in_root sh -c 'command -v swift' > /dev/null; then
    fail "the root has a Swift toolchain: it must not"
fi
passed=0

# 1. apt-get install ./tandem_….deb: apt resolves the dependencies from Debian 12 by their names.
cp "$deb" "$run/tmp/"
chmod 644 "$run/tmp/$(basename "$deb")"
in_root apt-get update -qq > "$tmp/update.log" 2>&1 || { cat "$tmp/update.log" >&2; fail "apt-get update in the root failed"; }
cached=$(find "$archives" -maxdepth 1 -name '*.deb' | wc -l)
t0=$(date +%s.%N)
# shellcheck disable=SC2086 # APT_INSTALL_OPTIONS is a list of options
if ! in_root apt-get install -y ${APT_INSTALL_OPTIONS:-} "./tmp/$(basename "$deb")" > "$tmp/install.log" 2>&1; then
    tail -30 "$tmp/install.log" >&2
    fail "apt-get install ./$(basename "$deb") in a fresh Debian 12 root failed"
fi
t1=$(date +%s.%N)
newly=$(sed -n 's/.* \([0-9]*\) newly installed.*/\1/p' "$tmp/install.log")
archives_size=$(sed -n 's/^Need to get \(.*\) of archives\.$/\1/p' "$tmp/install.log")
disk=$(sed -n 's/^After this operation, \(.*\) of additional disk space will be used\.$/\1/p' "$tmp/install.log")
printf 'package test: ok: apt-get install %s./%s in %.1f s: %s packages newly installed, archives %s (to get/all; %d .debs were cached), %s on disk\n' \
    "${APT_INSTALL_OPTIONS:+$APT_INSTALL_OPTIONS }" "$(basename "$deb")" "$(awk "BEGIN { print $t1 - $t0 }")" "$newly" "$archives_size" "$cached" "$disk"
passed=$((passed + 1))
missing=$(in_root ldd /usr/bin/tandem | grep 'not found' || true)
[ -z "$missing" ] || fail "the installed tandem lacks libraries its dependencies did not bring: $missing"

# 2. tandem --version: the package's version, and the binary runs without the toolchain.
out=$(in_root tandem --version 2>&1) || fail "tandem --version in the root failed: $out"
[[ $out == "tandem $version "* ]] || fail "tandem --version printed '$out', not version $version"
echo "package test: ok: $out"
passed=$((passed + 1))

# 3. tandem probe on a bundled clip: FFmpeg's libraries from Debian open and identify it.
cp assets/h264-aac.mp4 "$run/tmp/"
in_root tandem probe /tmp/h264-aac.mp4 > "$tmp/probe.json" 2> "$tmp/probe.err" \
    || { cat "$tmp/probe.err" >&2; fail "tandem probe /tmp/h264-aac.mp4 in the root failed"; }
codecs=$(python3 -c '
import json, sys
probe = json.load(open(sys.argv[1]))
print(" ".join(sorted(s.get("codec", "?") for s in probe.get("streams", []))))' "$tmp/probe.json") \
    || fail "tandem probe printed no JSON: $(head -c 300 "$tmp/probe.json")"
[ "$codecs" = "aac h264" ] || fail "tandem probe found streams '$codecs', expected aac and h264: $(head -c 500 "$tmp/probe.json")"
echo "package test: ok: tandem probe: streams $codecs"
passed=$((passed + 1))

# 4. The window from the installed files: SDL2 (its offscreen driver: no display here), SDL_ttf and the
# DejaVu font the overlay's text is drawn with (fonts-dejavu-core), which it names when it cannot open.
if ! in_root env SDL_VIDEODRIVER=offscreen SDL_AUDIODRIVER=dummy \
        tandem play --json --start -0.5 /tmp/h264-aac.mp4 > "$tmp/window.out" 2> "$tmp/window.err"; then
    tail -20 "$tmp/window.err" >&2
    fail "tandem play in a window (SDL offscreen) in the root failed"
fi
grep -q '"event":"window"' "$tmp/window.out" || fail "tandem play opened no window: $(head -c 500 "$tmp/window.out")"
if grep -E 'font|without text' "$tmp/window.err" >&2; then fail "the window's text has no font in the root"; fi
echo "package test: ok: tandem play in a window (SDL offscreen), its text in DejaVu Sans"
passed=$((passed + 1))

# 5. A party hosted outside the root, joined from inside it. The host's first JSON lines are read
# through a FIFO until its link; the rest keep being drained to a file so the host never blocks.
mkfifo "$tmp/host.fifo"
XDG_CONFIG_HOME=$tmp/config XDG_STATE_HOME=$tmp/state \
    "$host_bin" host --headless --json --listen 127.0.0.1:0 --state-dir "$tmp/state" --name host \
    --script "play@1" --duration 120 assets/party.mp4 > "$tmp/host.fifo" 2> "$tmp/host.err" &
host_pid=$!
exec {host_out}< "$tmp/host.fifo"
link="" deadline=$((SECONDS + 60))
while [ $SECONDS -lt $deadline ] && IFS= read -r -t $((deadline - SECONDS)) line <&"$host_out"; do
    echo "$line" >> "$tmp/host.out"
    link=$(python3 -c 'import json, sys; e = json.loads(sys.argv[1]); print(e.get("link", "") if e.get("event") == "party" else "")' \
        "$line" 2>/dev/null || true)
    [ -z "$link" ] || break
done
[ -n "$link" ] || { cat "$tmp/host.err" >&2; fail "the host ($host_bin) printed no party link within 60 s"; }
cat <&"$host_out" >> "$tmp/host.out" &
drain_pid=$!
exec {host_out}<&-
mkdir -p "$run/tmp/empty"
if ! in_root timeout 120 tandem join --headless --json --name guest --media /tmp/empty --duration 8 "$link" \
        > "$tmp/guest.out" 2> "$tmp/guest.err"; then
    tail -20 "$tmp/guest.err" "$tmp/guest.out" >&2
    fail "tandem join of the party on loopback failed inside the root"
fi
# It streamed the party's copy (it had none), was connected and playing, and synced to the host.
verdict=$(python3 - "$tmp/guest.out" <<'EOF'
import json, sys
events = []
for line in open(sys.argv[1]):
    try:
        events.append(json.loads(line))
    except ValueError:
        pass
# MediaResolver's note: "party.mp4: no copy here, streaming it from the party".
streamed = any("streaming it from the party" in str(v) for e in events for v in e.values())
statuses = [e for e in events if e.get("event") == "status"]
playing = [s for s in statuses if s.get("connected") and s.get("playing") and (s.get("position") or 0) > 0]
synced = [s for s in playing if s.get("synced") and s.get("skewMs") is not None]
problems = []
if not streamed: problems.append("no line says it streams the party's file")
if not playing: problems.append("no status line shows it connected and playing")
if not synced: problems.append("no status line shows it synced")
if problems:
    print("; ".join(problems))
    sys.exit(1)
skews = sorted(abs(s["skewMs"]) for s in synced)
print(f"streamed, played to {playing[-1]['position']:.1f} s, |skew| median {skews[(len(skews) - 1) // 2]:.2f} ms, "
      f"max {skews[-1]:.2f} ms over {len(skews)} synced status lines")
EOF
) || { cat "$tmp/guest.out" >&2; fail "the guest inside the root joined, but: $verdict"; }
echo "package test: ok: tandem join inside the root: $verdict"
passed=$((passed + 1))

echo "package test: $((SECONDS - started)) s in all"
echo "package-test: $passed passed, 0 failed"
