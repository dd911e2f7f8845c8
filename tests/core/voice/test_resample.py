"""Resampling a take for the recognizer, a chunk at a time: `about rehearse` fed the
recognizer from a second whole copy of the take (and, for a take at 44.1 or 48 kHz, a
list of Python ints as long as the take: 84 MiB for a 54 s take), so the chunks must be
the very samples the whole-take resampling gives."""

from __future__ import annotations

from array import array

from hypothesis import given
from hypothesis import strategies as st

from companion.core.voice.pcm import resample, resampled

RATES = (8000, 11025, 16000, 22050, 32000, 44100, 48000, 96000)


def _whole(samples: array, rate: int, to: int = 16000) -> array:
    """The rule, written out once over the whole take: a box average when shrinking by 2
    or more (a last partial box over the full width), then linear interpolation."""
    if rate == to or not samples:
        return array("h", samples)
    step = rate / to
    if step >= 2:
        width = int(step)
        src = [sum(samples[i : i + width]) // width for i in range(0, len(samples), width)]
        step /= width
    else:
        src = list(samples)
    out = array("h")
    for i in range(int(len(src) / step)):
        k = int(i * step)
        a, b = src[k], src[min(k + 1, len(src) - 1)]
        out.append(int(a + (b - a) * (i * step - k)))
    return out


@given(
    st.lists(st.integers(-32768, 32767), max_size=5000),
    st.sampled_from(RATES),
    st.sampled_from((1, 7, 160, 1600)),
)
def test_the_chunks_are_the_whole_takes_samples(values, rate, chunk):
    samples = array("h", values)
    pieces = list(resampled(samples, rate, 16000, chunk))
    assert all(len(p) == chunk for p in pieces[:-1])
    joined = array("h")
    for piece in pieces:
        joined.extend(piece)
    assert joined == _whole(samples, rate) == resample(samples, rate)


def test_a_long_take_at_a_recorders_rate_comes_out_at_16_khz():
    samples = array("h", [1000, -1000] * 44100)  # 2 s at 44.1 kHz
    out = resample(samples, 44100)
    assert len(out) == 32000
    assert set(out) == {0}  # the box average of each +/- pair: a tone above 8 kHz is gone
