"""What a take said, segment by segment: heard or skipped, start and end, the words heard
and their rate, the fillers, whether the evidence spoke a number, and the transcript.

A segment counts as heard when at least three of its own key words (all of them, for a
segment with fewer) matched, a key word being one outside the commonest of everyday
English ("the", "my", "want": any speech makes those). The recognizer decodes against
everyday words as well as the script's (recognizer.py), so another text hears no
segment. Every recognized word then belongs to one segment: a word between two
matches of a segment to that segment; words between the last match of one segment and
the first of the next are split at the longest silence among them (where people pause
between segments). A segment's rate is its words heard over its speaking time (first
word to last, less any pause over 2 s), so a segment half said is judged on what was
said, not on the script's length.
"""

from __future__ import annotations

import itertools
from array import array
from dataclasses import dataclass

from companion.core.voice.align import Aligner
from companion.core.voice.order import OffScript, spoken_order
from companion.core.voice.pcm import resampled
from companion.core.voice.recognizer import SAMPLE_RATE, HeardWord, ScriptRecognizer, common_words
from companion.core.voice.script import FILLERS, says_a_number
from companion.core.voice.take import PAUSE_SECONDS

MIN_HEARD = 3  # key words matched, distinct
COMMON = 200  # the commonest background words: never key words
EVIDENCE = "evidence"
# a short word alone between silences, matching nothing: a breath or a noise the recognizer
# could not place, neither a word said nor a filler (counted as fillers, they invented
# 1.8-2.4 a minute on paraphrased and real speech: a breath before the first word)
FILLER_LONGEST = 0.45
FILLER_SILENCE = 0.15
# an "um" or "uh" run into the words around it, with no speech sound beside it (SOUND_FILLER
# counts those), counts when it lasts this long: espeak-ng's run-in "um" came out as one of
# 0.37-0.50 s; the ones the recognizer made up inside speech 0.07-0.42 s (0.42 s for "so"
# in a retold take, 0.34-0.41 s in takes at 10 dB and in the en-us+f3 voice; 0.32 counted
# them, benchmarks/voice_paraphrase.py --fillers)
RUN_IN_FILLER = 0.45
# a speech sound that is no word (HeardWord.sound, the decoder's [SPEECH]), with any um or
# uh it touches, counts as one filler when it lasts 19 frames (0.19 s; 0.185 against the
# float sums) and has at most SOUND_GAP of silence on either side (run in, not a breath
# between pauses). espeak-ng's run-in "uh" and "um" came out as 0.17-0.45 s of them; in
# filler-free takes a sound for a word the decoder could not place ("focus [SPEECH] been"
# for "focus has been") lasted up to 0.18 s, all but one longer one with a pause beside it
# (benchmarks/voice_paraphrase.py --fillers; docs/performance.md)
SOUND_FILLER = 0.185
SOUND_GAP = 0.12
# an "um" or "uh" counts only between pauses: at least this much silence on each side and
# FILLER_PAUSES on both together (the recognizer makes them up inside fast or noisy
# speech: 35 in 29 filler-free takes, 3.6 a minute at 10 dB; benchmarks/voice_hearing.py)
FILLER_PAUSE = 0.05
FILLER_PAUSES = 0.3
EDGE_GAP = 0.3  # seconds: a filler or lone word this close to a segment is part of its sound
# an "um" or "uh" inside speech (not a filler: not between pauses) is the recognizer's
# stand-in for a word it could not make out (noise) and counts as a word said, unless at
# least this much silence follows it: then it is a word's tail heard before a pause (a
# real voice). Take wpm, paraphrase at 10 dB: -11.4 % -> -9.1 %; worst case 11.4 -> 9.1 %
WORD_TAIL_PAUSE = 0.2
# the take's rate is judged only when at most this share of the words said is off the
# script: a word the recognizer does not know comes out as several short ones, so a count
# of mostly unknown speech is no word count (a real voice read against a script it did not
# say: +26 to +29 %; takes with 10 % off the script: within 3 %; benchmarks/voice_corpus.py)
RATE_OFF_SCRIPT = 0.5
WARM_SECONDS = 6.0  # the recognizer's warm-up on a take's start (hear)


