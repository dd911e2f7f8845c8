"""Following a spoken pitch live, without Qt: 16 kHz samples in; out, the segment being
spoken, its remaining budget and the delivery line.

The segment moves only on heard words (the aligner), so it holds on silence; the
budget counts down on the speaking time from the segment's first word (or from a
correction by hand): it pauses while the candidate is silent. The open utterance's
tentative words are aligned on a copy every PARTIAL_EVERY seconds, so the highlight does
not wait for a pause to move; but a move is shown only once it is confirmed: at once
when final words carry the pointer into the next segment, otherwise when the same
segment is still the one the words say CONFIRM_SECONDS later, on a newer hypothesis; a
jump (back, or past a segment) needs JUMP_CONFIRM_WORDS words of it matched in a row too,
JUMP_KEYS of them key words (outside everyday English's commonest words, or the segment's
own: said in no other segment; one, when the run opens the segment, where a skip or a swap
lands), or two of the segment's own words in a row. A swap back to a segment before the
shown one and not yet said lands on it from two words in a row among the open utterance's
first ones that open that segment and no other place of the script, the second its own
("my last" of "At my last company"): the card shows it once a newer hypothesis still says
it, and follows from there.
A delivery nudge changes (on, off, or to another) at most once per NUDGE_HOLD seconds.
"""

from __future__ import annotations

from array import array
from dataclasses import dataclass, replace

from companion.core.voice.align import PAIR_OPENING, Aligner
from companion.core.voice.delivery import ANSWER_LIMIT, DeliveryLine, delivery_line
from companion.core.voice.recognizer import (
    SAMPLE_RATE,
    HeardWord,
    ScriptRecognizer,
    common_words,
)
from companion.core.voice.script import ScriptSegment

