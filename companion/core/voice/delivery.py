"""The live delivery line while listening: the pace of the last half minute of speech
against the candidate's own calibrated rate, how long the current answer has run
("answering 2:30"), and one calm nudge when either runs far off, while answering.

Pace is recognized words over their speaking time (pauses over 2 s left out), so it
counts what was said, not the script. An answer starts at the first word after a silence
of ANSWER_GAP seconds (the question was being asked) and lasts while words keep coming.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.core.voice.recognizer import HeardWord
from companion.core.voice.take import PAUSE_SECONDS

PACE_WINDOW = 30.0  # seconds of the latest words the pace is measured over
PACE_MIN_WORDS = 20  # fewer words than this say nothing about pace
FAST, SLOW = 1.25, 0.70  # far off: this many times the calibrated rate
ANSWER_GAP = 5.0
ANSWER_LIMIT = 120.0  # a spoken answer past two minutes is long for any round


@dataclass(frozen=True)
class DeliveryLine:
    pace_wpm: float | None
    answer_seconds: float | None  # None: not answering now
    nudge: str  # "" when all is well

    @property
    def text(self) -> str:
        parts = []
        if self.pace_wpm is not None:
            parts.append(f"pace {self.pace_wpm:.0f} wpm")
        if self.answer_seconds is not None:
            minutes, seconds = divmod(int(self.answer_seconds), 60)
            parts.append(f"answering {minutes}:{seconds:02d}")
        return " · ".join(parts) or "listening"


def _mm_ss(seconds: float) -> str:
    minutes, rest = divmod(int(seconds), 60)
    return f"{minutes}:{rest:02d}"


def pace(words: list[HeardWord], window: float = PACE_WINDOW) -> float | None:
    """Words a minute over the latest ``window`` seconds of speech. The window ends at the
    last word, not at the clock: against the clock the figure kept moving once the talk
    stopped, as the start of the answer slid out of the window (a slow start gone, "Slow
    down" came up while the interviewer spoke)."""
    heard = [w for w in words if not w.filler]
    if not heard:
        return None
    recent = [w for w in heard if w.end >= heard[-1].end - window]
    if len(recent) < PACE_MIN_WORDS:
        return None
    speaking = recent[-1].end - recent[0].start
    for a, b in zip(recent, recent[1:]):
        if b.start - a.end > PAUSE_SECONDS:
            speaking -= b.start - a.end
    return len(recent) * 60.0 / speaking if speaking >= 8.0 else None


def answer_start(words: list[HeardWord], now: float, gap: float = ANSWER_GAP) -> float | None:
    """When the answer under way began, or None when the last word is ``gap`` old."""
    if not words or now - words[-1].end > gap:
        return None
    start = words[-1].start
    for a, b in zip(reversed(words[:-1]), reversed(words)):
        if b.start - a.end > gap:
            break
        start = a.start
    return start


def delivery_line(
    words: list[HeardWord],
    now: float,
    calibrated_wpm: float,
    answer_limit: float = ANSWER_LIMIT,
) -> DeliveryLine:
    rate = pace(words)
    began = answer_start(words, now)
    length = None if began is None else max(0.0, now - began)
    nudge = ""
    answering = length is not None  # a nudge is for the answer under way, none in silence
    if answering and length > answer_limit:
        nudge = f"Land it: answering {_mm_ss(length)}, over {_mm_ss(answer_limit)}"
    elif answering and rate is not None and rate > calibrated_wpm * FAST:
        nudge = f"Slow down: {rate:.0f} wpm, your rate is {calibrated_wpm:.0f}"
    elif answering and rate is not None and rate < calibrated_wpm * SLOW:
        nudge = f"Keep it moving: {rate:.0f} wpm, your rate is {calibrated_wpm:.0f}"
    return DeliveryLine(rate, length, nudge)
