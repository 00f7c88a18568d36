"""Lip sync: a flash (grab) against a click (sound) in one capture."""
import subprocess

import numpy as np

from .common import RATE, audio, percentile, video


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
