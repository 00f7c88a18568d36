#!/usr/bin/env bash
# Issue #10's benchmark target, measured on real processes on loopback: a party server, a host and
# one guest whose party connection goes through a TCP proxy adding LATENCY ± JITTER ms each way
# (in order, like a real link with jitter), while BURN CPU-bound busy loops run. Positions are
# sampled over mpv IPC at 10 Hz; prints the skew per phase and a one-line verdict:
#   skew p95 ≤ 2 ms in steady play, in the 5 s after a pause/resume and after each seek;
#   paused positions equal.
# Usage: Benchmarks/party-jitter.sh   (SEED=N for other delay draws; exits 1 if a target is missed)
set -euo pipefail
cd "$(dirname "$0")/.."

LATENCY_MS=50        # one-way delay added on the guest's party connection, each way
JITTER_MS=20         # uniform ± around it, per chunk, never reordering
SEED=${SEED:-1}      # the proxy's delay draws
BURN=${BURN:-2}      # busy loops: as many as this machine's 2 cores
TARGET_P95_MS=2      # the target for every playing phase
PAUSED_EQUAL_MS=0.001  # "equal": 1 µs, below any frame or clock step, above float rounding
SCRIPT="play@2,pause@10,play@12,seek:30@16,seek:5@24"  # seconds after the host joins
HOST_SECONDS=36      # the host leaves (ending the party) 12 s after its script's last step
SAMPLE_SECONDS=32    # sampling starts once both IPC sockets answer (≈1 s after the host joins)

scripts/install-deps.sh
swift build -c release --product tandem >&2
tandem=$(swift build -c release --show-bin-path)/tandem
# MEMBERS=/path/to/another/tandem runs the server, host and guest from another build (a before/after
# comparison on the same load); the proxy, the busy loops and the sampler stay this build's.
members_tandem=${MEMBERS:-$tandem}
work=$(mktemp -d)
# KEEP=DIR keeps the members' --json status lines and stderr there (each member's own skew estimate, once a second).
trap 'kill $(jobs -p) 2>/dev/null || true; wait 2>/dev/null || true; [ -n "${KEEP:-}" ] && mkdir -p "$KEEP" && cp "$work"/*.out "$work"/*.err "$KEEP"/; rm -rf "$work"' EXIT

wait_for() { for _ in $(seq 400); do grep -q "$2" "$1" 2>/dev/null && return 0; sleep 0.05; done; echo "timed out waiting for $2 in $1" >&2; exit 1; }

"$members_tandem" serve --listen 127.0.0.1:0 --duration 90 > "$work/serve.out" 2> "$work/serve.err" &
server=$!
wait_for "$work/serve.out" "^fingerprint "
addr=$(sed -n 's/^listening on //p' "$work/serve.out")
# The server's TLS certificate, pinned by the guest's link (the host trusts it on first use).
fp=$(sed -n 's/^fingerprint //p' "$work/serve.out")

"$tandem" bench link --listen 127.0.0.1:0 --to "$addr" --latency "$LATENCY_MS" --jitter "$JITTER_MS" --seed "$SEED" \
    --duration 90 > "$work/link.out" 2> "$work/link.err" &
proxy=$!
wait_for "$work/link.out" "listening on"
proxied=$(sed -n 's/^listening on //p' "$work/link.out")
echo "machine: $(nproc) cores; server $addr; guest's link through $proxied: $(cat "$work/link.err")"

"$tandem" bench burn --seconds 90 --threads "$BURN" > /dev/null &
burn=$!

"$members_tandem" host assets/party.mp4 --server "$addr" --headless --party jitter --key jitter --name host \
    --ipc "$work/host.sock" --duration "$HOST_SECONDS" --script "$SCRIPT" --json > "$work/host.out" 2> "$work/host.err" &
members=($!)
wait_for "$work/host.out" "joined party"
"$members_tandem" join "tandem://$proxied/party/jitter?key=jitter&fp=$fp" --headless --name guest --media assets \
    --ipc "$work/guest.sock" --duration "$((HOST_SECONDS - 1))" --json > "$work/guest.out" 2> "$work/guest.err" &
members+=($!)
echo "host script $SCRIPT; $BURN busy loops; sampling ${SAMPLE_SECONDS} s at 10 Hz"
"$tandem" bench party --ipc "$work/host.sock" --ipc "$work/guest.sock" --duration "$SAMPLE_SECONDS" --interval 0.1 \
    --summary "$work/summary.json"
wait "${members[@]}" || true
kill -TERM "$server" "$proxy" "$burn" 2>/dev/null || true
wait || true

summary=$(cat "$work/summary.json")
echo "summary: $summary"
field() { sed -n "s/.*\"$1\":\([^,}]*\).*/\1/p" <<< "$summary"; }
# A phase meets its target when it has samples and its figure is within the bound.
meets() { awk -v v="$1" -v n="$2" -v bound="$3" 'BEGIN { exit !(v != "null" && v != "" && n > 0 && v + 0 <= bound + 0) }'; }
verdict=PASS
for phase in steady resume seek; do
    meets "$(field "${phase}SkewP95Ms")" "$(field "${phase}Samples")" "$TARGET_P95_MS" || verdict=FAIL
done
meets "$(field pausedMaxDiffMs)" "$(field pausedSamples)" "$PAUSED_EQUAL_MS" || verdict=FAIL
echo "verdict: $verdict — skew p95 steady $(field steadySkewP95Ms) ms, after resume $(field resumeSkewP95Ms) ms," \
     "after seek $(field seekSkewP95Ms) ms (target ≤ $TARGET_P95_MS); paused max |Δ| $(field pausedMaxDiffMs) ms" \
     "(target equal, ≤ $PAUSED_EQUAL_MS); $(field resumes) resumes, $(field seeks) seeks, $(field pauses) pauses on the host" \
     "at ${LATENCY_MS} ± ${JITTER_MS} ms, seed $SEED, $BURN busy loops"
[ "$verdict" = PASS ]
