"""What every step reads: captures through ffmpeg/ffprobe, the host's command log, percentiles."""
import json
import math
import subprocess

import numpy as np


RATE = 48000


def percentile(values, p):
    v = sorted(values)
    if not v:
        return float("nan")
    return v[max(0, math.ceil(p * len(v)) - 1)]


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


