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
