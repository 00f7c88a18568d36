#!/usr/bin/env bash
# A home network behind a NAT router, in network namespaces, for the port mapping tests
# (Tests/PortMappingTests): `home` (the host), `router` (NAT, nftables masquerade; the tests' gateway
# runs there), `net` (the internet side, where the guest is). Private and documentation addresses
# only, and no default route out of the router: nothing here can send to a public address.
#
#   scripts/netns.sh up ID [WAN_PREFIX]   make tdm-ID-home, tdm-ID-router, tdm-ID-net
#                                         WAN_PREFIX: the router's WAN /24 (default 203.0.113, a
#                                         documentation range; 100.64.0 puts it behind carrier-grade NAT)
#   scripts/netns.sh forward ID EXT_PORT INTERNAL_PORT   a manual port forward on the router (no hairpin)
#   scripts/netns.sh silence ID           the router drops PCP, NAT-PMP and SSDP without a word (no ICMP)
#   scripts/netns.sh down ID              remove them (what is left running in them is killed first)
#   scripts/netns.sh check                whether this machine can make namespaces (exit 0), else why
#
# Addresses: home 192.168.77.10/24 via the router's 192.168.77.1; the router's WAN WAN_PREFIX.1/24;
# the guest WAN_PREFIX.20/24, on the router's WAN link.
set -euo pipefail
home_address=192.168.77.10
router_lan=192.168.77.1

ns() { echo "tdm-$1-$2"; }

case "${1:-}" in
check)
    [ "$(id -u)" -eq 0 ] || { echo "not root: network namespaces need CAP_SYS_ADMIN"; exit 1; }
    for tool in ip nft python3; do
        command -v "$tool" >/dev/null || { echo "$tool is not installed"; exit 1; }
    done
    probe="tdm-probe-$$"
    ip netns add "$probe" 2>/dev/null || { echo "ip netns add fails here (no network namespaces in this container?)"; exit 1; }
    ok=0
    ip netns exec "$probe" nft list tables >/dev/null 2>&1 || ok=1
    ip netns del "$probe"
    [ $ok -eq 0 ] || { echo "nftables does not work in a network namespace here"; exit 1; }
    ;;
up)
    id=$2; wan=${3:-203.0.113}
    home=$(ns "$id" home) router=$(ns "$id" router) net=$(ns "$id" net)
    ip netns add "$home"
    ip netns add "$router"
    ip netns add "$net"
    for n in "$home" "$router" "$net"; do ip -n "$n" link set lo up; done
    # Made inside the namespaces: tests running at once never collide on a name in the root namespace.
    ip -n "$router" link add lan0 type veth peer name lan0 netns "$home"
    ip -n "$router" link add wan0 type veth peer name wan0 netns "$net"
    ip -n "$home" addr add "$home_address/24" dev lan0
    ip -n "$router" addr add "$router_lan/24" dev lan0
    ip -n "$router" addr add "$wan.1/24" dev wan0
    ip -n "$net" addr add "$wan.20/24" dev wan0
    for n in "$home" "$router" "$net"; do ip -n "$n" link set dev lan0 up 2>/dev/null || true; ip -n "$n" link set dev wan0 up 2>/dev/null || true; done
    ip -n "$home" route add default via "$router_lan"
    ip netns exec "$router" sysctl -qw net.ipv4.ip_forward=1
    ip netns exec "$router" nft -f - <<EOF
table ip tdmnat {
    chain postrouting {
        type nat hook postrouting priority srcnat; policy accept;
        oifname "wan0" masquerade
    }
}
EOF
    ;;
forward)
    id=$2; external=$3; internal=$4
    router=$(ns "$id" router)
    ip netns exec "$router" nft -f - <<EOF
table ip tdmforward {
    chain prerouting {
        type nat hook prerouting priority dstnat; policy accept;
        iifname "wan0" tcp dport $external dnat to $home_address:$internal
    }
}
EOF
    ;;
silence)
    router=$(ns "$2" router)
    ip netns exec "$router" nft -f - <<EOF
table ip tdmsilence {
    chain input {
        type filter hook input priority filter; policy accept;
        udp dport { 1900, 5351 } drop
    }
}
EOF
    ;;
down)
    id=$2
    for part in home router net; do
        n=$(ns "$id" "$part")
        ip netns pids "$n" 2>/dev/null | xargs -r kill -9 2>/dev/null || true
        ip netns del "$n" 2>/dev/null || true
    done
    ;;
*)
    echo "usage: $0 check | up ID [WAN_PREFIX] | forward ID EXT_PORT INTERNAL_PORT | silence ID | down ID" >&2
    exit 2
    ;;
esac
