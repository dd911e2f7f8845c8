"""Raw PCM from an audio device as 16-bit mono samples (the detector's input)."""

from __future__ import annotations

import sys
from array import array
from collections.abc import Iterator

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
    out = array("h")
    for piece in resampled(samples, rate, to):
        out.extend(piece)
    return out


def resampled(samples: array, rate: int, to: int = 16000, chunk: int = 1600) -> Iterator[array]:
    """:func:`resample`'s samples, ``chunk`` at a time: a whole take is never held twice
    (at 44.1 kHz a minute is 5 MiB, and `about rehearse` has 40 MiB in all)."""
    if rate == to:
        for i in range(0, len(samples), chunk):
            yield array("h", samples[i : i + chunk])
        return
    step = rate / to
    width = int(step) if step >= 2 else 1
    step /= width
    count = -(-len(samples) // width)  # source points after the box average
    total = int(count / step)
    last = count - 1
    for start in range(0, total, chunk):
        end = min(total, start + chunk)
        first = int(start * step)
        upto = min(last, int((end - 1) * step) + 1)
        if width == 1:
            src = samples[first : upto + 1].tolist()
        else:  # the box average (a partial last box over the full width, as always)
            block = samples[first * width : (upto + 1) * width]
            src = [sum(box) // width for box in zip(*(block[j::width] for j in range(width)))]
            if len(block) % width:
                src.append(sum(block[len(src) * width :]) // width)
        if upto == last:
            src.append(src[-1])  # the take's last point is held, not interpolated on
        points = [(pos, int(pos)) for pos in (i * step for i in range(start, end))]
        yield array(
            "h",
            [
                int(a + (src[k + 1 - first] - a) * (pos - k))
                for pos, k in points
                for a in (src[k - first],)
            ],
        )
