"""A whole take: read a WAV file (through the bounded reader), then speaking time, long pauses and rate."""

from __future__ import annotations

import io
import wave
from array import array
from dataclasses import dataclass, field
from pathlib import Path

from companion.core.voice.levels import Levels, measure
from companion.core.voice.pcm import to_int16_mono
from companion.core.voice.vad import Span, detect

MAX_SECONDS = 30 * 60  # a rehearsal is 60-90 s; half an hour is plenty
PAUSE_SECONDS = 2.0  # a gap longer than this is a pause worth reporting
MERGE_GAP = 0.5  # gaps shorter than this (between words and clauses) count as speaking


class WavError(ValueError):
    """A file that is not a WAV take we can read; the message is one line."""


@dataclass(frozen=True)
class Take:
    samples: array
    sample_rate: int

    @property
    def seconds(self) -> float:
        return len(self.samples) / self.sample_rate if self.sample_rate else 0.0


def read_wav(path: Path, *, max_seconds: float = MAX_SECONDS) -> Take:
    """16-bit PCM WAV, mono (or the first channel of several), read through the bounded
    reader (a regular file, at most ``LIMITS["take"]`` bytes) and refused with a one-line
    WavError when it is not a readable file, not 16-bit PCM, or absurdly long."""
    from companion.core.fileio import FileReadError, read_limited

    path = Path(path)
    try:
        raw = read_limited(path, "take")
    except FileReadError as exc:
        raise WavError(str(exc)) from None
    try:
        with wave.open(io.BytesIO(raw), "rb") as wav:
            width = wav.getsampwidth()
            channels = wav.getnchannels()
            rate = wav.getframerate()
            frames = wav.getnframes()
            if width != 2:
                raise WavError(f"{path}: {8 * width}-bit samples; a take must be 16-bit PCM")
            if not 8000 <= rate <= 192000:
                raise WavError(f"{path}: sample rate {rate} Hz is not an audio rate")
            if frames / rate > max_seconds:
                raise WavError(f"{path}: {frames / rate:.0f} s is longer than {max_seconds:.0f} s")
            data = wav.readframes(frames)
    except WavError:
        raise
    except (wave.Error, EOFError, RuntimeError) as exc:  # RuntimeError: a chunk past the end
        raise WavError(f"{path}: not a PCM WAV file ({exc})") from None
    del raw
    return Take(to_int16_mono(data, "Int16", channels), rate)


@dataclass(frozen=True)
class Pause:
    start: float
    length: float


@dataclass(frozen=True)
class TakeAnalysis:
    seconds: float  # the whole recording
    spans: tuple[Span, ...]  # speech, with short gaps merged
    pauses: tuple[Pause, ...]  # gaps between speech longer than PAUSE_SECONDS
    levels: Levels
    words: int | None = None
    raw_spans: tuple[Span, ...] = field(default=(), repr=False)

    @property
    def speaking_seconds(self) -> float:
        return sum(s.length for s in self.spans)

    @property
    def first_word(self) -> float | None:
        return self.spans[0].start if self.spans else None

    @property
    def last_word(self) -> float | None:
        return self.spans[-1].end if self.spans else None

    @property
    def answer_seconds(self) -> float:
        """From the first word to the last, pauses included: what the listener sits through."""
        if not self.spans:
            return 0.0
        return self.spans[-1].end - self.spans[0].start

    @property
    def measured_wpm(self) -> float | None:
        if not self.words or self.speaking_seconds <= 0:
            return None
        return self.words * 60.0 / self.speaking_seconds


def merge(spans: list[Span], gap: float = MERGE_GAP) -> list[Span]:
    merged: list[Span] = []
    for span in spans:
        if merged and span.start - merged[-1].end < gap:
            merged[-1] = Span(merged[-1].start, span.end)
        else:
            merged.append(span)
    return merged


def pauses_between(spans: list[Span], longer_than: float = PAUSE_SECONDS) -> list[Pause]:
    return [
        Pause(a.end, b.start - a.end)
        for a, b in zip(spans, spans[1:])
        if b.start - a.end > longer_than
    ]


def analyse(take: Take, words: int | None = None) -> TakeAnalysis:
    raw = detect(take.samples, take.sample_rate)
    spans = merge(raw)
    return TakeAnalysis(
        seconds=take.seconds,
        spans=tuple(spans),
        pauses=tuple(pauses_between(spans)),
        levels=measure(take.samples),
        words=words,
        raw_spans=tuple(raw),
    )


def speaking_within(spans: tuple[Span, ...] | list[Span], start: float, end: float) -> float:
    """Seconds of speech between two marks (a segment of a rehearsal, cut by Next)."""
    total = 0.0
    for span in spans:
        total += max(0.0, min(span.end, end) - max(span.start, start))
    return total
