#!/usr/bin/env bash
# Issue #9's benchmarks: media that travels with the party, measured on real processes on loopback.
#   1. join → first synced frame for a guest that streams, against one with a local copy, each
#      joining over a link adding 50 ± 20 ms each way (alternate runs; ratio of medians, goal ≤ 1.5);
#   2. bytes the host uploads through `tandem serve` for 1, 4 and 16 streaming guests watching the
#      same 60 s (goal ≈ 1× the file, whatever the number of guests);
#   3. skew of a streaming guest against a local-copy guest in one party over 50 ± 20 ms
#      (goal: p99 within 0.5 ms of each other);
#   4. 16 parallel whole-file downloads from a self-serving host against Debian's nginx serving the
#      same file, each with and without TLS (wall-time ratio of medians, goal ≤ 1.2);
#   5. (issue #11) join → first synced frame with TLS against --insecure, over 50 ± 20 ms, local copies.
# Usage: Benchmarks/party-media.sh [1|2|3|4|5]...   (all five without arguments)
# Run it with nothing else on the machine: every figure is a ratio within this run.
set -euo pipefail
cd "$(dirname "$0")/.."

LATENCY_MS=50; JITTER_MS=20   # the guests' path in 1 and 3
JOIN_RUNS=${JOIN_RUNS:-5}     # joins of each kind in 1, alternated
GUEST_COUNTS=${GUEST_COUNTS:-"1 4 16"}
DOWNLOADS=16                  # parallel downloads in 4
DOWNLOAD_RUNS=${DOWNLOAD_RUNS:-5}
steps=${*:-1 2 3 4 5}

scripts/install-deps.sh nginx >&2
if [ -z "${TANDEM:-}" ]; then swift build -c release --product tandem >&2; fi
tandem=${TANDEM:-$(swift build -c release --show-bin-path)/tandem}   # TANDEM=path: another build
work=$(mktemp -d)
trap 'kill $(jobs -p) $(cat "$work/nginx/nginx.pid" 2>/dev/null) 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$work"' EXIT
mkdir -p "$work/empty"
echo "machine: $(nproc) cores, $(free -g | awk '/Mem:/{print $2}') GiB, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)"

wait_for() { for _ in $(seq 600); do grep -q "$2" "$1" 2>/dev/null && return 0; sleep 0.05; done; echo "timed out waiting for $2 in $1" >&2; exit 1; }
median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
# A party link with another HOST:PORT (a proxy in front of the real one); the rest (key, fp) kept.
relink() { sed -E "s#^(tandem[a-z+]*://)[^/]+#\1$2#" <<< "$1"; }
# A link proxy in front of $1 adding $2 ± $3 ms; sets $proxied; its stdout in $work/$4.out.
proxy() {
    "$tandem" bench link --listen 127.0.0.1:0 --to "$1" --latency "$2" --jitter "$3" --seed 1 > "$work/$4.out" 2>/dev/null &
    wait_for "$work/$4.out" "listening on"
    proxied=$(sed -n 's/^listening on //p' "$work/$4.out")
}
# host FILE NAME SECONDS EXTRA...: a self-serving host playing from 1 s; sets $link and $hostpid.
host() {
    "$tandem" host "$1" --listen 127.0.0.1:0 --headless --party "$2" --name host --ipc "$work/$2-host.sock" \
        --duration "$3" --script "play@1" "${@:4}" > "$work/$2-host.out" 2> "$work/$2-host.err" &
    hostpid=$!
    wait_for "$work/$2-host.out" "^tandem"
    link=$(grep -m1 '^tandem' "$work/$2-host.out")
}