@dataclass(frozen=True)
class SegmentHeard:
    id: str
    title: str
    heard: bool
    start: float | None
    end: float | None
    words_heard: int
    speaking_seconds: float
    words: tuple[str, ...] = ()

    @property
    def wpm(self) -> float | None:
        if not self.heard or self.speaking_seconds < 1.0:
            return None
        return self.words_heard * 60.0 / self.speaking_seconds

    def as_json(self) -> dict:
        def r(x):
            return None if x is None else round(x, 2)

        wpm = self.wpm
        return {
            "id": self.id,
            "heard": self.heard,
            "start": r(self.start),
            "end": r(self.end),
            "words_heard": self.words_heard,
            "wpm": None if wpm is None else round(wpm, 1),
        }


@dataclass(frozen=True)
class TakeHeard:
    segments: tuple[SegmentHeard, ...]
    fillers: int
    transcript: str
    evidence_number: bool | None  # None: the one-pager has no evidence segment heard
    filler_times: tuple[float, ...] = ()  # the middle of each filler, seconds into the take
    words_said: int = 0  # every word recognized, off the script too, fillers not (WORD_TAIL_PAUSE)
    order: tuple[tuple[str, float, float], ...] = ()  # (id, start, end) as spoken
    off_script: tuple[OffScript, ...] = ()

    @property
    def repeated(self) -> list[str]:
        ids = [o[0] for o in self.order]
        return sorted({i for i in ids if ids.count(i) > 1}, key=ids.index)

    @property
    def out_of_order(self) -> list[str]:
        """Segments spoken before one that comes earlier in the script (a swap)."""
        rank = {s.id: n for n, s in enumerate(self.segments)}
        firsts = list(dict.fromkeys(o[0] for o in self.order))
        return [a for k, a in enumerate(firsts) if any(rank[a] > rank[b] for b in firsts[k + 1 :])]

    @property
    def skipped(self) -> list[str]:
        return [s.id for s in self.segments if not s.heard]

    @property
    def off_script_share(self) -> float | None:
        """The share of the words said that belong to no segment; None when none was said."""
        if not self.words_said:
            return None
        return 1 - sum(s.words_heard for s in self.segments) / self.words_said

    @property
    def rate_judged(self) -> bool:
        """Whether words_said is a word count to take a rate from (RATE_OFF_SCRIPT)."""
        share = self.off_script_share
        return share is not None and share <= RATE_OFF_SCRIPT


def _counted_fillers(words: list[HeardWord]) -> tuple[list[HeardWord], set[int]]:
    """The fillers of ``words``, and the ids of the words that made up a sound: a speech
    sound with the fillers it touches (no silence between) is one filler spanning them when
    it lasts SOUND_FILLER; an um or uh touching no sound counts on its own (_counted_filler)."""
    out: list[HeardWord] = []
    sounds: set[int] = set()
    run: list[HeardWord] = []
    for word in [*words, None]:
        if word is not None and word.filler and (not run or word.start <= run[-1].end):
            run.append(word)
            continue
        if any(w.sound for w in run):
            sounds.update(id(w) for w in run)
            if (
                run[-1].end - run[0].start >= SOUND_FILLER
                and max(run[0].gap_before, run[-1].gap_after) <= SOUND_GAP
            ):
                out.append(HeardWord(FILLERS[1], run[0].start, run[-1].end, sound=True))
        else:
            out += [w for w in run if _counted_filler(w)]
        run = [word] if word is not None and word.filler else []
    return out, sounds


