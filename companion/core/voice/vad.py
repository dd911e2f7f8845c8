"""A voice-activity detector over 16-bit PCM mono: frame energy against an adaptive
noise floor, with a minimum speech length, a hangover and audio-clock timestamps.

The floor is the lowest frame energy of the last few seconds (minimum statistics, kept
as per-block minima so each frame costs O(1)); a frame is voiced when its energy is
``margin_db`` above that floor and above an absolute gate. Speech starts after
``min_speech`` seconds of voiced frames (the span is dated from the first of them) and
ends once ``hangover`` seconds passed without one (dated from the last voiced frame).
All times are seconds of audio fed so far, so a test can drive the clock with samples.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass

from companion.core.voice.levels import FULL_SCALE, sum_of_squares

FRAME_SECONDS = 0.010
MARGIN_DB = 10.0  # a voiced frame is this far above the noise floor
GATE_DBFS = -55.0  # and louder than this, whatever the floor
MIN_SPEECH = 0.05  # voiced this long before speech is believed (clicks are shorter)
HANGOVER = 0.30  # unvoiced this long before speech is over (gaps between words)
FLOOR_BLOCK = 0.25  # the floor is the minimum over FLOOR_BLOCKS blocks of this length
FLOOR_BLOCKS = 16  # 4 seconds


@dataclass(frozen=True)
class Span:
    """A stretch of speech, in seconds of audio."""

    start: float
    end: float

    @property
    def length(self) -> float:
        return self.end - self.start


@dataclass(frozen=True)
class Event:
    kind: str  # "start" or "end"
    time: float


class VoiceActivityDetector:
    """Feed it samples in any chunk size; it keeps the framing and the audio clock."""

    def __init__(
        self,
        sample_rate: int,
        *,
        margin_db: float = MARGIN_DB,
        gate_dbfs: float = GATE_DBFS,
        min_speech: float = MIN_SPEECH,
        hangover: float = HANGOVER,
    ) -> None:
        if sample_rate < 1000:
            raise ValueError(f"sample rate {sample_rate} Hz is too low for speech")
        self.sample_rate = sample_rate
        self.frame_len = max(1, round(sample_rate * FRAME_SECONDS))
        self._frame_s = self.frame_len / sample_rate
        self.margin_db = margin_db
        # compare sums of squares, not decibels: no log per frame
        self._gate_power = self._power(gate_dbfs)
        self._margin_ratio = 10 ** (margin_db / 10)
        self._min_speech_frames = max(1, round(min_speech / self._frame_s))
        self._hangover_frames = max(1, round(hangover / self._frame_s))
        self._block_frames = max(1, round(FLOOR_BLOCK / self._frame_s))
        self._quiet_room = self._gate_power / self._margin_ratio
        self._blocks: deque[float] = deque(maxlen=FLOOR_BLOCKS)
        self._block_min = math.inf
        self._block_count = 0
        self._history_min = math.inf
        self._pending: list[int] = []
        self._frames = 0  # frames analysed so far: the audio clock
        self._run = 0  # consecutive voiced frames while not speaking
        self._since_voiced = 0  # unvoiced frames since the last voiced one, while speaking
        self._speaking = False
        self._span_start = 0
        self._last_voiced_end = 0  # frame index just after the last confirmed-voiced frame
        self._heard = False
        self.spans: list[Span] = []
        self.voiced_frames = 0

    def _power(self, dbfs: float) -> float:
        """Sum of squares of one frame at a steady level of ``dbfs``."""
        return self.frame_len * (FULL_SCALE * 10 ** (dbfs / 20)) ** 2

    # -- the clock and the state -------------------------------------------------------

    @property
    def now(self) -> float:
        return self._frames * self._frame_s

    @property
    def speaking(self) -> bool:
        return self._speaking

    @property
    def heard_speech(self) -> bool:
        return self._heard

    @property
    def silence_seconds(self) -> float:
        """Seconds since the last voiced frame of confirmed speech (or since the start)."""
        if self._speaking and self._since_voiced == 0:
            return 0.0
        return (self._frames - self._last_voiced_end) * self._frame_s

    @property
    def speech_seconds(self) -> float:
        """Seconds inside speech spans so far (an open span counts up to its last voice)."""
        total = sum(s.length for s in self.spans)
        if self._speaking:
            total += (self._last_voiced_end - self._span_start) * self._frame_s
        return total

    # -- feeding -----------------------------------------------------------------------

    def feed(self, samples: Sequence[int]) -> list[Event]:
        """Analyse more samples; returns the speech starts and ends they settled."""
        events: list[Event] = []
        n = self.frame_len
        if self._pending:
            self._pending.extend(samples)
            samples = self._pending
            self._pending = []
        whole = len(samples) - len(samples) % n
        for i in range(0, whole, n):
            frame = samples[i : i + n]
            self._frame(sum_of_squares(frame), events)
        if whole < len(samples):
            self._pending = list(samples[whole:])
        return events

    def finish(self) -> list[Event]:
        """End of the audio: close an open span at its last voiced frame."""
        events: list[Event] = []
        if self._speaking:
            self._close(events)
        return events

    def _floor(self) -> float:
        """The lowest frame energy of the last few seconds; before any, a quiet room."""
        floor = min(self._history_min, self._block_min)
        return floor if math.isfinite(floor) else self._quiet_room

    def _frame(self, power: float, events: list[Event]) -> None:
        floor = self._floor()
        voiced = power > self._gate_power and power > floor * self._margin_ratio
        # then the floor learns from this frame, so a steady sound becomes the floor;
        # digital silence counts as a quiet room just under the gate, not as minus infinity
        contribution = max(power, self._quiet_room)
        if contribution < self._block_min:
            self._block_min = contribution
        self._block_count += 1
        if self._block_count >= self._block_frames:
            self._blocks.append(self._block_min)
            self._history_min = min(self._blocks)
            self._block_min = math.inf
            self._block_count = 0
        self._frames += 1
        if voiced:
            self.voiced_frames += 1
        if self._speaking:
            if voiced:
                self._since_voiced = 0
                self._last_voiced_end = self._frames
            else:
                self._since_voiced += 1
                if self._since_voiced >= self._hangover_frames:
                    self._close(events)
        elif voiced:
            self._run += 1
            if self._run >= self._min_speech_frames:
                self._speaking = True
                self._heard = True
                self._since_voiced = 0
                self._span_start = self._frames - self._run
                self._last_voiced_end = self._frames
                events.append(Event("start", self._span_start * self._frame_s))
        else:
            self._run = 0

    def _close(self, events: list[Event]) -> None:
        span = Span(self._span_start * self._frame_s, self._last_voiced_end * self._frame_s)
        self.spans.append(span)
        events.append(Event("end", span.end))
        self._speaking = False
        self._run = 0
        self._since_voiced = 0


def detect(samples: Sequence[int], sample_rate: int, **options) -> list[Span]:
    """Speech spans of a whole recording."""
    vad = VoiceActivityDetector(sample_rate, **options)
    vad.feed(samples)
    vad.finish()
    return list(vad.spans)
