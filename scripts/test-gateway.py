#!/usr/bin/env python3
"""A home router's port mapping services, for the port mapping tests: it runs in the router namespace
that scripts/netns.sh makes and speaks the real wire formats — PCP (RFC 6887) and NAT-PMP (RFC 6886)
on UDP 5351, SSDP on 239.255.255.250:1900 and the UPnP IGD's SOAP actions (GetStatusInfo,
GetExternalIPAddress, AddPortMapping, DeletePortMapping) over HTTP — and installs each mapping as a
real nftables DNAT rule, so a guest on the WAN side reaches the host through it.

Why not miniupnpd: Debian's miniupnpd 2.3.1 refuses to run with a reserved external address (it
checks ext_ip and the WAN interface against the documentation and shared ranges), and the tests
may only use those.

Written independently of Tandem's own PCP code, so the two check each other against the RFCs.
Prints one line per event on standard output (flushed): `ready`, `map METHOD EXT -> CLIENT:PORT
lifetime S`, `renew …`, `delete METHOD EXT`, `expire METHOD EXT`, `reboot`. SIGUSR1 reboots it:
every mapping and rule is forgotten and its epoch starts again, as a router that restarted.
"""
import argparse, http.server, ipaddress, os, re, signal, socket, struct, subprocess, sys, threading, time

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
taken = {int(p) for p in args.taken.split(",") if p}
lock = threading.Lock()
mappings = {}  # external port -> dict(method, client, port, expires (None: permanent), nonce)
started = time.monotonic()
TABLE = "testgw"


def say(line):
    with lock:
        sys.stdout.write(line + "\n")
        sys.stdout.flush()


def epoch():
    return int(time.monotonic() - started)


def nft(script):
    subprocess.run(["nft", "-f", "-"], input=script.encode(), check=True)


def install_table():
    subprocess.run(["nft", "delete", "table", "ip", TABLE], stderr=subprocess.DEVNULL)
    lan = ipaddress.ip_interface(f"{args.lan}/24").network
    hairpin = f"ip saddr {lan} ct status dnat masquerade" if args.hairpin else ""
    nft(f"""table ip {TABLE} {{
    chain prerouting {{
        type nat hook prerouting priority dstnat - 1; policy accept;
        jump mappings
    }}
    chain mappings {{
    }}
    chain postrouting {{
        type nat hook postrouting priority srcnat - 1; policy accept;
        {hairpin}
    }}
}}
""")


def sync_rules():
    """Called with `lock` held: the mappings chain holds one DNAT rule per mapping."""
    lines = [f"flush chain ip {TABLE} mappings"]
    for ext, m in sorted(mappings.items()):
        match = f"ip daddr {args.external}" if args.hairpin else f'iifname "{args.wan_interface}"'
        lines.append(f"add rule ip {TABLE} mappings {match} tcp dport {ext} dnat to {m['client']}:{m['port']}")
    nft("\n".join(lines) + "\n")


def grant(method, client, internal, suggested, lifetime, nonce=None):
    """Maps (or renews) and returns (external port, lifetime); None when no port is free."""
    with lock:
        for ext, m in mappings.items():
            if m["client"] == client and m["port"] == internal and m["method"] == method and m.get("nonce") == nonce:
                m["expires"] = None if lifetime == 0 else time.monotonic() + lifetime
                sync_rules()
                event = "renew"
                break
        else:
            ext = suggested if suggested else internal
            while ext in taken or ext in mappings:
                ext = ext + 1 if ext < 65535 else 1024
            mappings[ext] = dict(method=method, client=client, port=internal, nonce=nonce,
                                 expires=None if lifetime == 0 else time.monotonic() + lifetime)
            sync_rules()
            event = "map"
    say(f"{event} {method} {ext} -> {client}:{internal} lifetime {lifetime}")
    return ext


def delete(method, ext):
    with lock:
        if ext not in mappings:
            return False
        del mappings[ext]
        sync_rules()
    say(f"delete {method} {ext}")
    return True


def expire_loop():
    while True:
        time.sleep(0.2)
        now = time.monotonic()
        gone = []
        with lock:
            for ext, m in list(mappings.items()):
                if m["expires"] is not None and m["expires"] < now:
                    gone.append((m["method"], ext))
                    del mappings[ext]
            if gone:
                sync_rules()
        for method, ext in gone:
            say(f"expire {method} {ext}")


def reboot(*_):
    global started
    with lock:
        if args.reboot_takes_ports:
            taken.update(mappings.keys())
        mappings.clear()
        started = time.monotonic()
        sync_rules()
    say("reboot")


# PCP and NAT-PMP (one port, told apart by the version byte).

def mapped_ipv4(data):
    return socket.inet_ntoa(data[12:16]) if data[:12] == b"\0" * 10 + b"\xff\xff" else None