# a tentative hypothesis on every 0.1 s chunk (the card's pump), a move confirmed on the
# next one: after a swap "my last" of "Strongest evidence" held for one chunk and the
# hypothesis after it said "off" (0.2 s: every 0.2 s, 0.25 s: every 0.3 s, the cost did not
# show either time: 5.9-6.4 % of a core against 6.1-6.9 % following a 50 s take)
PARTIAL_EVERY = 0.05
CONFIRM_SECONDS = 0.05
NUDGE_HOLD = 10.0
# matched words in a row a jump to another segment needs, JUMP_KEYS of them outside the
# commonest words: the run that made it, when two of its words are key words (a cold start
# at 10 dB jumped on "a queue that", one key word). Five words held the card 2.0-2.4 s
# after a skip or a swap; everyday English alone as the key words held it 1.6-2.2 s ("your
# team", "last", "deep" are everyday, but each is said in its segment alone)
JUMP_CONFIRM_WORDS = 3
JUMP_KEYS = 2
# a nudge is shown once its condition has held this long (a blip in the first words read
# as 190 wpm showed "Slow down", which then held NUDGE_HOLD)
NUDGE_ARM = 4.0
# the budget counts speaking time while the words are the segment's: speech more than this
# after the last matched word (off the script, or a question between) does not count
OFF_SCRIPT_GRACE = 2.0
COMMON = 200  # as heard.py
# a landing pair (a swap back to a segment still unsaid) is among the open utterance's
# first words this many: a swap starts after a pause, a pair inside off-script talk does not
LANDING_WORDS = 3


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
        self.aligner = Aligner(script, frozenset(self.recognizer.unknown), pairs=True)
        self._landings = self._landing_pairs()
        self._partial: list[HeardWord] = []
        self._last_partial = -PARTIAL_EVERY
        self._shown: int | None = None
        self._since: float = 0.0  # speaking seconds when the shown segment began
        self._spoken = 0.0  # seconds of audio heard while speech was under way
        self._hypothesis = 0  # counts the decoder's hypotheses (finals and partials)
        self._pending: tuple[int | None, float, int] | None = None  # (segment, since, hyp)
        self._nudge = ""
        self._nudge_at = -NUDGE_HOLD
        self._wanted: tuple[str, float] = ("", 0.0)  # the nudge kind wanted and since when

    @property
    def now(self) -> float:
        return self.recognizer.now

    def feed(self, samples: array) -> FollowView:
        speaking = self.recognizer.in_utterance
        final = self.recognizer.feed(samples)
        speaking = speaking or self.recognizer.in_utterance
        if final:
            self.aligner.feed(final)
            self._partial = []
            self._hypothesis += 1
        if self.recognizer.in_utterance and self.now - self._last_partial >= PARTIAL_EVERY:
            self._last_partial = self.now
            self._partial = self.recognizer.partial()
            self._hypothesis += 1
        state = self._state()
        if speaking and self._on_script(state):
            self._spoken += len(samples) / SAMPLE_RATE
        return self.view(state)

    def _state(self):
        """The alignment with the tentative words (a copy), or the final one."""
        return self.aligner.peek(self._partial) if self._partial else self.aligner.state

    def _on_script(self, state) -> bool:
        """Whether the speech now is the script's: a word matched within OFF_SCRIPT_GRACE
        (on the tentative words too), or nothing matched yet."""
        if len(state.matches) <= state.mark:
            return True
        return self.now - state.matches[-1].word.end <= OFF_SCRIPT_GRACE

    def _landing_pairs(self) -> dict[tuple[str, str], int]:
        """Two script words in a row among a segment's first PAIR_OPENING, said in a row
        nowhere else, the second the segment's own: the segment each pair opens."""
        tokens, first = self.aligner.tokens, self.aligner.first_token
        seen: dict[tuple[str, str], list[int]] = {}
        for k in range(len(tokens) - 1):
            seen.setdefault((tokens[k], tokens[k + 1]), []).append(k)
        out = {}
        for pair, places in seen.items():
            k = places[0]
            seg = self.aligner.segment_of[k]
            opening = k + 1 - first[seg] < PAIR_OPENING and self.aligner.segment_of[k + 1] == seg
            if len(places) == 1 and opening and self.aligner.own(pair[1], seg):
                out[pair] = seg
        return out

    def _landing(self, state) -> tuple[int, float] | None:
        """The segment before the shown one and not yet said (no word of it ever matched)
        that the open utterance's first words open with a landing pair, and where the pair
        starts; None if none. After a swap the aligner waited for "company" (1.1 s in) to
        undo its jump past it; a segment ahead is the aligner's to find."""
        if self._shown is None:
            return None
        words = [w for w in self._partial if not w.filler][:LANDING_WORDS]
        said = {m.segment for m in state.matches}
        for a, b in zip(words, words[1:]):
            seg = self._landings.get((a.text, b.text))
            if seg is not None and seg < self._shown and seg not in said:
                return seg, a.start
        return None

    def _confirmed(self, candidate: int | None, state, landing: bool = False) -> bool:
        """Whether a move from the shown segment to ``candidate`` may be shown now;
        ``landing``: a landing pair names it (held for a newer hypothesis only)."""
        final = self.aligner.current(self.aligner.state)
        shown = self._shown
        sequential = candidate == (0 if shown is None else shown + 1)
        if candidate == final and sequential:
            return True  # final words, into the next segment (or the first)
        if not sequential and candidate is not None and not landing:
            # a jump (back, or past a segment): the words must have gone on in it, past the
            # three-word run that made it (a cold start at 10 dB jumped on "a queue that")
            trail, first = [], None
            for match in reversed(state.matches[state.mark :]):
                if match.segment != candidate:
                    break
                trail.append(match.word.text)
                first = match.token
            own = {w for w in trail if self.aligner.own(w, candidate)}
            keys = (set(trail) - common_words(COMMON)) | own
            # a run from the segment's first word needs one key word: after a swap "lately i
            # have" of "Current depth" waited for "deep", 1.6 s in ("a queue that", mid-way)
            opening = first == self.aligner.first_token[candidate]
            needed = JUMP_KEYS - 1 if opening else JUMP_KEYS
            run = len(trail) >= JUMP_CONFIRM_WORDS and len(keys) >= needed
            if not run and len(own) < JUMP_KEYS:
                self._pending = None
                return False
        pending = self._pending
        if pending is None or pending[0] != candidate:
            self._pending = (candidate, self.now, self._hypothesis)
            return False
        return self.now - pending[1] >= CONFIRM_SECONDS and self._hypothesis > pending[2]

    def view(self, state=None) -> FollowView:
        state = state if state is not None else self._state()
        current = self.aligner.current(state)
        landing = self._landing(state) if self._partial else None
        if landing is not None:
            if self._confirmed(landing[0], state, landing=True):
                # the aligner follows from there: it goes back only to undo a jump of its
                # own, and after some swaps it had none to undo
                self.aligner.move_to(landing[0])
                self._since = self._spoken - max(0.0, self.now - landing[1])
                self._shown = landing[0]
                self._pending = None
        elif current != self._shown and self._confirmed(current, state):
            began = [m.word.start for m in state.matches[state.mark :] if m.segment == current]
            # the speaking clock at the segment's first word: the audio since then was speech
            self._since = self._spoken - (max(0.0, self.now - began[0]) if began else 0.0)
            self._shown = current
            self._pending = None
        elif current == self._shown:
            self._pending = None
        current = self._shown
        words = self.recognizer.words + self._partial
        line = self._held(delivery_line(words, self.now, self.wpm, self.answer_limit))
        if current is None:
            return FollowView(None, "", None, line)
        seg = self.script[current]
        return FollowView(
            seg.id, seg.title, seg.budget_seconds - (self._spoken - self._since), line
        )

    def _held(self, line: DeliveryLine) -> DeliveryLine:
        """The nudge as shown: a change (on, off, another) waits NUDGE_HOLD after the last."""
        kind = line.nudge.split(":", 1)[0]
        if kind != self._wanted[0]:
            self._wanted = (kind, self.now)
        if kind and self.now - self._wanted[1] < NUDGE_ARM:
            kind, line = self._nudge.split(":", 1)[0], replace(line, nudge=self._nudge)
        if kind != self._nudge.split(":", 1)[0]:
            if self.now - self._nudge_at < NUDGE_HOLD:
                return replace(line, nudge=self._nudge)
            self._nudge_at = self.now
        self._nudge = line.nudge
        return line

    def step(self, by: int) -> FollowView:
        """Back (-1) or next (+1) by hand; the following goes on from there."""
        current = self.aligner.current(self.aligner.state)
        target = 0 if current is None else current + by
        self._partial = []
        self.aligner.move_to(target)
        # a move by hand is the candidate's own word: shown at once, not held for the
        # confirmation a heard jump needs (that held the card at no segment)
        self._shown = self.aligner.current(self.aligner.state)
        self._since = self._spoken
        self._pending = None
        return self.view()
