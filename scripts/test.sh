#!/usr/bin/env bash
# The test command: installs what is missing, builds, and runs every test.
set -euo pipefail
cd "$(dirname "$0")/.."
# syncplay-server, syncplay and mpv: the Syncplay tests run against the real thing.
scripts/install-deps.sh syncplay-server syncplay mpv
swift build --build-tests
swift test --skip-build