# time_join OUT HOSTSOCK NAME LINK JOINFLAGS...: one guest joins; the seconds until it plays in step
# with the host (`bench first-sync`) are appended to OUT and printed; the guest then leaves.
time_join() {
    local out=$1 hostsock=$2 name=$3 link=$4 sock="$work/$3.sock" bench guest seconds
    shift 4
    "$tandem" bench first-sync --ipc "$hostsock" --ipc "$sock" --json > "$work/first.json" &
    bench=$!
    (cd "$work/empty" && exec "$tandem" join "$link" --headless --name "$name" --ipc "$sock" --duration 60 "$@") \
        2> "$work/$name.err" &
    guest=$!
    wait "$bench"
    seconds=$(sed -n 's/.*"seconds":\([^,}]*\).*/\1/p' "$work/first.json")
    echo "$seconds" >> "$out"
    echo "$name: ${seconds} s"
    kill -TERM "$guest"; wait "$guest" 2>/dev/null || true
}

if [[ " $steps " == *" 1 "* ]]; then
    echo "## 1. join → first synced frame over ${LATENCY_MS} ± ${JITTER_MS} ms: streaming against a local copy"
    host assets/party.mp4 join 400
    hostaddr=$(sed -E 's#^tandem[a-z+]*://([^/]+)/.*#\1#' <<< "$link")
    proxy "$hostaddr" "$LATENCY_MS" "$JITTER_MS" join-link
    guestlink=$(relink "$link" "$proxied")
    sleep 2  # the host is playing (its script plays at 1 s) before the first guest joins
    : > "$work/join-local"; : > "$work/join-stream"
    for run in $(seq "$JOIN_RUNS"); do
        for kind in local stream; do
            media="$PWD/assets"; [ "$kind" = stream ] && media=.
            time_join "$work/join-$kind" "$work/join-host.sock" "join-$kind-$run" "$guestlink" --media "$media"
        done
    done
    l=$(median < "$work/join-local"); s=$(median < "$work/join-stream")
    echo "| join → first synced frame | streaming $s s | local copy $l s | ratio $(awk -v s="$s" -v l="$l" 'BEGIN { printf "%.2f", s / l }') | goal ≤ 1.5 |"
    kill -TERM "$hostpid" 2>/dev/null || true; wait "$hostpid" 2>/dev/null || true
fi

if [[ " $steps " == *" 2 "* ]]; then
    echo "## 2. bytes the host uploads through tandem serve, guests streaming the same 60 s"
    size=$(stat -c %s assets/party.mp4)
    echo "| guests | host upload (bytes) | × the file ($size bytes) |"
    echo "|---|---|---|"
    for n in $GUEST_COUNTS; do
        # A disk cache of its own: the default one keeps an earlier run's chunks (same party, file
        # and hash), and the host would then upload nothing at all.
        "$tandem" serve --listen 127.0.0.1:0 --cache-dir "$work/cache$n" > "$work/serve$n.out" 2> "$work/serve$n.err" &
        server=$!
        wait_for "$work/serve$n.out" "listening on"
        addr=$(sed -n 's/^listening on //p' "$work/serve$n.out")
        proxy "$addr" 0 0 "upload$n"   # counts the host's bytes, adds nothing
        upload=$!
        "$tandem" host assets/party.mp4 --server "$proxied" --headless --party "up$n" --name host \
            --duration 75 --script "play@8" > "$work/up$n-host.out" 2> "$work/up$n-host.err" &
        hostpid=$!
        wait_for "$work/up$n-host.out" "^tandem"
        guestlink=$(relink "$(grep -m1 '^tandem' "$work/up$n-host.out")" "$addr")
        guests=()
        for g in $(seq "$n"); do
            (cd "$work/empty" && exec "$tandem" join "$guestlink" --headless --name "g$g" --media . --duration 74) \
                2> "$work/up$n-g$g.err" &
            guests+=($!)
        done
        wait "$hostpid" "${guests[@]}" || true
        kill -TERM "$upload" "$server"; wait "$upload" "$server" 2>/dev/null || true
        bytes=$(sed -n 's/^bytes: \([0-9]*\) to.*/\1/p' "$work/upload$n.out")
        echo "| $n | $bytes | $(awk -v b="$bytes" -v s="$size" 'BEGIN { printf "%.2f", b / s }') |"
    done
