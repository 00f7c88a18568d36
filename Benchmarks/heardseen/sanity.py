"""Material for the method's own error."""

import numpy as np

from .common import RATE


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
