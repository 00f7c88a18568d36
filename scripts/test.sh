#!/usr/bin/env bash
# The test command: installs what is missing, builds, and runs every test.
set -euo pipefail
cd "$(dirname "$0")/.."
# syncplay-server, syncplay and mpv: the Syncplay tests run against the real thing; postgresql: the
# cluster directory's tests run against a throwaway PostgreSQL (scripts/with-postgres.sh); pulseaudio and
# pulseaudio-utils: the sound output's tests each start a PulseAudio server of their own and record off it;
# libasound2-plugins: the ALSA output's tests play through ALSA's pulse plugin into such a server;
# iproute2, nftables and python3: the port mapping tests' real NAT in network namespaces (scripts/netns.sh);
# nodejs: the browser page's modules under Node's test runner; chromium and chromium-driver: a real Chromium
# for the page's tests (TestSupport's WebDriver); yt-dlp: page links are resolved by the real one (its generic
# extractor on pages the tests serve on loopback).
scripts/install-deps.sh syncplay-server syncplay mpv postgresql pulseaudio pulseaudio-utils libasound2-plugins iproute2 nftables python3 nodejs chromium chromium-driver yt-dlp
# Package.swift declares every import, and the server side links no decoder (docs/architecture.md).
python3 scripts/check-imports.py
# SWIFT_BUILD_FLAGS: options for this build (CI: no debug info). Not --disable-index-store: SwiftPM
# discovers the tests from the index store ("index store path does not exist").
# shellcheck disable=SC2086 # a list of options
swift build --build-tests ${SWIFT_BUILD_FLAGS:-}
# The tandem processes the tests start read and write configuration and state (tandem.conf, the kept
# volume, watch-later positions, TLS identities, known servers): in a folder of the run's own, never
# the user's.
home=$(mktemp -d)
trap 'rm -rf "$home"' EXIT
export XDG_CONFIG_HOME=$home/config XDG_STATE_HOME=$home/state
# In parallel: Swift Testing runs the suite in one process, at most $SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH
# test cases at once (8 here: most tests wait on players, child processes and sockets rather than compute).
# No test blocks a thread of the cooperative pool (it has as many threads as cores): child processes are
# awaited through TestSupport's ChildProcess, blocking calls run on threads of their own. Resources only
# one test can use at a time say so: SDL and the test database through TestSupport's AsyncLock, suites
# on one process-wide thing with .serialized, a process-wide count in an exit test (a process of its own).
# On this 2-core machine otherwise idle: about 55 s of tests (60 s in all), against about 230 s with
# --no-parallel (`scripts/test.sh --no-parallel` still runs them one at a time); with other builds loading
# it (load 10-17): 75-95 s against 290 s.
export SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH=${SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH:-8}
# shellcheck disable=SC2086
scripts/with-postgres.sh swift test --skip-build --parallel ${SWIFT_BUILD_FLAGS:-} "$@"
