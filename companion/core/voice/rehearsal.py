"""A rehearsal take cut into segments by the Next presses: per segment the speaking
time, the pauses over 2 s and the rate (its words over its speaking time); the whole
take against 60-90 s; and keeping the take, only when asked, as a private WAV file."""

from __future__ import annotations

import datetime as dt
import io
import sys
import wave
from array import array
from dataclasses import dataclass
from pathlib import Path

from companion.core import paths
from companion.core.storage.files import atomic_write_bytes
from companion.core.voice.take import Pause, pauses_between, speaking_within
from companion.core.voice.vad import Span

TAKES_FOLDER = paths.TAKES_NAME


@dataclass(frozen=True)
class SegmentTake:
    id: str
    title: str
    start: float  # seconds into the take (the Next press before it)
    end: float
    speaking_seconds: float
    pauses: tuple[Pause, ...]
    words: int

    @property
    def wpm(self) -> float | None:
        if self.words <= 0 or self.speaking_seconds < 1.0:
            return None
        return self.words * 60.0 / self.speaking_seconds


def segment_takes(
    spans: list[Span] | tuple[Span, ...],
    marks: list[tuple[str, str, float]],
    end: float,
    words: dict[str, int],
) -> list[SegmentTake]:
    """``marks``: (segment id, title, start second) in order; ``end``: the take's end."""
    out = []
    for n, (seg_id, title, start) in enumerate(marks):
        stop = marks[n + 1][2] if n + 1 < len(marks) else end
        inside = [
            Span(max(s.start, start), min(s.end, stop))
            for s in spans
            if s.end > start and s.start < stop
        ]
        pauses = tuple(pauses_between(inside))
        out.append(
            SegmentTake(
                seg_id,
                title,
                start,
                stop,
                speaking_within(inside, start, stop),
                pauses,
                words.get(seg_id, 0),
            )
        )
    return out


def wav_bytes(samples: array, sample_rate: int) -> bytes:
    buffer = io.BytesIO()
    with wave.open(buffer, "wb") as wav:
        wav.setnchannels(1)
        wav.setsampwidth(2)
        wav.setframerate(sample_rate)
        data = array("h", samples)
        if sys.byteorder == "big":
            data.byteswap()
        wav.writeframes(data.tobytes())
    return buffer.getvalue()


def keep_take(
    samples: array,
    sample_rate: int,
    data_dir: Path,
    when: dt.datetime,
    transcript: str | None = None,
) -> Path:
    """Write the take as ``takes/rehearsal-YYYYmmdd-HHMMSS.wav`` (0600; the folder, and any
    missing parent, 0700 by the app's one folder rule), and what the recognizer heard
    beside it (the same name, ``.txt``) when given. Raises OSError, its message one line."""
    folder = Path(data_dir) / TAKES_FOLDER
    try:
        paths.ensure_private_dir(folder)
    except paths.DataDirError as exc:
        raise OSError(0, str(exc)) from None
    path = folder / f"rehearsal-{when:%Y%m%d-%H%M%S}.wav"
    n = 1
    while path.exists():
        n += 1
        path = folder / f"rehearsal-{when:%Y%m%d-%H%M%S}-{n}.wav"
    atomic_write_bytes(path, wav_bytes(samples, sample_rate), mode=0o600)
    if transcript:
        atomic_write_bytes(path.with_suffix(".txt"), transcript.encode("utf-8"), mode=0o600)
    return path
