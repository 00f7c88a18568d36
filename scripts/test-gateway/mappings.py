"""The test gateway's mappings: one table of them, each installed as a real nftables DNAT rule in the
router namespace, expiring at the end of its lifetime, all forgotten by a reboot."""
import ipaddress, subprocess, sys, threading, time

TABLE = "testgw"


class Mappings:
    def __init__(self, lan, external, wan_interface, hairpin, taken, lifetime_cap, reboot_takes_ports):
        self.lan, self.external, self.wan_interface, self.hairpin = lan, external, wan_interface, hairpin
        self.taken, self.lifetime_cap, self.reboot_takes_ports = set(taken), lifetime_cap, reboot_takes_ports
        self.lock = threading.Lock()
        self.table = {}  # external port -> dict(method, client, port, expires (None: permanent), nonce)
        self.started = time.monotonic()

    def say(self, line):
        """One event line on standard output, for the test that reads it."""
        with self.lock:
            sys.stdout.write(line + "\n")
            sys.stdout.flush()

    def epoch(self):
        """Seconds since the gateway's state began (PCP's and NAT-PMP's epoch)."""
        return int(time.monotonic() - self.started)

    @staticmethod
    def nft(script):
        subprocess.run(["nft", "-f", "-"], input=script.encode(), check=True)

    def install(self):
        """The gateway's own nftables table, made afresh (a restarted router has no mappings)."""
        subprocess.run(["nft", "delete", "table", "ip", TABLE], stderr=subprocess.DEVNULL)
        network = ipaddress.ip_interface(f"{self.lan}/24").network
        # Hairpin: a LAN host that dials the external address reaches the mapped host, its source
        # rewritten so the answers come back through the router.
        hairpin = f"ip saddr {network} ct status dnat masquerade" if self.hairpin else ""
        self.nft(f"""table ip {TABLE} {{
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

    def _sync(self):
        """Called with the lock held: the mappings chain holds one DNAT rule per mapping."""
        lines = [f"flush chain ip {TABLE} mappings"]
        for ext, m in sorted(self.table.items()):
            match = f"ip daddr {self.external}" if self.hairpin else f'iifname "{self.wan_interface}"'
            lines.append(f"add rule ip {TABLE} mappings {match} tcp dport {ext} dnat to {m['client']}:{m['port']}")
        self.nft("\n".join(lines) + "\n")

    def _expiry(self, lifetime):
        return None if lifetime == 0 else time.monotonic() + lifetime

    def grant(self, method, client, internal, suggested, lifetime, nonce=None):
        """Maps (or renews the same client's mapping) for `lifetime` s (0: permanent); the external port."""
        with self.lock:
            for ext, m in self.table.items():
                if m["client"] == client and m["port"] == internal and m["method"] == method and m.get("nonce") == nonce:
                    m["expires"] = self._expiry(lifetime)
                    event = "renew"
                    break
            else:
                ext = suggested if suggested else internal
                while ext in self.taken or ext in self.table:
                    ext = ext + 1 if ext < 65535 else 1024
                self.table[ext] = dict(method=method, client=client, port=internal, nonce=nonce, expires=self._expiry(lifetime))
                event = "map"
            self._sync()
        self.say(f"{event} {method} {ext} -> {client}:{internal} lifetime {lifetime}")
        return ext

    def add_upnp(self, ext, client, internal, lifetime):
        """UPnP's AddPortMapping: the port asked for or an error code (718: another machine's)."""
        with self.lock:
            holder = self.table.get(ext)
            if ext in self.taken or (holder is not None and (holder["client"] != client or holder["method"] != "upnp")):
                return 718
            if holder:
                holder.update(port=internal, expires=self._expiry(lifetime))
            else:
                self.table[ext] = dict(method="upnp", client=client, port=internal, nonce=None, expires=self._expiry(lifetime))
            self._sync()
        self.say(f"{'renew' if holder else 'map'} upnp {ext} -> {client}:{internal} lifetime {lifetime}")
        return 0

    def find(self, predicate):
        with self.lock:
            return [ext for ext, m in self.table.items() if predicate(m)]

    def delete(self, method, ext):
        with self.lock:
            if ext not in self.table:
                return False
            del self.table[ext]
            self._sync()
        self.say(f"delete {method} {ext}")
        return True

    def expire_forever(self):
        while True:
            time.sleep(0.2)
            now = time.monotonic()
            gone = []
            with self.lock:
                for ext, m in list(self.table.items()):
                    if m["expires"] is not None and m["expires"] < now:
                        gone.append((m["method"], ext))
                        del self.table[ext]
                if gone:
                    self._sync()
            for method, ext in gone:
                self.say(f"expire {method} {ext}")

    def reboot(self, *_):
        """As a router that restarted: every mapping and rule gone, the epoch back to 0."""
        with self.lock:
            if self.reboot_takes_ports:
                self.taken.update(self.table.keys())
            self.table.clear()
            self.started = time.monotonic()
            self._sync()
        self.say("reboot")
