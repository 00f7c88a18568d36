#!/usr/bin/env bash
# Runs a command beside a throwaway PostgreSQL: `scripts/with-postgres.sh COMMAND [ARGS...]`.
#
# initdb and pg_ctl (Debian's postgresql package) make a database cluster in a temporary folder that
# listens on 127.0.0.1 only, on a free port, with trust authentication for the user `tandem`. The
# command runs with
#   TANDEM_TEST_POSTGRES=postgres://tandem@127.0.0.1:PORT/tandem  the database to use
#   TANDEM_TEST_POSTGRES_DATA=DIR      its data folder, and
#   TANDEM_TEST_POSTGRES_BIN=DIR       the folder of pg_ctl, for tests that stop or restart it
#   TANDEM_TEST_POSTGRES_RUNAS=USER    the user to run pg_ctl as ("" when not root)
#   TANDEM_TEST_POSTGRES_OPTIONS=…     the server options to pass to `pg_ctl start -o` after a stop
#   TANDEM_TEST_POSTGRES_LOG=FILE      the server's log file (`pg_ctl start -l`)
#   TANDEM_REQUIRE_POSTGRES=1          so tests that need the database fail instead of skipping
# and the server is stopped and its folder deleted when the command ends, fails or is interrupted.
# The script exits with the command's status.
#
# PostgreSQL refuses to run as root. Run as root (as CI is), the script runs initdb and pg_ctl as the
# unprivileged user `tandem-pg` (created when missing), which owns the temporary folder.
set -euo pipefail
[ $# -gt 0 ] || { echo "usage: $0 COMMAND [ARGS...]" >&2; exit 2; }

bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1 || true)
if [ -z "$bin" ] || [ ! -x "$bin/initdb" ] || [ ! -x "$bin/pg_ctl" ]; then
    echo "with-postgres: no PostgreSQL server found under /usr/lib/postgresql/*/bin: install the postgresql package" >&2
    exit 1
fi

runas=""
if [ "$(id -u)" -eq 0 ]; then
    runas=tandem-pg
    id -u "$runas" >/dev/null 2>&1 || useradd --system --no-create-home --shell /usr/sbin/nologin "$runas"
fi
# Runs a PostgreSQL program as the unprivileged user when we are root.
as_pg() {
    if [ -n "$runas" ]; then runuser -u "$runas" -- "$@"; else "$@"; fi
}

root=$(mktemp -d "${TMPDIR:-/tmp}/tandem-pg.XXXXXX")
chmod 755 "$root"
data="$root/data"
log="$root/server.log"
[ -z "$runas" ] || chown "$runas" "$root"

cleanup() {
    local status=$?
    trap - EXIT INT TERM
    if [ -f "$data/postmaster.pid" ]; then
        as_pg "$bin/pg_ctl" -D "$data" -m immediate -w stop >/dev/null 2>&1 || true
    fi
    rm -rf "$root"
    exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# A free port below the kernel's ephemeral range (where it picks the ports of servers bound to port 0 and of
# outgoing connections): tests that stop and restart the server find it still free, not taken meanwhile by
# a connection of a test running in parallel. Another process could still take it; pg_ctl then fails to
# start and says so.
if command -v python3 >/dev/null; then
    port=$(python3 -c '
import random, socket
low = int(open("/proc/sys/net/ipv4/ip_local_port_range").read().split()[0])
while True:
    port = random.randrange(10000, min(low, 32768))
    s = socket.socket()
    try:
        s.bind(("127.0.0.1", port)); print(port); break
    except OSError:
        pass
    finally:
        s.close()')
else
    # Without python: a random port below the usual ephemeral range that nobody answers on.
    while :; do
        port=$((10000 + RANDOM % 22000))
        (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null || break
    done
fi

as_pg "$bin/initdb" -D "$data" -U tandem --auth=trust --encoding=UTF8 --locale=C.UTF-8 >"$root/initdb.log" 2>&1 \
    || { echo "with-postgres: initdb failed:" >&2; cat "$root/initdb.log" >&2; exit 1; }
# Loopback TCP only; the UNIX socket lives in the temporary folder (not /var/run/postgresql, which
# needs the packaged cluster's permissions); fsync off: the data is thrown away anyway.
options="-c listen_addresses=127.0.0.1 -c port=$port -c unix_socket_directories=$root -c fsync=off"
as_pg "$bin/pg_ctl" -D "$data" -l "$log" -o "$options" -w -t 30 start >/dev/null \
    || { echo "with-postgres: PostgreSQL did not start:" >&2; cat "$log" >&2; exit 1; }
as_pg "$bin/createdb" -h 127.0.0.1 -p "$port" -U tandem tandem \
    || { echo "with-postgres: createdb failed" >&2; exit 1; }

export TANDEM_TEST_POSTGRES="postgres://tandem@127.0.0.1:$port/tandem"
export TANDEM_TEST_POSTGRES_DATA="$data"
export TANDEM_TEST_POSTGRES_BIN="$bin"
export TANDEM_TEST_POSTGRES_RUNAS="$runas"
export TANDEM_TEST_POSTGRES_OPTIONS="$options"
export TANDEM_TEST_POSTGRES_LOG="$log"
export TANDEM_REQUIRE_POSTGRES=1
echo "with-postgres: PostgreSQL at $TANDEM_TEST_POSTGRES (data in $data)" >&2

# Not exec: the trap must outlive the command to stop the server.
set +e
"$@"
