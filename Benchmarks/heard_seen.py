#!/usr/bin/env python3
"""Analysis and driving for Benchmarks/heard-seen.sh (issue #24 part 5): what two party members are
heard and seen to do, measured from a sound server's recording and from screen grabs, not from the
players' own clocks. numpy only; reads captures through ffmpeg/ffprobe.

  heard_seen.py drive SOCKET SCRIPT LOG        host commands over mpv IPC at their times; logs wall instants
  heard_seen.py heard REC.nut COMMANDS [--tsv OUT]     left (member A) against right (member B), 0.5 s windows
  heard_seen.py seen GRAB.nut GEOMETRY COMMANDS [--tsv OUT]   two bar-coded windows in one grab
  heard_seen.py lipsync CAPTURE.nut [--label L]  flash (grab) against click (sound) in one capture
  heard_seen.py shifted-wav OUT SECONDS SHIFT_MS  pink-ish noise, right = left delayed by SHIFT_MS (sanity)
  heard_seen.py self-skew A.out B.out…          the members' own --json skew while playing, for contrast
  heard_seen.py underruns PULSE.log STARTED [COMMANDS]   each stream's underruns in the server's debug log

Percentiles are nearest rank, as everywhere in BENCHMARKS.md: sorted[ceil(p*n) - 1].
"""
import json
import math
import socket
import subprocess
import sys
import time

import numpy as np

RATE = 48000


def percentile(values, p):
    v = sorted(values)
    if not v:
        return float("nan")
    return v[max(0, math.ceil(p * len(v)) - 1)]


def fmt(x, digits=2):
    return "n/a" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{x:.{digits}f}"


# ---------------------------------------------------------------- captures

def packets(path, stream):
    """(pts seconds, duration seconds) of each packet of one stream of a capture (wall-clock pts, -copyts)."""
    out = subprocess.run(["ffprobe", "-v", "error", "-select_streams", stream, "-show_entries",
                          "packet=pts_time,duration_time", "-of", "csv=p=0", path],
                         check=True, capture_output=True, text=True).stdout
    rows = []
    for line in out.splitlines():
        parts = line.strip().strip(",").split(",")
        if parts and parts[0] not in ("", "N/A"):
            rows.append((float(parts[0]), float(parts[1]) if len(parts) > 1 and parts[1] not in ("", "N/A") else 0.0))
    return rows


def audio(path):
    """Stereo float samples of the capture's audio stream and the wall instant of each sample.
    Each sample is placed from its own packet's pts (the pulse input stamps every packet from the
    server's latency report), so a lost packet or a clock step cannot shift what follows."""
    raw = subprocess.run(["ffmpeg", "-v", "error", "-i", path, "-map", "0:a:0", "-f", "f32le", "-acodec", "pcm_f32le", "-"],
                         check=True, capture_output=True).stdout
    x = np.frombuffer(raw, dtype="<f4").reshape(-1, 2).astype(np.float64)
    pk = packets(path, "a:0")
    t = np.empty(len(x))
    i = 0
    for pts, dur in pk:
        n = int(round(dur * RATE))
        if i >= len(x):
            break
        n = min(n, len(x) - i)
        t[i:i + n] = pts + np.arange(n) / RATE
        i += n
    if i < len(x):  # durations missing: continue from the last packet
        t[i:] = (t[i - 1] if i else pk[0][0]) + np.arange(1, len(x) - i + 1) / RATE
    return x, t


def video(path, width, height, stream="v:0"):
    """Gray frames (n, h, w) of a capture's video stream and each frame's wall pts."""
    raw = subprocess.run(["ffmpeg", "-v", "error", "-i", path, "-map", "0:" + stream, "-f", "rawvideo", "-pix_fmt", "gray",
                          "-vsync", "passthrough", "-"], check=True, capture_output=True).stdout
    frames = np.frombuffer(raw, dtype=np.uint8).reshape(-1, height, width)
    pts = np.array([p for p, _ in packets(path, stream)])
    n = min(len(frames), len(pts))
    return frames[:n], pts[:n]


def commands(path):
    """The commands sent (and a member's join, logged as a step "join NAME"), in the order sent."""
    with open(path) as f:
        return sorted((json.loads(line) for line in f if line.strip()), key=lambda c: c["sent"])


IN_SYNC_MS = 5.0  # a joiner counts as heard in sync from its first window within this (issue 27's p95 goal)


# ---------------------------------------------------------------- drive

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


# ---------------------------------------------------------------- heard