def pcp(data, source):
    if len(data) < 60 or len(data) % 4:
        return None
    opcode, lifetime = data[1] & 0x7F, struct.unpack("!I", data[4:8])[0]
    nonce, proto = data[24:36], data[36]
    internal, suggested = struct.unpack("!HH", data[40:44])

    def answer(result, life=0, ext=0):
        head = struct.pack("!BBBBII", 2, 0x80 | opcode, 0, result, life, epoch()) + b"\0" * 12
        return head + nonce + struct.pack("!B3xHH", proto, internal, ext) + b"\0" * 10 + b"\xff\xff" + socket.inet_aton(args.external)

    if opcode != 1:
        return answer(4)  # UNSUPP_OPCODE
    if mapped_ipv4(data[8:24]) != source:
        return answer(12)  # ADDRESS_MISMATCH
    if proto != 6:
        return answer(9)  # UNSUPP_PROTOCOL
    if lifetime == 0:
        with lock:
            found = [e for e, m in mappings.items() if m["method"] == "pcp" and m.get("nonce") == nonce and m["client"] == source]
        for ext in found:
            delete("pcp", ext)
        return answer(0, 0, found[0] if found else 0)
    life = min(lifetime, args.lifetime_cap)
    ext = grant("pcp", source, internal, suggested, life, nonce)
    return answer(0, life, ext)


def natpmp(data, source):
    if len(data) < 2:
        return None
    op = data[1]
    if op == 0:
        return struct.pack("!BBHI", 0, 128, 0, epoch()) + socket.inet_aton(args.external)
    if op not in (1, 2) or len(data) < 12:
        return struct.pack("!BBHI", 0, 128 + op, 5, epoch())  # unsupported opcode
    internal, suggested, lifetime = struct.unpack("!HHI", data[4:12])
    if op == 1:
        return struct.pack("!BBHIHHI", 0, 128 + op, 2, epoch(), internal, 0, 0)  # TCP only here
    if lifetime == 0:
        with lock:
            found = [e for e, m in mappings.items() if m["method"] == "natpmp" and m["client"] == source and m["port"] == internal]
        for ext in found:
            delete("natpmp", ext)
        return struct.pack("!BBHIHHI", 0, 128 + op, 0, epoch(), internal, 0, 0)
    life = min(lifetime, args.lifetime_cap)
    ext = grant("natpmp", source, internal, suggested, life)
    return struct.pack("!BBHIHHI", 0, 128 + op, 0, epoch(), internal, ext, life)


def port_control(sock):
    while True:
        data, (source, port) = sock.recvfrom(1100)
        if data[:1] == b"\x02":
            reply = pcp(data, source) if "pcp" in methods else (
                struct.pack("!BBHI", 0, 0x80 | (data[1] & 0x7F), 1, epoch()) if "natpmp" in methods else None)
        elif data[:1] == b"\x00" and "natpmp" in methods:
            reply = natpmp(data, source)
        else:
            reply = None
        if reply:
            sock.sendto(reply, (source, port))


# UPnP: SSDP, the description, the control URL.

IGD = "urn:schemas-upnp-org:device:InternetGatewayDevice:1"
WANIP = "urn:schemas-upnp-org:service:WANIPConnection:1"
UUID = "uuid:7a4d7e00-7a4d-4d7e-8000-000000000001"
DESCRIPTION = f"""<?xml version="1.0"?>
<root xmlns="urn:schemas-upnp-org:device-1-0"><specVersion><major>1</major><minor>0</minor></specVersion>
<device><deviceType>{IGD}</deviceType><friendlyName>Tandem test gateway</friendlyName><UDN>{UUID}</UDN>
<deviceList><device><deviceType>urn:schemas-upnp-org:device:WANDevice:1</deviceType><UDN>{UUID}1</UDN>
<serviceList><service><serviceType>urn:schemas-upnp-org:service:WANCommonInterfaceConfig:1</serviceType>
<serviceId>urn:upnp-org:serviceId:WANCommonIFC1</serviceId><controlURL>/ctl/CmnIfCfg</controlURL>
<eventSubURL>/evt/CmnIfCfg</eventSubURL><SCPDURL>/WANCfg.xml</SCPDURL></service></serviceList>
<deviceList><device><deviceType>urn:schemas-upnp-org:device:WANConnectionDevice:1</deviceType><UDN>{UUID}2</UDN>
<serviceList><service><serviceType>{WANIP}</serviceType><serviceId>urn:upnp-org:serviceId:WANIPConn1</serviceId>
<controlURL>/ctl/IPConn</controlURL><eventSubURL>/evt/IPConn</eventSubURL><SCPDURL>/WANIPCn.xml</SCPDURL>
</service></serviceList></device></deviceList></device></deviceList></device></root>
"""


