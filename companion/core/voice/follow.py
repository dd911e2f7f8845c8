"""Following a spoken pitch live, without Qt: 16 kHz samples in; out, the segment being
spoken, its remaining budget and the delivery line.

The segment moves only on heard words (the aligner), so it holds on silence; the
budget counts down on the audio's own clock from the segment's first word (or from a
correction by hand). The open utterance's tentative words are aligned on a copy every
PARTIAL_EVERY seconds, so the highlight does not wait for a pause to move.
"""

from __future__ import annotations

from array import array
from dataclasses import dataclass

from companion.core.voice.align import Aligner
from companion.core.voice.delivery import ANSWER_LIMIT, DeliveryLine, delivery_line
from companion.core.voice.recognizer import HeardWord, ScriptRecognizer
from companion.core.voice.script import ScriptSegment

PARTIAL_EVERY = 0.5


@dataclass(frozen=True)
class FollowView:
    segment_id: str | None  # None: nothing of the script heard yet
    title: str
    remaining: float | None  # seconds of the segment's budget left (negative: over)
    delivery: DeliveryLine


class PitchFollow:
    def __init__(
        self,
        script: list[ScriptSegment],
        calibrated_wpm: float,
        *,
        answer_limit: float = ANSWER_LIMIT,
    ):
        self.script = script
        self.wpm = calibrated_wpm
        self.answer_limit = answer_limit
        self.recognizer = ScriptRecognizer([s for seg in script for s in seg.sentences], live=True)
        self.aligner = Aligner(script)
        self._partial: list[HeardWord] = []
        self._last_partial = -PARTIAL_EVERY
        self._shown: int | None = None
        self._since: float = 0.0  # audio seconds when the shown segment began

    @property
    def now(self) -> float:
        return self.recognizer.now

    def feed(self, samples: array) -> FollowView:
        final = self.recognizer.feed(samples)
        if final:
            self.aligner.feed(final)
            self._partial = []
        if self.recognizer.in_utterance and self.now - self._last_partial >= PARTIAL_EVERY:
            self._last_partial = self.now
            self._partial = self.recognizer.partial()
        return self.view()

    def view(self) -> FollowView:
        state = self.aligner.peek(self._partial) if self._partial else self.aligner.state
        current = self.aligner.current(state)
        if current != self._shown:
            began = [m.word.start for m in state.matches[state.mark :] if m.segment == current]
            self._since = began[0] if began else self.now
            self._shown = current
        words = self.recognizer.words + self._partial
        line = delivery_line(words, self.now, self.wpm, self.answer_limit)
        if current is None:
            return FollowView(None, "", None, line)
        seg = self.script[current]
        return FollowView(seg.id, seg.title, seg.budget_seconds - (self.now - self._since), line)

    def step(self, by: int) -> FollowView:
        """Back (-1) or next (+1) by hand; the following goes on from there."""
        current = self.aligner.current(self.aligner.state)
        target = 0 if current is None else current + by
        self._partial = []
        self.aligner.move_to(target)
        self._shown = None
        return self.view()