def lag_windows(x, t, window=0.5, max_lag=0.3, silence_db=-50.0, min_r=0.3):
    """Lag of the right channel behind the left in consecutive windows: for each window of the left,
    the cross-correlation (FFT) against the right over ±max_lag, its peak refined by a parabola
    through the three samples around it. Positive: right (member B) heard later than left (A)."""
    n = int(window * RATE)
    m = int(max_lag * RATE)
    size = 1 << int(math.ceil(math.log2(n + 2 * m + n)))
    left, right = x[:, 0], x[:, 1]
    floor = 10 ** (silence_db / 20)
    rows = []
    for s in range(m, len(left) - n - m, n):
        a = left[s:s + n]
        b = right[s - m:s + n + m]
        ra, rb = np.sqrt(np.mean(a * a)), np.sqrt(np.mean(right[s:s + n] ** 2))
        row = {"t": float(t[s]), "rmsA": float(ra), "rmsB": float(rb)}
        if ra < floor or rb < floor:
            row["skip"] = "silent"
            rows.append(row)
            continue
        a0 = a - a.mean()
        b0 = b - b.mean()
        c = np.fft.irfft(np.conj(np.fft.rfft(a0, size)) * np.fft.rfft(b0, size), size)[:2 * m + 1]
        k = int(np.argmax(c))
        if 0 < k < 2 * m:
            y0, y1, y2 = c[k - 1], c[k], c[k + 1]
            den = y0 - 2 * y1 + y2
            d = 0.5 * (y0 - y2) / den if den != 0 else 0.0
        else:
            d = 0.0
        seg = b0[k:k + n]
        r = float(c[k] / math.sqrt(float(np.dot(a0, a0)) * float(np.dot(seg, seg)) + 1e-30))
        row.update(lagMs=(k + d - m) / RATE * 1000, r=r)
        if r < min_r:
            row["skip"] = "uncorrelated"
        if k in (0, 2 * m):
            row["skip"] = "out of range"
        rows.append(row)
    return rows


def summarize(values):
    a = [abs(v) for v in values]
    return {"n": len(a), "p50": percentile(a, 0.5), "p95": percentile(a, 0.95), "max": max(a) if a else float("nan"),
            "signedP50": percentile(values, 0.5)}


def line(label, s, unit="ms"):
    return (f"| {label} | {s['n']} | {fmt(s['p50'], 3)} | {fmt(s['p95'], 3)} | {fmt(s['max'], 3)} | {fmt(s['signedP50'], 3)} |")


AFTER = 4.0  # seconds after a command's sending that count as "around" it (lead ≤ 0.25 s, then settling)


def command_spans(cmds):
    """(command, from, to) wall instants of the windows that count as around each command: from 0.5 s
    before it is sent (a window starting then overlaps its instant) for AFTER s, or until the next
    command's span begins. `end` is no command."""
    real = [c for c in cmds if c["step"] != "end"]
    spans = []
    for i, c in enumerate(real):
        lo = c["sent"] - 0.5
        hi = c["sent"] + AFTER
        if i + 1 < len(real):
            hi = min(hi, real[i + 1]["sent"] - 0.5)
        spans.append((c, lo, hi))
    return spans


def heard(path, command_log, tsv=None):
    x, t = audio(path)
    rows = lag_windows(x, t)
    cmds = commands(command_log) if command_log else []
    spans = command_spans(cmds)
    for r in rows:
        r["around"] = next((c["step"] for c, lo, hi in spans if lo <= r["t"] < hi), None)
    if tsv:
        with open(tsv, "w") as f:
            f.write("wall\tlag_ms\tr\trms_a\trms_b\taround\tskip\n")
            for r in rows:
                f.write(f"{r['t']:.3f}\t{fmt(r.get('lagMs'), 4)}\t{fmt(r.get('r'), 3)}\t{r['rmsA']:.4f}\t{r['rmsB']:.4f}\t"
                        f"{r['around'] or ''}\t{r.get('skip', '')}\n")
    good = [r for r in rows if "skip" not in r]
    skipped = {}
    for r in rows:
        if "skip" in r:
            skipped[r["skip"]] = skipped.get(r["skip"], 0) + 1
    print(f"heard apart: {len(rows)} windows of 0.5 s, {len(good)} measured, skipped {skipped or 'none'}")
    print("lag = B's sound behind A's, |lag| in ms (signed p50: + means B later)")
    print("| windows | n | p50 | p95 | max | signed p50 |")
    print("|---|---|---|---|---|---|")
    print(line("all", summarize([r["lagMs"] for r in good])))
    print(line("steady (4 s or more after a command)", summarize([r["lagMs"] for r in good if r["around"] is None])))
    t0 = cmds[0]["sent"] if cmds else (rows[0]["t"] if rows else 0)
    for c, lo, hi in spans:
        sel = [r["lagMs"] for r in good if lo <= r["t"] < hi]
        print(line(f"{c['step']}@{c.get('at', c['sent'] - t0):g} (next {hi - c['sent']:.1f} s)", summarize(sel)))
    for c in cmds:
        if not c["step"].startswith("join"):
            continue
        first = next((r for r in good if r["t"] >= c["sent"] and abs(r["lagMs"]) <= IN_SYNC_MS), None)
        after = [r["lagMs"] for r in good if first and r["t"] >= first["t"]]
        print(f"{c['step']}: heard in sync (|lag| ≤ {IN_SYNC_MS:g} ms) "
              + (f"{first['t'] - c['sent']:.2f} s after joining (the window starting then)" if first else "never")
              + (f"; from then on (n {len(after)}) |lag| p50 {fmt(summarize(after)['p50'], 3)}, p95 {fmt(summarize(after)['p95'], 3)}, "
                 f"max {fmt(summarize(after)['max'], 3)} ms" if after else ""))
    result = {"all": summarize([r["lagMs"] for r in good]), "windows": len(rows), "measured": len(good)}
    return result