def ssdp(sock):
    while True:
        data, source = sock.recvfrom(2048)
        text = data.decode(errors="replace")
        if not text.startswith("M-SEARCH"):
            continue
        st = re.search(r"^ST:\s*(\S+)", text, re.I | re.M)
        st = st.group(1) if st else ""
        if st not in (IGD, "ssdp:all", "upnp:rootdevice", WANIP):
            continue
        reply = (f"HTTP/1.1 200 OK\r\nCACHE-CONTROL: max-age=120\r\nST: {st}\r\nUSN: {UUID}::{st}\r\nEXT:\r\n"
                 f"SERVER: Linux UPnP/1.1 TandemTestGateway/1.0\r\nLOCATION: http://{args.lan}:{args.http_port}/rootDesc.xml\r\n\r\n")
        sock.sendto(reply.encode(), source)


def soap(action, body):
    return (f'<?xml version="1.0"?>\r\n<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/" '
            f's:encodingStyle="http://schemas.xmlsoap.org/soap/encoding/"><s:Body><u:{action}Response xmlns:u="{WANIP}">'
            f"{body}</u:{action}Response></s:Body></s:Envelope>\r\n")


def fault(code, text):
    return (f'<?xml version="1.0"?>\r\n<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/" '
            f's:encodingStyle="http://schemas.xmlsoap.org/soap/encoding/"><s:Body><s:Fault><faultcode>s:Client</faultcode>'
            f'<faultstring>UPnPError</faultstring><detail><UPnPError xmlns="urn:schemas-upnp-org:control-1-0">'
            f"<errorCode>{code}</errorCode><errorDescription>{text}</errorDescription></UPnPError></detail></s:Fault>"
            f"</s:Body></s:Envelope>\r\n")


class Control(http.server.BaseHTTPRequestHandler):
    def log_message(self, *_):
        pass

    def send(self, status, body, kind="text/xml; charset=\"utf-8\""):
        data = body.encode()
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        if self.path == "/rootDesc.xml":
            self.send(200, DESCRIPTION)
        else:
            self.send(404, "")

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", 0))).decode(errors="replace")
        action = (self.headers.get("SOAPAction", "").strip('"').split("#") + [""])[1]

        def arg(name):
            m = re.search(rf"<{name}>([^<]*)</{name}>", body)
            return m.group(1) if m else ""

        client = self.client_address[0]
        if action == "GetStatusInfo":
            self.send(200, soap(action, "<NewConnectionStatus>Connected</NewConnectionStatus>"
                                        "<NewLastConnectionError>ERROR_NONE</NewLastConnectionError>"
                                        f"<NewUptime>{epoch()}</NewUptime>"))
        elif action == "GetExternalIPAddress":
            self.send(200, soap(action, f"<NewExternalIPAddress>{args.external}</NewExternalIPAddress>"))
        elif action == "AddPortMapping":
            ext, internal = int(arg("NewExternalPort") or 0), int(arg("NewInternalPort") or 0)
            target, lease = arg("NewInternalClient"), int(arg("NewLeaseDuration") or 0)
            if arg("NewProtocol") != "TCP" or target != client:
                return self.send(500, fault(606, "Action not authorized"))
            with lock:
                holder = mappings.get(ext)
                conflict = ext in taken or (holder is not None and (holder["client"] != target or holder["method"] != "upnp"))
            if conflict:
                return self.send(500, fault(718, "ConflictInMappingEntry"))
            life = 0 if lease == 0 else min(lease, args.lifetime_cap)
            with lock:
                existing = mappings.get(ext)
                if existing:
                    existing.update(port=internal, expires=None if life == 0 else time.monotonic() + life)
                else:
                    mappings[ext] = dict(method="upnp", client=target, port=internal, nonce=None,
                                         expires=None if life == 0 else time.monotonic() + life)
                sync_rules()
            say(f"{'renew' if existing else 'map'} upnp {ext} -> {target}:{internal} lifetime {life}")
            self.send(200, soap(action, ""))
        elif action == "DeletePortMapping":
            ext = int(arg("NewExternalPort") or 0)
            if delete("upnp", ext):
                self.send(200, soap(action, ""))
            else:
                self.send(500, fault(714, "NoSuchEntryInArray"))
        else:
            self.send(500, fault(401, "Invalid Action"))


def main():
    install_table()
    threading.Thread(target=expire_loop, daemon=True).start()
    # Every socket is bound before "ready".
    if methods & {"pcp", "natpmp"}:
        control = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        control.bind((args.lan, 5351))
        threading.Thread(target=port_control, args=(control,), daemon=True).start()
    if "upnp" in methods:
        server = http.server.ThreadingHTTPServer((args.lan, args.http_port), Control)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        search = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        search.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        search.bind(("", 1900))
        search.setsockopt(socket.IPPROTO_IP, socket.IP_ADD_MEMBERSHIP,
                          socket.inet_aton("239.255.255.250") + socket.inet_aton(args.lan))
        threading.Thread(target=ssdp, args=(search,), daemon=True).start()
    signal.signal(signal.SIGUSR1, reboot)
    signal.signal(signal.SIGTERM, lambda *_: os._exit(0))
    say("ready")
    while True:
        signal.pause()


main()