fi

if [[ " $steps " == *" 3 "* ]]; then
    echo "## 3. skew over ${LATENCY_MS} ± ${JITTER_MS} ms: a streaming guest and a local-copy guest in one party"
    host assets/party.mp4 skew 40 --script "play@2,pause@10,play@12,seek:30@16,seek:5@24"
    hostaddr=$(sed -E 's#^tandem[a-z+]*://([^/]+)/.*#\1#' <<< "$link")
    proxy "$hostaddr" "$LATENCY_MS" "$JITTER_MS" skew-link
    guestlink=$(relink "$link" "$proxied")
    (cd "$work/empty" && exec "$tandem" join "$guestlink" --headless --name local --media "$OLDPWD/assets" \
        --ipc "$work/local.sock" --duration 38) 2> "$work/local.err" &
    (cd "$work/empty" && exec "$tandem" join "$guestlink" --headless --name streaming --media . \
        --ipc "$work/streaming.sock" --duration 38) 2> "$work/streaming.err" &
    "$tandem" bench party --ipc "$work/skew-host.sock" --ipc "$work/local.sock" --ipc "$work/streaming.sock" --duration 34
    wait "$hostpid" || true
fi

if [[ " $steps " == *" 4 "* ]]; then
    echo "## 4. $DOWNLOADS parallel whole-file downloads: a self-serving host against nginx (plain, then TLS)"
    Benchmarks/make-media.sh > /dev/null
    file=bench-out/1080p-h264.mp4
    cp "$file" "$work/media.mp4"
    chmod 755 "$work"; chmod 644 "$work/media.mp4"   # nginx's workers are not root
    state="$work/state"   # the host's certificate is made here; nginx serves TLS with the same one
    # The same party twice: --insecure (sendfile), then TLS (its own certificate, kept in $state).
    "$tandem" host "$work/media.mp4" --listen 127.0.0.1:0 --headless --party dl --key dlkey --name host --insecure \
        --duration 600 > "$work/dl-plain.out" 2> "$work/dl-plain.err" &
    plainpid=$!
    "$tandem" host "$work/media.mp4" --listen 127.0.0.1:0 --headless --party dl --key dlkey --name host --state-dir "$state" \
        --duration 600 > "$work/dl-tls.out" 2> "$work/dl-tls.err" &
    tlspid=$!
    wait_for "$work/dl-plain.out" "^tandem"; wait_for "$work/dl-tls.out" "^tandem"
    plainaddr=$(sed -nE 's#^tandem[a-z+]*://([^/]+)/.*#\1#p' "$work/dl-plain.out" | head -1)
    tlsaddr=$(sed -nE 's#^tandem[a-z+]*://([^/]+)/.*#\1#p' "$work/dl-tls.out" | head -1)
    token=$(printf 'tandem-media:dl' | openssl dgst -sha256 -hmac dlkey -r | cut -d' ' -f1)
    mkdir -p "$work/nginx/logs"
    cat > "$work/nginx/nginx.conf" <<EOF