def self_skew(paths):
    """What the members said about themselves meanwhile: |skewMs| of their once-a-second `--json`
    status lines while playing (their clock against the party's, which is all IPC and status show)."""
    for path in paths:
        vals = []
        with open(path) as f:
            for text in f:
                try:
                    ev = json.loads(text)
                except ValueError:
                    continue
                if ev.get("event") == "status" and ev.get("playing") and ev.get("skewMs") is not None:
                    vals.append(abs(float(ev["skewMs"])))
        name = path.rsplit("/", 1)[-1].split(".")[0]
        print(f"member {name}'s own status while playing: |skewMs| p50 {fmt(percentile(vals, 0.5), 3)}, "
              f"p95 {fmt(percentile(vals, 0.95), 3)}, max {fmt(max(vals) if vals else float('nan'), 3)} ({len(vals)} lines)")


def underruns(log, started, command_log):
    """Each member stream's underruns in the sound server's debug log (`--log-time`: seconds from its
    start, STARTED a wall instant taken just before it), on the host script's timeline."""
    import re
    cmds = commands(command_log) if command_log else []
    origin = cmds[0]["sent"] - cmds[0].get("at", 0) if cmds else float(started)
    seen_at = {}
    pattern = re.compile(r"^\(\s*([\d.]+)\|.*(?:Implicit underrun of|Underrun on) '([^']+)'")
    with open(log, errors="replace") as f:
        for text in f:
            m = pattern.match(text)
            if m:
                seen_at.setdefault(m.group(2), []).append(float(started) + float(m.group(1)) - origin)
    if not seen_at:
        print("sound server: no underrun logged (or its log is not at debug level)")
    for name, times in sorted(seen_at.items()):
        during = [t for t in times if t >= 0]
        shown = ", ".join(f"{t:.1f}" for t in during[:12]) + (" …" if len(during) > 12 else "")
        print(f"sound server: '{name}' ran dry {len(during)} times during the script (at s: {shown or '-'}), "
              f"{len(times) - len(during)} before it")


# ---------------------------------------------------------------- seen

BITS = 16


def read_code(img, x0, w, h):
    """The frame number in a window's bar code: BITS cells across the middle third of the window (the
    grab, of height h / 3), bit b in the upper row, its complement in the row below. None when any cell is unclear or the rows disagree
    (a window caught mid-update, an overlay over the code)."""
    bar = h / 3.0  # the clip's code is rows 120–239 of 360
    value = 0
    for b in range(BITS):
        cx = int(x0 + (b + 0.5) * w / BITS)
        # the cell's middle half, averaged
        hw = max(1, int(w / BITS / 4))
        top = img[int(bar * 0.15):int(bar * 0.35), cx - hw:cx + hw].mean()
        bottom = img[int(bar * 0.65):int(bar * 0.85), cx - hw:cx + hw].mean()
        if abs(top - 128) < 60 or abs(bottom - 128) < 60 or (top > 128) == (bottom > 128):
            return None
        if top > 128:
            value |= 1 << b
    return value


