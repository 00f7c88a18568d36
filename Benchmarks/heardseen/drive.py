"""The host driven over its mpv IPC socket at the script's times."""
import json
import socket
import time


def ipc(sock, command):
    s = socket.socket(socket.AF_UNIX)
    s.settimeout(5)
    s.connect(sock)
    s.sendall((json.dumps({"command": command, "request_id": 1}) + "\n").encode())
    buf = b""
    while True:
        chunk = s.recv(65536)
        if not chunk:
            return None
        buf += chunk
        for line in buf.split(b"\n"):
            try:
                msg = json.loads(line)
            except ValueError:
                continue
            if msg.get("request_id") == 1:
                s.close()
                return msg


def drive(sock, script, log):
    """SCRIPT: "play@1,pause@9,seek:30@16,rate:1.25@27,…" (seconds from now), as `tandem host --script`."""
    start = time.time()
    with open(log, "w") as out:
        for step in script.split(","):
            action, at = step.rsplit("@", 1)
            name, _, value = action.partition(":")
            delay = start + float(at) - time.time()
            if delay > 0:
                time.sleep(delay)
            command = {"play": ["set_property", "pause", False],
                       "pause": ["set_property", "pause", True],
                       "seek": ["seek", float(value or 0), "absolute"],
                       "rate": ["set_property", "speed", float(value or 1)],
                       "end": None}[name]
            sent = time.time()
            reply = ipc(sock, command) if command else {"error": "success"}
            out.write(json.dumps({"step": action, "at": float(at), "sent": sent, "answered": time.time(),
                                  "error": (reply or {}).get("error")}) + "\n")
            out.flush()
