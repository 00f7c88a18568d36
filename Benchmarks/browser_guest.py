#!/usr/bin/env python3
"""A browser guest for Benchmarks/heard-seen.sh's `browser` step (issue #26 part 6): Debian's Chromium,
headless, driven over WebDriver (chromedriver; plain HTTP, no Selenium), joins a party from its browser
link and stays until SIGTERM, writing the page's own state (window.tandem.state()) twice a second.
Its sound goes wherever PULSE_SERVER / PULSE_SINK in its environment say.

  browser_guest.py join LINK STATE.jsonl [NAME] [--window X,Y,W,H --picture FILE]
        join and stay; `ready` in STATE.jsonl once in sync. With --window: a window on $DISPLAY at X,Y of
        W×H (not headless), and once the page plays, the screen rectangle of its picture ("X Y W H") in FILE
  browser_guest.py self-skew STATE.jsonl          the page's own |error| while playing, for contrast
"""
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

CHROMIUM = "/usr/lib/chromium/chromium" if os.path.exists("/usr/lib/chromium/chromium") else "/usr/bin/chromium"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Driver:
    def __init__(self, window=None):
        self.port = free_port()
        self.profile = tempfile.mkdtemp(prefix="tandem-chromium-")
        env = dict(os.environ, HOME=self.profile)
        self.process = subprocess.Popen(["chromedriver", f"--port={self.port}"], stdout=subprocess.DEVNULL,
                                        stderr=subprocess.DEVNULL, env=env, start_new_session=True)
        for _ in range(200):
            try:
                self.call("GET", "/status")
                break
            except OSError:
                time.sleep(0.05)
        caps = {"capabilities": {"alwaysMatch": {
            "browserName": "chrome", "acceptInsecureCerts": True,
            "goog:chromeOptions": {"binary": CHROMIUM, "args": [
                "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--autoplay-policy=no-user-gesture-required", f"--user-data-dir={self.profile}/profile"]
                + (["--headless=new", "--window-size=1280,800"] if window is None else
                   [f"--window-position={window[0]},{window[1]}", f"--window-size={window[2]},{window[3]}"]),
                "prefs": {"session.restore_on_startup": 4, "session.startup_urls": ["about:blank"]}}}}}
        self.session = self.call("POST", "/session", caps)["sessionId"]

    def call(self, method, path, body=None):
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(f"http://127.0.0.1:{self.port}{path}", data=data, method=method,
                                         headers={"Content-Type": "application/json"})
        try:
            return json.load(urllib.request.urlopen(request, timeout=60))["value"]
        except urllib.error.HTTPError as e:
            value = json.load(e)["value"]
            raise RuntimeError(f"{path}: {value.get('error')}: {value.get('message', '')[:200]}")

    def s(self, method, path, body=None):
        return self.call(method, f"/session/{self.session}{path}", body)

    def element(self, css):
        return next(iter(self.s("POST", "/element", {"using": "css selector", "value": css}).values()))

    def script(self, text):
        return self.s("POST", "/execute/sync", {"script": text, "args": []})

    def quit(self):
        try:
            self.s("DELETE", "")
        except (OSError, RuntimeError):
            pass
        try:
            os.killpg(self.process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


# The screen rectangle of the video element's picture: the element's box less its letterbox (object-fit:
# contain), offset by the browser's own bars above the page (no window manager: no borders).
PICTURE = """
const v = document.querySelector("video"), r = v.getBoundingClientRect();
if (!v.videoWidth || v.paused) return null;
const scale = Math.min(r.width / v.videoWidth, r.height / v.videoHeight);
const w = v.videoWidth * scale, h = v.videoHeight * scale;
const top = window.screenY + window.outerHeight - window.innerHeight;
return [window.screenX + r.left + (r.width - w) / 2, top + r.top + (r.height - h) / 2, w, h].map(Math.round);
"""


def join(link, out, name="B", window=None, picture=None):
    stop = []
    signal.signal(signal.SIGTERM, lambda *_: stop.append(1))
    driver = Driver(window)
    try:
        driver.s("POST", "/url", {"url": link})
        driver.s("POST", f"/element/{driver.element('#name')}/value", {"text": name})
        driver.s("POST", f"/element/{driver.element('#join-button')}/click", {})
        with open(out, "w") as f:
            while not stop:
                state = driver.script("return window.tandem.state()")
                state["wall"] = time.time()
                if picture and state.get("ready"):
                    rect = driver.script(PICTURE)
                    if rect:
                        with open(picture + ".tmp", "w") as g:
                            g.write(" ".join(str(v) for v in rect) + "\n")
                        os.replace(picture + ".tmp", picture)
                        picture = None
                f.write(json.dumps(state) + "\n")
                f.flush()
                time.sleep(0.5)
    finally:
        driver.quit()


def self_skew(path):
    values = []
    with open(path) as f:
        for text in f:
            s = json.loads(text)
            if not s.get("paused") and s.get("errorMs") is not None and s.get("syncPhase") == "following":
                values.append(abs(s["errorMs"]))
    values.sort()
    pick = lambda p: values[max(0, -(-int(p * len(values) * 1000) // 1000) - 1)] if values else float("nan")
    last = json.loads(open(path).readlines()[-1]) if values else {}
    print(f"the page's own |error| while playing: p50 {pick(0.5):.3f} ms, p95 {pick(0.95):.3f} ms, "
          f"max {max(values) if values else float('nan'):.3f} ms ({len(values)} readings); "
          f"join to in sync (ready, |error| < 100 ms) {last.get('joinToReadyMs') or float('nan'):.0f} ms, "
          f"to |error| < 10 ms {last.get('joinToWithin10Ms') or float('nan'):.0f} ms; "
          f"stats {last.get('stats')}, learned landing {last.get('landingMs', 0):.1f} ms, rate-change steps (ms) {last.get('runStepMs')}")


if __name__ == "__main__":
    if len(sys.argv) >= 4 and sys.argv[1] == "join":
        args = sys.argv[4:]
        options = {}
        for flag in ("--window", "--picture"):
            if flag in args:
                i = args.index(flag)
                options[flag] = args[i + 1]
                args = args[:i] + args[i + 2:]
        window = [int(v) for v in options["--window"].split(",")] if "--window" in options else None
        join(sys.argv[2], sys.argv[3], *(args[:1]), window=window, picture=options.get("--picture"))
    elif len(sys.argv) == 3 and sys.argv[1] == "self-skew":
        self_skew(sys.argv[2])
    else:
        print(__doc__)
        sys.exit(2)