def seen(path, geometry, command_log, tsv=None, settle=3.0):
    """GEOMETRY: "GRABW GRABH AX AW BX BW" of the (scaled) grab: both windows' code strips side by side."""
    gw, gh, ax, aw, bx, bw = (int(v) for v in geometry.split())
    frames, pts = video(path, gw, gh)
    cmds = commands(command_log) if command_log else []
    rows = []
    for img, p in zip(frames, pts):
        a = read_code(img, ax, aw, gh * 3)
        b = read_code(img, bx, bw, gh * 3)
        since = min([p - c["sent"] for c in cmds if p >= c["sent"]], default=-1.0 if cmds else float("inf"))
        rows.append((p, a, b, since))
    if tsv:
        with open(tsv, "w") as f:
            f.write("wall\tframe_a\tframe_b\tdiff\tsince_command\n")
            for p, a, b, since in rows:
                d = "" if a is None or b is None else a - b
                f.write(f"{p:.4f}\t{'' if a is None else a}\t{'' if b is None else b}\t{d}\t{since:.2f}\n")
    read = [(p, a, b, s) for p, a, b, s in rows if a is not None and b is not None]
    moving = []  # settled: both codes advancing (playing), and SETTLE s after any command
    for i in range(1, len(read)):
        p, a, b, s = read[i]
        _, pa, pb, _ = read[i - 1]
        if s >= settle and (a != pa or b != pb):
            moving.append(a - b)
    unread = len(rows) - len(read)
    print(f"seen apart: {len(rows)} grabs, {unread} with a code unread in a window (mid-update or covered), "
          f"{len(moving)} settled while playing (≥ {settle:g} s after a command)")
    if not moving:
        return {}
    d = np.array(moving, dtype=float)
    ad = np.abs(d)
    span = (read[-1][0] - read[0][0]) if read else 0
    fps = len(rows) / span if span > 0 else float("nan")
    print(f"grab rate {fps:.1f} /s; frame difference A − B in clip frames (1/60 s):")
    print("| grabs | mean A−B | mean \\|A−B\\| | p95 \\|A−B\\| | max \\|A−B\\| | share ≥ 2 frames | share ≥ 1 frame |")
    print("|---|---|---|---|---|---|---|")
    print(f"| {len(d)} | {d.mean():+.3f} | {ad.mean():.3f} | {percentile(list(ad), 0.95):.0f} | {ad.max():.0f} | "
          f"{(ad >= 2).mean() * 100:.2f} % | {(ad >= 1).mean() * 100:.1f} % |")
    # each window on its own: how its number moves from one grab to the next (1/60 s apart, like the
    # clip's frames): steps of 0 are a picture shown twice, ≥ 2 a picture never shown
    for label, k in (("A", 1), ("B", 2)):
        steps = [read[i][k] - read[i - 1][k] for i in range(1, len(read)) if read[i][3] >= settle and read[i - 1][3] >= settle]
        steps = [x for x in steps if 0 <= x <= 10]
        if steps:
            st = np.array(steps)
            print(f"window {label}: grab-to-grab step 1 in {(st == 1).mean() * 100:.1f} %, 0 in {(st == 0).mean() * 100:.1f} %, "
                  f"≥ 2 in {(st >= 2).mean() * 100:.1f} % of {len(st)}")
    # 2 s spans: where one window sat behind the other for a while (issue #24: 0.5–0.9 frame over 2 s)
    spans = {}
    for p, a, b, s in read:
        if s >= settle:
            spans.setdefault(int((p - read[0][0]) // 2), []).append(a - b)
    means = [np.mean(v) for v in spans.values() if len(v) >= 30]
    if means:
        print(f"2 s spans: {len(means)}, mean A−B per span from {min(means):+.2f} to {max(means):+.2f} frames "
              f"(p95 |span mean| {percentile([abs(m) for m in means], 0.95):.2f})")
    return {"mean": float(d.mean()), "meanAbs": float(ad.mean()), "max": float(ad.max()), "ge2": float((ad >= 2).mean())}


# ---------------------------------------------------------------- lip sync

def onsets_video(frames, pts, threshold=128):
    """Instants the picture turns bright: midway between the last dark grab and the first bright one."""
    level = frames.reshape(len(frames), -1).mean(axis=1)
    out = []
    for i in range(1, len(level)):
        if level[i] >= threshold > level[i - 1]:
            out.append(((pts[i - 1] + pts[i]) / 2, (pts[i] - pts[i - 1]) / 2))
    return out


def onsets_audio(x, t, threshold=0.1, quiet=0.3):
    """Instants a click starts: the first sample over threshold after QUIET s below it, refined to the
    threshold's crossing between two samples."""
    mono = np.abs(x).max(axis=1)
    idx = np.flatnonzero(mono >= threshold)
    out = []
    last = -10 ** 9
    for i in idx:
        if i - last > quiet * RATE and i > 0:
            f = (threshold - mono[i - 1]) / (mono[i] - mono[i - 1]) if mono[i] != mono[i - 1] else 0.0
            out.append(t[i - 1] + f * (t[i] - t[i - 1]))
        last = i
    return out


def lipsync(path, label="", skip=1.5):
    # the grab is a small square of the window's middle
    info = subprocess.run(["ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries", "stream=width,height",
                           "-of", "csv=p=0", path], check=True, capture_output=True, text=True).stdout.split(",")
    w, h = int(info[0]), int(info[1])
    frames, pts = video(path, w, h)
    x, t = audio(path)
    flashes = onsets_video(frames, pts)
    clicks = onsets_audio(x, t)
    if not flashes or not clicks:
        print(f"lip sync {label}: {len(flashes)} flashes, {len(clicks)} clicks seen: nothing to pair")
        return {}
    start = min(flashes[0][0], clicks[0])
    offsets = []
    ca = np.array(clicks)
    for f, half in flashes:
        if f - start < skip:  # the first flash or two: the player starting
            continue
        j = int(np.argmin(np.abs(ca - f)))
        if abs(ca[j] - f) < 0.45:
            offsets.append((ca[j] - f) * 1000)
    grab_step = float(np.median(np.diff(pts))) * 1000 if len(pts) > 1 else float("nan")
    if not offsets:
        print(f"lip sync {label}: no flash with a click within 450 ms")
        return {}
    o = np.array(offsets)
    print(f"| {label} | {len(o)} | {percentile(list(o), 0.5):+.1f} | {o.mean():+.1f} | "
          f"{percentile(list(np.abs(o)), 0.95):.1f} | {np.abs(o).max():.1f} | {o.min():+.1f} … {o.max():+.1f} | {grab_step:.1f} |")
    return {"p50": percentile(list(o), 0.5), "max": float(np.abs(o).max())}


def lipsync_header():
    print("audio − video per flash, ms (+: the click is heard after the flash is seen)")
    print("| player, output | flashes | p50 | mean | p95 \\|·\\| | max \\|·\\| | range | grab step ms |")
    print("|---|---|---|---|---|---|---|---|")


# ---------------------------------------------------------------- sanity material

def shifted_wav(out, seconds, shift_ms):
    """Stereo 48 kHz float WAV: pink-ish noise on the left, the same delayed by SHIFT_MS (any fraction of
    a sample, by a phase shift) on the right. Played into the recording sink, the method must read SHIFT_MS."""
    import wave
    rng = np.random.default_rng(7)
    n = int(seconds * RATE)
    white = rng.standard_normal(n)
    spec = np.fft.rfft(white)
    f = np.fft.rfftfreq(n, 1 / RATE)
    spec[1:] /= np.sqrt(f[1:] / f[1])  # 1/f power
    spec[0] = 0
    left = np.fft.irfft(spec, n)
    right = np.fft.irfft(spec * np.exp(-2j * np.pi * f * shift_ms / 1000), n)
    scale = 0.25 / np.sqrt(np.mean(left ** 2)) / 4
    pcm = (np.stack([left, right], axis=1) * scale * 32767).clip(-32767, 32767).astype("<i2")
    with wave.open(out, "wb") as w:
        w.setnchannels(2)
        w.setsampwidth(2)
        w.setframerate(RATE)
        w.writeframes(pcm.tobytes())


def main(argv):
    if not argv:
        print(__doc__)
        return 2
    cmd, args = argv[0], argv[1:]
    tsv = None
    if "--tsv" in args:
        i = args.index("--tsv")
        tsv = args[i + 1]
        args = args[:i] + args[i + 2:]
    if cmd == "drive":
        drive(*args)
    elif cmd == "heard":
        heard(args[0], args[1] if len(args) > 1 and args[1] != "-" else None, tsv)
    elif cmd == "seen":
        seen(args[0], args[1], args[2] if len(args) > 2 and args[2] != "-" else None, tsv)
    elif cmd == "underruns":
        underruns(args[0], args[1], args[2] if len(args) > 2 else None)
    elif cmd == "self-skew":
        self_skew(args)
    elif cmd == "lipsync-header":
        lipsync_header()
    elif cmd == "lipsync":
        label = args[args.index("--label") + 1] if "--label" in args else ""
        lipsync(args[0], label)
    elif cmd == "shifted-wav":
        shifted_wav(args[0], float(args[1]), float(args[2]))
    else:
        print(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
