"""Raw PCM from an audio device as 16-bit mono samples (the detector's input)."""

from __future__ import annotations

import sys
from array import array

# sample format names as the Qt side reports them (QAudioFormat.SampleFormat's names)
FORMATS = {"Int16": "h", "Int32": "i", "Float": "f", "UInt8": "B"}


def to_int16_mono(data: bytes, sample_format: str, channels: int) -> array:
    """Little-endian interleaved PCM in ``sample_format`` -> the first channel as int16."""
    code = FORMATS.get(sample_format)
    if code is None:
        raise ValueError(f"unsupported sample format {sample_format!r}")
    raw = array(code)
    usable = len(data) - len(data) % (raw.itemsize * max(1, channels))
    raw.frombytes(data[:usable])
    if sys.byteorder == "big" and raw.itemsize > 1:
        raw.byteswap()
    if channels > 1:
        raw = raw[0::channels]
    if code == "h":
        return raw
    if code == "i":
        return array("h", (x >> 16 for x in raw))
    if code == "B":
        return array("h", ((x - 128) << 8 for x in raw))
    return array("h", (int(max(-1.0, min(1.0, x)) * 32767) for x in raw))


def resample(samples: array, rate: int, to: int = 16000) -> array:
    """int16 samples at ``rate`` as int16 at ``to`` (linear interpolation; a box average
    first when shrinking by 2 or more, so the bands the recognizer ignores do not fold
    back into speech). Good enough for recognition, not for listening."""
    if rate == to or not samples:
        return array("h", samples)
    step = rate / to
    if step >= 2:
        width = int(step)
        src = [sum(samples[i : i + width]) // width for i in range(0, len(samples), width)]
        step /= width
    else:
        src = samples
    last = len(src) - 1
    out = array("h", bytes(2 * int(len(src) / step)))
    for i in range(len(out)):
        pos = i * step
        k = int(pos)
        frac = pos - k
        a = src[k]
        b = src[k + 1] if k < last else a
        out[i] = int(a + (b - a) * frac)
    return out