worker_processes 2;
pid $work/nginx/nginx.pid;
error_log $work/nginx/logs/error.log;
events { worker_connections 256; }
http {
    access_log off; sendfile on; tcp_nopush on;
    client_body_temp_path $work/nginx; proxy_temp_path $work/nginx; fastcgi_temp_path $work/nginx;
    uwsgi_temp_path $work/nginx; scgi_temp_path $work/nginx;
    server { listen 127.0.0.1:18080; root $work; }
    server { listen 127.0.0.1:18443 ssl; ssl_certificate $state/server-cert.pem; ssl_certificate_key $state/server-key.pem; root $work; }
}
EOF
    nginx -c "$work/nginx/nginx.conf" -p "$work/nginx"
    fetch_all() {  # URL [HEADER]: $DOWNLOADS downloads at once, each checked whole; prints the wall seconds
        local start end pids=() i
        start=$(date +%s.%N)
        for i in $(seq "$DOWNLOADS"); do curl -sfk -o "$work/dl.$i" ${2:+-H "$2"} "$1" & pids+=($!); done
        for pid in "${pids[@]}"; do wait "$pid" || { echo "a download of $1 failed" >&2; exit 1; }; done
        end=$(date +%s.%N)
        for i in $(seq "$DOWNLOADS"); do cmp -s "$work/dl.$i" "$file" || { echo "$1: bytes differ" >&2; exit 1; }; done
        rm -f "$work"/dl.*
        awk -v a="$start" -v b="$end" 'BEGIN { printf "%.4f\n", b - a }'
    }
    : > "$work/t-plain"; : > "$work/n-plain"; : > "$work/t-tls"; : > "$work/n-tls"
    for run in $(seq "$DOWNLOAD_RUNS"); do
        fetch_all "http://$plainaddr/party/dl/media/0" "Authorization: Bearer $token" >> "$work/t-plain"
        fetch_all "http://127.0.0.1:18080/media.mp4" >> "$work/n-plain"
        fetch_all "https://$tlsaddr/party/dl/media/0" "Authorization: Bearer $token" >> "$work/t-tls"
        fetch_all "https://127.0.0.1:18443/media.mp4" >> "$work/n-tls"
    done
    echo "| $DOWNLOADS × $(stat -c %s "$file") bytes, median of $DOWNLOAD_RUNS | tandem | nginx | ratio (goal ≤ 1.2) |"
    echo "|---|---|---|---|"
    for mode in plain tls; do
        t=$(median < "$work/t-$mode"); n=$(median < "$work/n-$mode")
        echo "| $mode | $t s | $n s | $(awk -v t="$t" -v n="$n" 'BEGIN { printf "%.2f", t / n }') |"
    done
    nginx -c "$work/nginx/nginx.conf" -p "$work/nginx" -s stop
    kill -TERM "$plainpid" "$tlspid" 2>/dev/null || true; wait "$plainpid" "$tlspid" 2>/dev/null || true
fi

if [[ " $steps " == *" 5 "* ]]; then
    echo "## 5. join → first synced frame over ${LATENCY_MS} ± ${JITTER_MS} ms: TLS against --insecure (local copies)"
    declare -A joinlink
    for mode in tls plain; do
        flags=(); [ "$mode" = plain ] && flags=(--insecure)
        host assets/party.mp4 "tls-$mode" 400 "${flags[@]}"
        eval "hostpid_$mode=$hostpid"
        proxy "$(sed -E 's#^tandem[a-z+]*://([^/]+)/.*#\1#' <<< "$link")" "$LATENCY_MS" "$JITTER_MS" "tls-$mode-link"
        joinlink[$mode]=$(relink "$link" "$proxied")
    done
    sleep 2  # both hosts are playing before the first guest joins
    : > "$work/tls-tls"; : > "$work/tls-plain"
    for run in $(seq "$JOIN_RUNS"); do
        for mode in tls plain; do
            flags=(); [ "$mode" = plain ] && flags=(--insecure)
            time_join "$work/tls-$mode" "$work/tls-$mode-host.sock" "tls-$mode-$run" "${joinlink[$mode]}" \
                --media "$PWD/assets" "${flags[@]}"
        done
    done
    t=$(median < "$work/tls-tls"); p=$(median < "$work/tls-plain")
    echo "| join → first synced frame | TLS $t s | --insecure $p s | ratio $(awk -v t="$t" -v p="$p" 'BEGIN { printf "%.2f", t / p }') |"
    kill -TERM "$hostpid_tls" "$hostpid_plain" 2>/dev/null || true; wait "$hostpid_tls" "$hostpid_plain" 2>/dev/null || true
fi
