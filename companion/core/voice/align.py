"""Heard words aligned to the script's segments, word by word, as they come.

The script is one run of expected words, each tagged with its segment. A pointer marks
the next expected word. A heard word moves it forward when it matches a word just
ahead (within a few words for a short word like "the", a few more for a longer one; a
short word never carries the pointer into the next segment); otherwise the aligner holds: the word is noted, nothing moves. When the last three heard
words match three script words in a row that occur exactly once from the pointer on,
the pointer jumps there: a segment left out, or a stretch the recognizer missed (on the
live card also two words in a row that the script says once each). A jump
that was wrong (a run the recognizer made up) is undone when the next unique run lies
back between where it jumped from and where it landed. A phrase the script repeats is
never unique, so it cannot pull the pointer to its later
copy; the nearby match wins. Stage directions are not in the script (see script.py).
Back/next corrections (:meth:`Aligner.move_to`) put the pointer at a segment's start
and the alignment follows from there.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace

from companion.core.voice.recognizer import HeardWord
from companion.core.voice.script import ScriptSegment

SHORT_LETTERS = 3  # "i", "the", "and": common words, trusted less
NEAR_SHORT = 2  # a short word may match this many words ahead, inside the segment
NEAR_LONG = 5  # a longer word, this many
JUMP_WORDS = 3  # a unique run this long moves the pointer anywhere ahead
# a pair of rare words (the live card) jumps only into a segment's first words: a skip or
# a swap lands there, a pair made up in off-script speech anywhere
PAIR_OPENING = 5


@dataclass(frozen=True)
class Match:
    word: HeardWord
    token: int  # index into the script's run of words
    segment: int


@dataclass
class AlignState:
    pointer: int = 0  # next expected token
    matches: list[Match] = field(default_factory=list)
    recent: list[HeardWord] = field(default_factory=list)  # the last heard non-fillers
    unmatched: list[HeardWord] = field(default_factory=list)
    fillers: list[HeardWord] = field(default_factory=list)
    corrected: int | None = None  # the segment a correction by hand put us at
    mark: int = 0  # matches before the correction do not say where we are
    jumped_from: tuple[int, int] | None = None  # (pointer, matches) before the first jump

    def copy(self) -> AlignState:
        return replace(
            self,
            matches=list(self.matches),
            recent=list(self.recent),
            unmatched=list(self.unmatched),
            fillers=list(self.fillers),
        )


class Aligner:
    def __init__(self, script: list[ScriptSegment], unheard=frozenset(), *, pairs=False):
        """``unheard``: words the recognizer has no pronunciation for (a company's name):
        never heard, so they are not waited for (a segment opening with one was named
        2-2.8 s late). ``pairs`` (the live card): a jump on two rare words in a row too."""
        self.script = script
        self.pairs = pairs
        self.tokens: list[str] = []
        self.segment_of: list[int] = []
        self.first_token: list[int] = []
        for n, segment in enumerate(script):
            self.first_token.append(len(self.tokens))
            words = [w for w in segment.words if w not in unheard]
            self.tokens.extend(words)
            self.segment_of.extend([n] * len(words))
        self.count = Counter(self.tokens)
        self._segments_with: dict[str, set[int]] = {}
        for word, n in zip(self.tokens, self.segment_of):
            self._segments_with.setdefault(word, set()).add(n)
        self.state = AlignState()

    # -- feeding -----------------------------------------------------------------------

    def feed(self, words: list[HeardWord]) -> None:
        """Final words, in order: the alignment moves on for good."""
        for word in words:
            self._step(self.state, word)

    def peek(self, words: list[HeardWord]) -> AlignState:
        """The state the alignment would reach with tentative words (nothing kept)."""
        state = self.state.copy()
        for word in words:
            self._step(state, word)
        return state

    def move_to(self, segment: int) -> None:
        """A correction by hand: the candidate is at the start of ``segment`` now."""
        segment = max(0, min(segment, len(self.script) - 1))
        self.state.pointer = self.first_token[segment] if self.script else 0
        self.state.recent.clear()
        self.state.corrected = segment
        self.state.mark = len(self.state.matches)
        self.state.jumped_from = None

    def _step(self, state: AlignState, word: HeardWord) -> None:
        if word.filler:
            state.fillers.append(word)
            return
        state.recent.append(word)
        del state.recent[:-JUMP_WORDS]
        short = len(word.text) <= SHORT_LETTERS
        stop = min(len(self.tokens), state.pointer + (NEAR_SHORT if short else NEAR_LONG) + 1)
        here = self.segment_of[state.pointer - 1] if state.pointer else None
        for k in range(state.pointer, stop):
            if self.tokens[k] == word.text:
                if short and self.segment_of[k] != here:
                    break  # "i", "the": too common to carry us into the next segment
                state.matches.append(Match(word, k, self.segment_of[k]))
                state.pointer = k + 1
                return
        jump, size = self._unique_run(state, state.pointer), JUMP_WORDS
        if jump is None and self.pairs:
            jump, size = self._rare_pair(state, state.pointer), 2
        if jump is None and state.jumped_from is not None:
            # a jump that was wrong: the run is back where we jumped from
            origin, mark = state.jumped_from
            back = self._unique_run(state, origin)
            if back is not None and back < state.pointer:
                del state.matches[max(mark, state.mark) :]
                state.pointer = origin
                state.jumped_from = None
                self._take_run(state, back)
                return
        if jump is not None:
            # a jump from an unconfirmed jump keeps the first one's origin: two wrong jumps in
            # a row (the cold start at 10 dB: "i owned the", then "a queue that") left the
            # pointer in "Current depth" with "Who I am" behind the second origin
            if state.jumped_from is None:
                state.jumped_from = (state.pointer, len(state.matches))
            self._take_run(state, jump, size)
            return
        state.unmatched.append(word)

    def _take_run(self, state: AlignState, last: int, size: int = JUMP_WORDS) -> None:
        """The last ``size`` recent words match the run ending at token ``last``; the
        pointer follows."""
        first = last - size + 1
        for i, heard in enumerate(state.recent[-size:]):
            if heard in state.unmatched:
                state.unmatched.remove(heard)
            if not any(m.word is heard for m in state.matches):
                state.matches.append(Match(heard, first + i, self.segment_of[first + i]))
        state.matches.sort(key=lambda m: m.word.start)
        state.pointer = last + 1

    def _unique_run(self, state: AlignState, low: int) -> int | None:
        """The token ending the one place from ``low`` on where the last three heard words
        occur in a row; None when they occur twice (a repeated phrase) or are all short
        words ("for you to": the recognizer makes such runs up)."""
        if len(state.recent) < JUMP_WORDS:
            return None
        run = [w.text for w in state.recent]
        if all(len(w) <= SHORT_LETTERS for w in run):
            return None
        found = None
        for k in range(low, len(self.tokens) - JUMP_WORDS + 1):
            if self.tokens[k : k + JUMP_WORDS] == run:
                if found is not None:
                    return None  # repeated ahead: not sure where we are
                found = k + JUMP_WORDS - 1
        return found if found is not None else self._gapped_run(run, low)

    def _rare_pair(self, state: AlignState, low: int) -> int | None:
        """The token ending the place from ``low`` on where the last two heard words occur
        in a row among a segment's first PAIR_OPENING words, each a word of more than
        SHORT_LETTERS the script says once: after a skip the card waited for a third word
        ("your team" of "Why this role", 0.5 s in, matched at 1.0 s). Only the live card
        uses it, and it shows the jump only once a newer hypothesis holds it (follow.py)."""
        if len(state.recent) < 2:
            return None
        pair = [w.text for w in state.recent[-2:]]
        if any(len(w) <= SHORT_LETTERS or self.count[w] != 1 for w in pair):
            return None
        k = self.tokens.index(pair[0])
        opening = k - self.first_token[self.segment_of[k]] < PAIR_OPENING
        return k + 1 if k >= low and opening and self.tokens[k + 1 : k + 2] == pair[1:] else None

    def _gapped_run(self, run: list[str], low: int) -> int | None:
        """The token ending the one place from ``low`` on where the three words occur with
        one script word lost between them, inside one segment: after a skip the
        recognizer heard "your team um the" for "your team owns the" and the card waited
        for "for every model", 2.8 s into the segment."""
        found = None
        for k in range(low, len(self.tokens) - JUMP_WORDS):
            window = self.tokens[k : k + JUMP_WORDS + 1]
            if self.segment_of[k] != self.segment_of[k + JUMP_WORDS]:
                continue
            if window[0] == run[0] and window[-1] == run[-1] and run[1] in window[1:3]:
                if found is not None:
                    return None
                found = k + JUMP_WORDS
        return found

    # -- reading -----------------------------------------------------------------------

    def own(self, word: str, segment: int) -> bool:
        """Whether ``word`` is one of ``segment``'s own: longer than SHORT_LETTERS and
        said in no other segment of the script ("team" of "Why this role")."""
        return len(word) > SHORT_LETTERS and self._segments_with.get(word) == {segment}

    def current(self, state: AlignState | None = None) -> int | None:
        """The segment being spoken: the last matched word's, or a corrected one."""
        state = state or self.state
        if len(state.matches) > state.mark:
            return state.matches[-1].segment
        return state.corrected
