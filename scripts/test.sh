#!/usr/bin/env bash
# The test command: installs what is missing, builds, and runs every test.
set -euo pipefail
cd "$(dirname "$0")/.."
# syncplay-server, syncplay and mpv: the Syncplay tests run against the real thing; postgresql: the
# cluster directory's tests run against a throwaway PostgreSQL (scripts/with-postgres.sh).
scripts/install-deps.sh syncplay-server syncplay mpv postgresql
# Package.swift declares every import, and the server side links no decoder (docs/architecture.md).
python3 scripts/check-imports.py
swift build --build-tests
# The tandem processes the tests start read and write configuration and state (tandem.conf, the kept
# volume, watch-later positions, TLS identities, known servers): in a folder of the run's own, never
# the user's.
home=$(mktemp -d)
trap 'rm -rf "$home"' EXIT
export XDG_CONFIG_HOME=$home/config XDG_STATE_HOME=$home/state
# One test at a time. Run in parallel, the suite shares one process whose cooperative thread pool has as
# many threads as cores (two here), and tests that block a thread (waiting for a child process, a
# blocking socket read) can hold that pool for seconds: other tests' servers then miss their own
# time limits. Serially: about 2.5 minutes here, against 45 s, and no test starves another.
scripts/with-postgres.sh swift test --skip-build --no-parallel "$@"
