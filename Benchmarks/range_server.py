"""A static file server with byte ranges, for benchmarks that need one on loopback (Python's
http.server alone answers every Range with the whole file, and a player cannot seek through it).

Usage: python3 Benchmarks/range_server.py PORT ROOT
"""
import http.server
import os
import re
import sys


class RangeHandler(http.server.SimpleHTTPRequestHandler):
    def send_head(self):
        match = re.fullmatch(r"bytes=(\d+)-(\d*)", self.headers.get("Range", ""))
        path = self.translate_path(self.path)
        self.remaining = None
        if not match or not os.path.isfile(path):
            return super().send_head()
        size = os.path.getsize(path)
        start = int(match[1])
        end = min(int(match[2]) if match[2] else size - 1, size - 1)
        if start >= size:
            self.send_error(416)
            return None
        source = open(path, "rb")
        source.seek(start)
        self.send_response(206)
        self.send_header("Content-Type", self.guess_type(path))
        self.send_header("Content-Range", f"bytes {start}-{end}/{size}")
        self.send_header("Content-Length", str(end - start + 1))
        self.send_header("Accept-Ranges", "bytes")
        self.end_headers()
        self.remaining = end - start + 1
        return source

    def copyfile(self, source, outputfile):
        left = self.remaining
        while left is None or left > 0:
            chunk = source.read(65536 if left is None else min(65536, left))
            if not chunk:
                break
            try:
                outputfile.write(chunk)
            except (BrokenPipeError, ConnectionResetError):
                return  # the player closed: it had what it wanted
            if left is not None:
                left -= len(chunk)

    def log_message(self, *args):
        pass

    def handle(self):
        try:
            super().handle()
        except (BrokenPipeError, ConnectionResetError):
            pass


if __name__ == "__main__":
    port, root = int(sys.argv[1]), sys.argv[2]
    handler = lambda *a, **k: RangeHandler(*a, directory=root, **k)
    http.server.ThreadingHTTPServer(("127.0.0.1", port), handler).serve_forever()
