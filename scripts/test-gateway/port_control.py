"""PCP (RFC 6887) and NAT-PMP (RFC 6886) on UDP 5351, told apart by the version byte."""
import socket, struct

PCP_UNSUPP_OPCODE, PCP_UNSUPP_PROTOCOL, PCP_ADDRESS_MISMATCH = 4, 9, 12
NATPMP_UNSUPPORTED_VERSION, NATPMP_REFUSED, NATPMP_UNSUPPORTED_OPCODE = 1, 2, 5


def mapped_ipv4(data):
    """The IPv4 address in an IPv4-mapped IPv6 field, or None."""
    return socket.inet_ntoa(data[12:16]) if data[:12] == b"\0" * 10 + b"\xff\xff" else None


def pcp(mappings, data, source):
    if len(data) < 60 or len(data) % 4:
        return None
    opcode, lifetime = data[1] & 0x7F, struct.unpack("!I", data[4:8])[0]
    nonce, proto = data[24:36], data[36]
    internal, suggested = struct.unpack("!HH", data[40:44])

    def answer(result, life=0, ext=0):
        head = struct.pack("!BBBBII", 2, 0x80 | opcode, 0, result, life, mappings.epoch()) + b"\0" * 12
        return (head + nonce + struct.pack("!B3xHH", proto, internal, ext) + b"\0" * 10 + b"\xff\xff"
                + socket.inet_aton(mappings.external))

    if opcode != 1:
        return answer(PCP_UNSUPP_OPCODE)
    if mapped_ipv4(data[8:24]) != source:
        return answer(PCP_ADDRESS_MISMATCH)
    if proto != 6:
        return answer(PCP_UNSUPP_PROTOCOL)
    if lifetime == 0:
        found = mappings.find(lambda m: m["method"] == "pcp" and m.get("nonce") == nonce and m["client"] == source)
        for ext in found:
            mappings.delete("pcp", ext)
        return answer(0, 0, found[0] if found else 0)
    life = min(lifetime, mappings.lifetime_cap)
    return answer(0, life, mappings.grant("pcp", source, internal, suggested, life, nonce))


def natpmp(mappings, data, source):
    if len(data) < 2:
        return None
    op = data[1]
    if op == 0:
        return struct.pack("!BBHI", 0, 128, 0, mappings.epoch()) + socket.inet_aton(mappings.external)
    if op not in (1, 2) or len(data) < 12:
        return struct.pack("!BBHI", 0, 128 + op, NATPMP_UNSUPPORTED_OPCODE, mappings.epoch())
    internal, suggested, lifetime = struct.unpack("!HHI", data[4:12])
    if op == 1:  # UDP: not mapped here
        return struct.pack("!BBHIHHI", 0, 128 + op, NATPMP_REFUSED, mappings.epoch(), internal, 0, 0)
    if lifetime == 0:
        for ext in mappings.find(lambda m: m["method"] == "natpmp" and m["client"] == source and m["port"] == internal):
            mappings.delete("natpmp", ext)
        return struct.pack("!BBHIHHI", 0, 128 + op, 0, mappings.epoch(), internal, 0, 0)
    life = min(lifetime, mappings.lifetime_cap)
    ext = mappings.grant("natpmp", source, internal, suggested, life)
    return struct.pack("!BBHIHHI", 0, 128 + op, 0, mappings.epoch(), internal, ext, life)


def serve(mappings, sock, methods):
    """Answers on `sock` (bound to the LAN address's port 5351) in the protocols of `methods`. A
    NAT-PMP-only gateway answers PCP in version 0, "unsupported version" (RFC 6887 §9)."""
    while True:
        data, (source, port) = sock.recvfrom(1100)
        reply = None
        if data[:1] == b"\x02":
            if "pcp" in methods:
                reply = pcp(mappings, data, source)
            elif "natpmp" in methods:
                reply = struct.pack("!BBHI", 0, 0x80 | (data[1] & 0x7F), NATPMP_UNSUPPORTED_VERSION, mappings.epoch())
        elif data[:1] == b"\x00" and "natpmp" in methods:
            reply = natpmp(mappings, data, source)
        if reply:
            sock.sendto(reply, (source, port))
