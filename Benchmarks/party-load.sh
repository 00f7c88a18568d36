#!/usr/bin/env bash
# Issue #14's load benchmark (part 1 and part 5) and issue #11's part 5, with `tandem bench load`:
# members that behave like real ones (hello, the time-ping schedule, a status a second, a host command
# every 5 s) over real WebSockets against one `tandem serve` it starts on loopback, measured once the
# members' clocks have settled (their time pings backed off, as a minute into a real party; up to
# SETTLE seconds of waiting, reported as settle).
#   1. 1000 members in 100 parties, plain (--insecure) and TLS, alternately in this run: server CPU per
#      member with TLS against without (issue #11, goal ≤ 1.3×), pong round trip and fan-out p50/p99;
#   2. 5000 members in 500 parties, TLS;
#   3. 10000 members in 1000 parties, TLS (issue #14's goals: ≤ 20 µs of server CPU per message,
#      fan-out p99 ≤ 10 ms on one 2-core server).
# Usage: Benchmarks/party-load.sh [1|2|3]...   (all three without arguments)
# Run it with nothing else on the machine: the client shares it with the server (its own CPU is reported).
# PIN=1 (steps 2 and 3): the server on CPU 0 and the client on CPU 1, each with one event loop
# (NIO_SINGLETON_GROUP_LOOP_COUNT=1), so that neither takes the other's core: the server gets half of
# this 2-core machine, which a goal for a 2-core server then meets with room to spare.
set -euo pipefail
cd "$(dirname "$0")/.."

DURATION=${DURATION:-30}   # seconds measured per run, after every member has joined and settled
RUNS=${RUNS:-3}            # alternate plain/TLS runs in 1
SETTLE=${SETTLE:-90}       # longest wait for the members' pings to back off before each window
steps=${*:-1 2 3}

if [ -z "${TANDEM:-}" ]; then swift build -c release --product tandem >&2; fi
tandem=${TANDEM:-$(swift build -c release --show-bin-path)/tandem}   # TANDEM=path: another build
ulimit -n "$(ulimit -Hn)"   # a socket per member, on each side
echo "machine: $(nproc) cores, $(free -g | awk '/Mem:/{print $2}') GiB, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)"

field() { sed -E "s/.*\"$1\":([^,}]*).*/\1/"; }
median() { "$tandem" bench percentile 50; }
load() { "$tandem" bench load --members "$1" --parties "$2" --duration "$DURATION" --settle "$SETTLE" --json "${@:3}"; }
# A step's run, pinned with PIN=1: a `tandem serve` this script starts on CPU 0, the client on CPU 1.
big_load() {
    if [ "${PIN:-0}" != 1 ]; then load "$@"; return; fi
    local dir; dir=$(mktemp -d)
    NIO_SINGLETON_GROUP_LOOP_COUNT=1 taskset -c 0 "$tandem" serve --listen 127.0.0.1:0 --state-dir "$dir/state" \
        --cache-size 0 > "$dir/serve.out" 2> "$dir/serve.err" &
    local server=$!
    for _ in $(seq 200); do grep -q '^fingerprint ' "$dir/serve.out" 2>/dev/null && break; sleep 0.05; done
    local addr fp
    addr=$(sed -n 's/^listening on //p' "$dir/serve.out"); fp=$(sed -n 's/^fingerprint //p' "$dir/serve.out")
    if [ -z "$addr" ] || [ -z "$fp" ]; then echo "the pinned server did not start: $(cat "$dir/serve.err")" >&2; exit 1; fi
    NIO_SINGLETON_GROUP_LOOP_COUNT=1 taskset -c 1 "$tandem" bench load --members "$1" --parties "$2" \
        --duration "$DURATION" --settle "$SETTLE" --json --server "$addr" --server-pid "$server" --server-fp "$fp" "${@:3}"
    kill "$server"; wait "$server" 2>/dev/null || true
    rm -rf "$dir"
}
show() {
    local line=$1
    printf '  members %s parties %s tls %s (settled in %s s, %s pings/member/s, %s backing off): pong p50/p99 %s/%s ms, fan-out p50/p99 %s/%s ms, server %s cores, %s µs/member/s, %s µs/message, %s KiB/member, client %s cores, pongs %s/%s, fan-outs %s/%s\n' \
        "$(field members <<< "$line")" "$(field parties <<< "$line")" "$(field tls <<< "$line")" \
        "$(field settleSeconds <<< "$line")" "$(field pingsPerMemberPerSecond <<< "$line")" "$(field membersBackingOff <<< "$line")" \
        "$(field pongP50Ms <<< "$line")" "$(field pongP99Ms <<< "$line")" \
        "$(field fanOutP50Ms <<< "$line")" "$(field fanOutP99Ms <<< "$line")" \
        "$(field serverCores <<< "$line")" "$(field serverCPUPerMemberUs <<< "$line")" \
        "$(field serverCPUPerMessageUs <<< "$line")" "$(field serverRSSPerMemberKiB <<< "$line")" \
        "$(field clientCores <<< "$line")" "$(field pongsReceived <<< "$line")" "$(field pingsSent <<< "$line")" \
        "$(field fanOutsReceived <<< "$line")" "$(field fanOutsExpected <<< "$line")"
}

for step in $steps; do
    case $step in
    1)
        echo "## 1. 1000 members in 100 parties: TLS against --insecure ($RUNS alternate runs of ${DURATION} s, medians)"
        plain=(); tls=()
        for _ in $(seq "$RUNS"); do
            line=$(load 1000 100 --insecure); show "$line"; plain+=("$(field serverCPUPerMemberUs <<< "$line")")
            line=$(load 1000 100); show "$line"; tls+=("$(field serverCPUPerMemberUs <<< "$line")")
        done
        p=$(printf '%s\n' "${plain[@]}" | median); t=$(printf '%s\n' "${tls[@]}" | median)
        echo "  server CPU per member: plain $p µs/s, TLS $t µs/s, ratio $(awk -v t="$t" -v p="$p" 'BEGIN { printf "%.2f", t / p }') (goal ≤ 1.3)"
        ;;
    2)
        echo "## 2. 5000 members in 500 parties, TLS$([ "${PIN:-0}" = 1 ] && echo ", pinned") (${DURATION} s)"
        show "$(big_load 5000 500)"
        ;;
    3)
        echo "## 3. 10000 members in 1000 parties, TLS$([ "${PIN:-0}" = 1 ] && echo ", pinned") (${DURATION} s; goals: ≤ 20 µs per message, fan-out p99 ≤ 10 ms)"
        show "$(big_load 10000 1000)"
        ;;
    *) echo "unknown step $step (1, 2 or 3)" >&2; exit 2 ;;
    esac
done
