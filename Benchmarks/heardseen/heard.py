"""Heard apart: left (member A) against right (member B) of one recording, in 0.5 s windows."""
import json
import math

import numpy as np

from .common import RATE, audio, commands, percentile


def fmt(x, digits=2):
    return "n/a" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{x:.{digits}f}"


def summarize(values):
    a = [abs(v) for v in values]
    return {"n": len(a), "p50": percentile(a, 0.5), "p95": percentile(a, 0.95), "max": max(a) if a else float("nan"),
            "signedP50": percentile(values, 0.5)}


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


IN_SYNC_MS = 5.0  # a joiner counts as heard in sync from its first window within this (issue 27's p95 goal)


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


def line(label, s, unit="ms"):
    return (f"| {label} | {s['n']} | {fmt(s['p50'], 3)} | {fmt(s['p95'], 3)} | {fmt(s['max'], 3)} | {fmt(s['signedP50'], 3)} |")


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
