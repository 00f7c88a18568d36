"""Seen apart: two bar-coded windows in one grab."""

import numpy as np

from .common import commands, percentile, video


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
    # each window on its own: how its number moves from one grab to the next (about a clip frame apart:
    # at 60 fps steps of 0 are a picture shown twice, ≥ 2 a picture never shown; at the default 61, one
    # grab in 61 sees a picture twice anyway)
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
