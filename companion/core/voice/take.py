"""A whole take: read a WAV file (through the bounded reader), then speaking time, long pauses and rate."""

from __future__ import annotations

import io
import wave
from array import array
from dataclasses import dataclass, field
from pathlib import Path

from companion.core.fileio import FileReadError, read_limited
from companion.core.voice.levels import Levels, measure
from companion.core.voice.pcm import to_int16_mono
from companion.core.voice.vad import Span, detect

MAX_SECONDS = 30 * 60  # a rehearsal is 60-90 s; half an hour is plenty
PAUSE_SECONDS = 2.0  # a gap longer than this is a pause worth reporting
MERGE_GAP = 0.5  # gaps shorter than this (between words and clauses) count as speaking


class WavError(ValueError):
    """A file that is not a WAV take we can read; the message is one line."""


CONVERT = "convert it with: sox in.wav -b 16 -r 16000 -c 1 out.wav"
# WAVE format tags (and WAVE_FORMAT_EXTENSIBLE's sub-format, its first two bytes)
_FORMATS = {1: "PCM", 2: "ADPCM", 3: "32-bit float", 6: "A-law", 7: "mu-law", 17: "IMA ADPCM",
            85: "MP3", 0xFFFE: "extensible"}  # fmt: skip
_STREAMED = 0x7FFF0000  # a data size this big (or 0) was written by a streaming writer


@dataclass(frozen=True)
class WavHeader:
    format: str  # "PCM", "32-bit float", "A-law", ... or "format 85"
    bits: int
    rate: int
    channels: int
    declared_bytes: int  # the data chunk's size as the header says
    data_bytes: int  # the data the file really holds (what a streaming writer left)
    data_at: int = 0  # where the sound starts in the file, bytes

    @property
    def truncated(self) -> bool:
        streamed = self.declared_bytes == 0 or self.declared_bytes >= _STREAMED
        return not streamed and self.data_bytes < self.declared_bytes

    def _seconds(self, size: int) -> float:
        frame = max(1, self.channels * max(1, self.bits // 8))
        return size / frame / self.rate if self.rate else 0.0

    @property
    def seconds(self) -> float:
        return self._seconds(self.data_bytes)

    @property
    def promised_seconds(self) -> float:
        return self._seconds(self.declared_bytes)

    def describe(self) -> str:
        kind = "PCM" if self.format == "PCM" else self.format
        what = f"{self.bits}-bit {kind}" if kind in ("PCM", "ADPCM") else kind
        channels = "mono" if self.channels == 1 else f"{self.channels} channels"
        return f"a {what} WAV ({self.rate} Hz, {channels}); a take must be 16-bit PCM"


def wav_header(raw: bytes) -> WavHeader | str:
    """The WAV file's format as its chunks say, or why it is not a WAV take (one line: with
    the sox line when another format might be converted, without when nothing is there)."""
    if not raw:
        return "the file is empty (0 bytes), not a WAV take"
    if raw[:4] != b"RIFF" or raw[8:12] != b"WAVE":
        if raw[:4] in (b"RIFX", b"RF64"):
            return f"a {raw[:4].decode()} WAV file; a take must be a 16-bit PCM RIFF WAV; {CONVERT}"
        shown = raw[:12].decode("latin-1").encode("unicode_escape").decode("ascii")
        return f"not a WAV file (it starts with {shown!r}, not 'RIFF....WAVE'); {CONVERT}"
    at, fmt, data = 12, None, None
    while at + 8 <= len(raw):
        tag, size = raw[at : at + 4], int.from_bytes(raw[at + 4 : at + 8], "little")
        if tag == b"fmt ":
            fmt = raw[at + 8 : at + 8 + size]
        elif tag == b"data":
            data = (size, len(raw) - at - 8, at + 8)
            break  # its size may be the streaming marker (0xFFFFFFFF): what is there is read
        left = len(raw) - at - 8
        if size > left:  # a LIST or fmt chunk that claims more than the file holds (4 GiB)
            name = tag.decode("latin-1").encode("unicode_escape").decode("ascii").strip()
            return (
                f"a damaged WAV file (or one cut off in its header): its {name!r} chunk at "
                f"byte {at:,} declares {size:,} bytes, but only {left:,} follow it"
            )
        at += 8 + size + (size & 1)
    if fmt is None or len(fmt) < 16:
        return "a WAV file without its format chunk (cut off in its header?)"
    if data is None:
        return "a WAV file without its sound (no data chunk: empty, or cut off in its header)"
    tag = int.from_bytes(fmt[0:2], "little")
    if tag == 0xFFFE and len(fmt) >= 26:
        tag = int.from_bytes(fmt[24:26], "little")  # the sub-format's GUID starts with it
    name = _FORMATS.get(tag, f"format {tag}")
    declared, present, data_at = data
    return WavHeader(
        name,
        int.from_bytes(fmt[14:16], "little"),
        int.from_bytes(fmt[4:8], "little"),
        max(1, int.from_bytes(fmt[2:4], "little")),
        declared,
        min(present, declared) if 0 < declared < _STREAMED else present,
        data_at,
    )


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
    WavError when it is not a readable file, empty, truncated, absurdly long, or not 16-bit
    PCM (the message names its real format and the sox line that converts it)."""

    path = Path(path)
    try:
        raw = read_limited(path, "take")
    except FileReadError as exc:
        raise WavError(str(exc)) from None
    header = wav_header(raw)
    if isinstance(header, str):
        raise WavError(f"{path}: {header}")
    if header.format != "PCM" or header.bits != 16:
        raise WavError(f"{path}: {header.describe()}; {CONVERT}")
    if not 8000 <= header.rate <= 192000:
        raise WavError(f"{path}: sample rate {header.rate} Hz is not an audio rate; {CONVERT}")
    if header.truncated:
        raise WavError(
            f"{path}: truncated: its header promises {header.promised_seconds:.1f} s of sound, "
            f"the file holds {header.seconds:.1f} s (was the recording cut off?)"
        )
    if header.seconds > max_seconds:
        raise WavError(f"{path}: {header.seconds:.0f} s is longer than {max_seconds:.0f} s")
    if header.data_bytes < header.channels * 2:
        raise WavError(f"{path}: the WAV file holds no sound (0 samples)")
    try:
        with wave.open(io.BytesIO(raw), "rb") as wav:
            channels = wav.getnchannels()
            rate = wav.getframerate()
    except (wave.Error, EOFError, RuntimeError) as exc:  # RuntimeError: a chunk past the end
        raise WavError(f"{path}: not a PCM WAV file ({exc or 'unreadable header'})") from None
    # the sound read in place, not copied out first (wave's readframes): a take at
    # 44.1 kHz is 5 MiB a minute, and each copy of it raised the command's peak
    frames = header.data_bytes // (2 * channels)
    with memoryview(raw) as view:
        samples = to_int16_mono(view[header.data_at : header.data_at + 2 * channels * frames],
                                "Int16", channels)  # fmt: skip
    del raw
    return Take(samples, rate)


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