def _counted_filler(word: HeardWord) -> bool:
    """An um or uh between pauses, or a long one run into the words (RUN_IN_FILLER)."""
    paused = (
        min(word.gap_before, word.gap_after) >= FILLER_PAUSE
        and word.gap_before + word.gap_after >= FILLER_PAUSES
    )
    return word.filler and (paused or word.end - word.start >= RUN_IN_FILLER)


def _lone_short(word: HeardWord) -> bool:
    return (
        word.end - word.start <= FILLER_LONGEST
        and word.gap_before >= FILLER_SILENCE
        and word.gap_after >= FILLER_SILENCE
    )


def summarise(aligner: Aligner, words: list[HeardWord], pack_ids=()) -> TakeHeard:
    """The take's segments from the aligner's final state and every recognized word.
    ``pack_ids``: (id, title) of the pack's segments, so those the one-pager lacks are
    listed too (never heard)."""
    state = aligner.state
    common = common_words(COMMON)
    keys: dict[int, set[str]] = {}
    for match in state.matches:
        if match.word.text not in common:
            keys.setdefault(match.segment, set()).add(match.word.text)
    heard = {
        n
        for n, seg in enumerate(aligner.script)
        if len(keys.get(n, ())) >= min(MIN_HEARD, len(set(seg.words) - common) or 1)
    }
    matched = {id(m.word): m.segment for m in state.matches if m.segment in heard}
    lone = [w for w in state.unmatched if _lone_short(w)]
    fillers, sounds = _counted_fillers(words)
    # a sound and the fillers it touches are no word said, nor a segment's edge
    words = [w for w in words if id(w) not in sounds]
    spoken = [w for w in words if not w.filler and w not in lone]
    unclear = [
        w
        for w in words
        if w.filler and w not in fillers and w not in lone and w.gap_after < WORD_TAIL_PAUSE
    ]
    occurrences, off, given = spoken_order(aligner.script, spoken)
    found: dict[int, set[str]] = {}
    for occ in occurrences:
        found.setdefault(occ.segment, set()).update(occ.keys)
    # heard out of the script's order (a swap, a repeat), where the aligner held
    again = {
        n
        for n, seg in enumerate(aligner.script)
        if n not in heard
        and len(found.get(n, ())) >= min(MIN_HEARD, len(set(seg.words) - common) or 1)
    }
    heard |= again | {occ.segment for occ in occurrences if occ.told}
    # an occurrence's words are its segment's, whatever the aligner did; the aligner's
    # matches stand for a heard segment no occurrence was found for
    placed = {occ.segment for occ in occurrences if occ.segment in heard}
    matched = {k: seg for k, seg in matched.items() if seg not in placed}
    for occ in occurrences:
        if occ.segment in heard:
            matched.update((id(w), occ.segment) for w in occ.words)
    owner = _owners(spoken, matched)
    owner = [given.get(id(w), o) for w, o in zip(spoken, owner)]
    outside = {id(w) for stretch in off for w in stretch.words}
    by_segment: dict[int, list[HeardWord]] = {}
    for word, seg in zip(spoken, owner):
        if seg is not None and id(word) not in outside:
            by_segment.setdefault(seg, []).append(word)
    results: dict[str, SegmentHeard] = {}
    at = {id(w): i for i, w in enumerate(words)}
    counted = {id(w) for w in spoken}
    for n, seg in enumerate(aligner.script):
        mine = by_segment.get(n, []) if n in heard else []
        if not mine:
            results[seg.id] = SegmentHeard(seg.id, seg.title, False, None, None, 0, 0.0)
            continue
        results[seg.id] = SegmentHeard(
            seg.id,
            seg.title,
            True,
            *_edges(mine, words, at, counted),
            len(mine),
            _speaking(mine),
            tuple(w.text for w in mine),
        )
    ordered = [results.get(i) or SegmentHeard(i, t, False, None, None, 0, 0.0) for i, t in pack_ids]
    ordered += [r for i, r in results.items() if i not in {p[0] for p in pack_ids}]
    evidence = results.get(EVIDENCE)
    return TakeHeard(
        tuple(ordered),
        len(fillers),
        " ".join(w.text for w in sorted([*words, *(f for f in fillers if f.sound)], key=_start)),
        says_a_number(evidence.words) if evidence is not None and evidence.heard else None,
        tuple((w.start + w.end) / 2 for w in fillers),
        len(spoken) + len(unclear),
        tuple(
            (aligner.script[o.segment].id, o.start, o.end)
            for o in occurrences
            if o.segment in heard
        ),
        tuple(off),
    )


