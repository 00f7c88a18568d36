#!/usr/bin/env python3
"""A home router's port mapping services, for the port mapping tests: it runs in the router namespace
that scripts/netns.sh makes and speaks the real wire formats — PCP (RFC 6887) and NAT-PMP (RFC 6886)
on UDP 5351 (port_control.py), SSDP on 239.255.255.250:1900 and the UPnP IGD's SOAP actions over
HTTP (upnp.py) — and installs each mapping as a real nftables DNAT rule (mappings.py), so a guest on
the WAN side reaches the host through it.

Why not miniupnpd: Debian's miniupnpd 2.3.1 refuses to run with a reserved external address (it
checks ext_ip and the WAN interface against the documentation and shared ranges), and the tests may
only use those. Written apart from Tandem's own PCP code, so the two check each other against the RFCs.

Prints one line per event on standard output: `ready` (everything listens), `map METHOD EXT ->
CLIENT:PORT lifetime S`, `renew …`, `delete METHOD EXT`, `expire METHOD EXT`, `reboot`. SIGUSR1
reboots it: every mapping and rule is forgotten and its epoch starts again, as a router that restarted.
"""
import argparse, http.server, os, signal, socket, threading

import port_control, upnp
from mappings import Mappings

parser = argparse.ArgumentParser()
parser.add_argument("--lan", required=True, help="the router's LAN address (where it listens)")
parser.add_argument("--external", required=True, help="the router's WAN address (mappings' external side)")
parser.add_argument("--wan-interface", default="wan0")
parser.add_argument("--methods", default="pcp,natpmp,upnp", help="which of pcp, natpmp, upnp it speaks")
parser.add_argument("--lifetime-cap", type=int, default=3600, help="the longest lifetime it grants (s)")
parser.add_argument("--taken", default="", help="external ports other machines hold, comma-separated")
parser.add_argument("--hairpin", action="store_true", help="LAN hosts reach mappings through the external address")
parser.add_argument("--reboot-takes-ports", action="store_true",
                    help="after a reboot, the ports mapped before are another machine's")
parser.add_argument("--http-port", type=int, default=5000)
args = parser.parse_args()
methods = set(args.methods.split(",")) - {""}


def thread(target, *arguments):
    threading.Thread(target=target, args=arguments, daemon=True).start()


def main():
    mappings = Mappings(args.lan, args.external, args.wan_interface, args.hairpin,
                        {int(p) for p in args.taken.split(",") if p}, args.lifetime_cap, args.reboot_takes_ports)
    mappings.install()
    thread(mappings.expire_forever)
    # Every socket is bound before "ready".
    if methods & {"pcp", "natpmp"}:
        control = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        control.bind((args.lan, 5351))
        thread(port_control.serve, mappings, control, methods)
    if "upnp" in methods:
        server = http.server.ThreadingHTTPServer((args.lan, args.http_port), upnp.control(mappings))
        thread(server.serve_forever)
        search = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        search.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        search.bind(("", 1900))
        search.setsockopt(socket.IPPROTO_IP, socket.IP_ADD_MEMBERSHIP,
                          socket.inet_aton("239.255.255.250") + socket.inet_aton(args.lan))
        thread(upnp.answer_searches, search, f"http://{args.lan}:{args.http_port}/rootDesc.xml")
    signal.signal(signal.SIGUSR1, mappings.reboot)
    signal.signal(signal.SIGTERM, lambda *_: os._exit(0))
    mappings.say("ready")
    while True:
        signal.pause()


main()
