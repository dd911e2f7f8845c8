"""Peak and RMS levels in dBFS, and clipping, over 16-bit PCM samples."""

from __future__ import annotations

import math
import operator
from array import array
from collections.abc import Sequence
from dataclasses import dataclass

FULL_SCALE = 32768.0
SILENT_DBFS = -120.0  # what digital silence reports instead of minus infinity
CLIP_LEVEL = 32767  # a sample at or beyond full scale (either sign) counts as clipped


def to_dbfs(amplitude: float) -> float:
    """An amplitude in sample units as dBFS; digital silence gives SILENT_DBFS."""
    if amplitude <= 0:
        return SILENT_DBFS
    return max(SILENT_DBFS, 20.0 * math.log10(amplitude / FULL_SCALE))


def sum_of_squares(samples: Sequence[int]) -> int:
    return sum(map(operator.mul, samples, samples))


def rms(samples: Sequence[int]) -> float:
    if not samples:
        return 0.0
    return math.sqrt(sum_of_squares(samples) / len(samples))


def peak(samples: Sequence[int]) -> int:
    if not samples:
        return 0
    return max(max(samples), -min(samples))


def clipped_count(samples: Sequence[int]) -> int:
    """Samples at full scale: a clipped input pins there."""
    if not samples or peak(samples) < CLIP_LEVEL:
        return 0  # max and min are a quarter of the cost of three counts (a 50 s take)
    return samples.count(CLIP_LEVEL) + samples.count(-CLIP_LEVEL - 1) + samples.count(-CLIP_LEVEL)


@dataclass(frozen=True)
class Levels:
    peak_dbfs: float
    rms_dbfs: float
    clipped_samples: int
    samples: int

    @property
    def clipped_fraction(self) -> float:
        return self.clipped_samples / self.samples if self.samples else 0.0


def measure(samples: array | Sequence[int]) -> Levels:
    return Levels(
        peak_dbfs=to_dbfs(peak(samples)),
        rms_dbfs=to_dbfs(rms(samples)),
        clipped_samples=clipped_count(samples),
        samples=len(samples),
    )


class LevelMeter:
    """Running peak, RMS and clipping over a stream (for a check that records N seconds)."""

    def __init__(self) -> None:
        self._peak = 0
        self._squares = 0
        self._count = 0
        self._clipped = 0

    def feed(self, samples: Sequence[int]) -> Levels:
        """Add a chunk to the running figures; returns the chunk's own levels (what
        :func:`measure` gives), so a caller showing both reads the samples once."""
        if not samples:
            return measure(samples)
        top, squares, clipped = peak(samples), sum_of_squares(samples), clipped_count(samples)
        self._peak = max(self._peak, top)
        self._squares += squares
        self._count += len(samples)
        self._clipped += clipped
        return Levels(
            to_dbfs(top), to_dbfs(math.sqrt(squares / len(samples))), clipped, len(samples)
        )

    def levels(self) -> Levels:
        mean = math.sqrt(self._squares / self._count) if self._count else 0.0
        return Levels(to_dbfs(self._peak), to_dbfs(mean), self._clipped, self._count)


FRAME_SECONDS = 0.02
NOISE_SHARE = 0.1  # the quietest tenth of the frames: the room, between words


def snr_db(samples: Sequence[int], rate: int) -> float | None:
    """The take's signal-to-noise ratio: speech power (the loudest half of its 20 ms frames,
    the room's power taken off) over the room's (the quietest tenth). None when too short."""
    step = max(1, int(rate * FRAME_SECONDS))
    powers = sorted(
        sum_of_squares(samples[i : i + step]) / step
        for i in range(0, len(samples) - step + 1, step)
    )
    if len(powers) < 20:
        return None
    quiet = powers[: max(1, int(len(powers) * NOISE_SHARE))]
    loud = powers[len(powers) // 2 :]
    noise = max(sum(quiet) / len(quiet), 1.0)
    speech = sum(loud) / len(loud) - noise
    if speech <= 0:
        return 0.0
    return 10 * math.log10(speech / noise)