def _start(word: HeardWord) -> float:
    return word.start


def _owners(spoken: list[HeardWord], matched: dict[int, int]) -> list[int | None]:
    """The segment each spoken word belongs to (see the module's docstring)."""
    owner: list[int | None] = [matched.get(id(w)) for w in spoken]
    anchors = [i for i, seg in enumerate(owner) if seg is not None]
    if not anchors:
        return owner
    for i in range(anchors[0]):
        owner[i] = owner[anchors[0]]
    for i in range(anchors[-1] + 1, len(owner)):
        owner[i] = owner[anchors[-1]]
    for a, b in zip(anchors, anchors[1:]):
        if b - a < 2:
            continue
        if owner[a] == owner[b]:
            for i in range(a + 1, b):
                owner[i] = owner[a]
            continue
        cut = max(range(a, b), key=lambda i: spoken[i + 1].start - spoken[i].end)
        for i in range(a + 1, b):
            owner[i] = owner[a] if i <= cut else owner[b]
    return owner


def _edges(mine, words, at, counted) -> tuple[float, float]:
    """Where a segment's sound starts and ends: its first and last word, or a filler or
    a lone short word (not counted as a word) just before or after it, with no more than
    EDGE_GAP between (the recognizer heard "At my" as a lone "i", 0.33 s before "was")."""
    start, end = mine[0].start, mine[-1].end
    before, after = at[id(mine[0])] - 1, at[id(mine[-1])] + 1
    if before >= 0 and id(words[before]) not in counted and start - words[before].end <= EDGE_GAP:
        start = words[before].start
    if (
        after < len(words)
        and id(words[after]) not in counted
        and words[after].start - end <= EDGE_GAP
    ):
        end = words[after].end
    return start, end


def _speaking(words: list[HeardWord]) -> float:
    total = words[-1].end - words[0].start
    for a, b in zip(words, words[1:]):
        gap = b.start - a.end
        if gap > PAUSE_SECONDS:
            total -= gap
    return total


def hear(samples, sample_rate: int, script, pack_ids=()) -> TakeHeard:
    """Recognize a whole take (any rate; resampled to 16 kHz) and summarise it. Raises
    RecognizerError (one line) when the recognizer cannot be made."""

    recognizer = ScriptRecognizer([s for seg in script for s in seg.sentences])
    chunk = SAMPLE_RATE // 10  # the microphone's pace: a tenth of a second at a time
    # resampled as it is fed, never the whole take a second time (5 MiB a minute at 44.1 kHz)
    audio = resampled(samples, sample_rate, SAMPLE_RATE, chunk)
    # once, after a warm-up on the first WARM_SECONDS: the decoder starts from the model's
    # cepstral mean and misheard a take's first words until it had learnt the voice and the
    # room ("infrastructure letting you" for "infrastructure engineer"); decoding the whole
    # take twice for that cost 0.22 CPU s a second of audio
    start = list(itertools.islice(audio, int(WARM_SECONDS * SAMPLE_RATE) // chunk))
    recognizer.warm_up(array("h", itertools.chain.from_iterable(start)), chunk)
    aligner = Aligner(script, frozenset(recognizer.unknown))
    for piece in itertools.chain(start, audio):
        aligner.feed(recognizer.feed(piece))
    aligner.feed(recognizer.finish())
    return summarise(aligner, recognizer.words, pack_ids)
