"""Where each segment was spoken, in the order spoken, found without assuming the
script's order: a swap shows as a swap, a repeat as a repeat, and speech off the script
as stretches of its own.

A word is anchored to a segment when it is part of a three-word run that occurs in that
segment's words and in no other's (a run of only the commonest words anchors nothing).
Anchors of one segment in a row, with unanchored words between them, are one occurrence
of it. Unanchored words between two occurrences (or before the first, after the last)
are off the script when, after the neighbours' own key words at either end are given
back to them, at least OFF_WORDS words and OFF_SECONDS are left. Such a stretch is a
segment told in other words (a paraphrase: no three-word run of the script in it) when
PARAPHRASE_KEYS of that segment's own key words (words of no other segment) are in it,
making at least PARAPHRASE_SHARE of its words: another text reaches neither (counted
over its rarer words only, another text about queues reached a quarter). A stretch
that is no one segment is cut at its long pauses and each piece judged so; a piece too
short to be off the script is left to its neighbours. A piece next to an anchored
segment is, in the script's order, one of the unanchored segments between its neighbours
when it has ORDER_POINTS of that segment's points; with no pause over SPLIT_PAUSE between
it and a neighbour, and that neighbour's points or the neighbour's own words its anchors
left unsaid, in their order (IN_TURN), it is that neighbour's start or end.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.core.voice.meaning import meaning_points
from companion.core.voice.recognizer import HeardWord, common_words

RUN = 3
COMMON = 200  # as heard.py: the commonest background words are never key words
MIN_KEYS = 2  # distinct key words an occurrence needs
BACK = 6  # script words back within a segment that start it again (a repeat)
OFF_WORDS = 4
PAUSE = 0.6  # seconds: a word across a pause this long is not given back
# a garbled clause of the script (the recognizer's "lately on company we watching for
# you to" for "Lately I have been deep in batching") is not a remark off the script: the
# corpus's clean take lost 2.7 s of a segment to one (benchmarks/voice_corpus.py)
OFF_SECONDS = 3.0
PARAPHRASE_KEYS = 3
PARAPHRASE_SHARE = 0.2
SPLIT_PAUSE = 0.9  # seconds: a stretch with no paraphrase in it is looked at piece by piece
# a piece next to an anchored segment, in the script's order, is a segment left unanchored
# told in other words when it has this many of that segment's points (a key word of it,
# distinct, or a three-word run of its own): the recognizer at 10 dB or in another voice
# kept two or three key words of a paraphrased segment in a stretch of made-up words
ORDER_POINTS = 2
# a piece just after a segment's last anchor (or just before its first) that says at least
# IN_TURN of the segment's words past that anchor, in their order, making at least half of
# its words, is that segment's end (start): "from eight hundred milliseconds to one hundred
# and twenty" has one key word, the rest among the commonest words, so no run anchors it
# and one misheard word ("length on really second to one hundred and twenty", one dither
# draw in about 30) left it with one point and made it a remark off the script, the
# evidence ending 3.8 s early (tests/core/voice/test_dither_stability.py)
IN_TURN = 3
# a take with segments told in other words is the pitch only when this many segments are
# in it (said in their own words or told, in the script's order); fewer is another text
TOLD_ALONE = 3


class _Stretch:
    words: tuple[HeardWord, ...]

    @property
    def start(self) -> float:
        return self.words[0].start

    @property
    def end(self) -> float:
        return self.words[-1].end


@dataclass(frozen=True)
class Occurrence(_Stretch):
    segment: int
    words: tuple[HeardWord, ...]  # first anchor to last, unanchored words between included
    keys: frozenset[str]  # distinct key words among its anchors
    told: bool = False  # a stretch told in other words: heard on its own evidence


@dataclass(frozen=True)
class OffScript(_Stretch):
    words: tuple[HeardWord, ...]

    def as_json(self) -> dict:
        return {
            "start": round(self.start, 2),
            "end": round(self.end, 2),
            "words": " ".join(w.text for w in self.words),
        }


def _runs(script) -> dict[tuple[str, ...], tuple[int, int] | None]:
    """Every three-word run of the script: (its segment, where in it), None when several."""
    common = common_words(COMMON)
    runs: dict[tuple[str, ...], tuple[int, int] | None] = {}
    for n, seg in enumerate(script):
        for i in range(len(seg.words) - RUN + 1):
            run = tuple(seg.words[i : i + RUN])
            if all(w in common for w in run):
                continue
            runs[run] = None if run in runs else (n, i)
    return runs


def anchors(script, words: list[HeardWord]) -> list[int | None]:
    """The segment each word (fillers left out by the caller) is anchored to, or None."""
    return [a[0] if a else None for a in _anchors(script, words)]


def _anchors(script, words: list[HeardWord]) -> list[tuple[int, int] | None]:
    runs = _runs(script)
    label: list[tuple[int, int] | None] = [None] * len(words)
    for i in range(len(words) - RUN + 1):
        found = runs.get(tuple(w.text for w in words[i : i + RUN]))
        if found is not None:
            for k in range(i, i + RUN):
                label[k] = (found[0], found[1] + k - i)
    return label


def spoken_order(
    script, words: list[HeardWord]
) -> tuple[list[Occurrence], list[OffScript], dict[int, int]]:
    """The occurrences of segments in the order spoken, the stretches off the script, and
    the segment of each word given back to a neighbour of one (by ``id`` of the word)."""
    common = common_words(COMMON)
    where = _anchors(script, words)
    groups = _groups(where)
    for g in groups:  # one run with one key word (the recognizer made it up): no occurrence
        if len({words[i].text for i in g} - common) < MIN_KEYS:
            for i in g:
                where[i] = None
    groups = _groups(where)
    label = [w[0] if w else None for w in where]
    # each group's segment's words before its first anchor and after its last one
    unsaid = [
        (
            script[label[g[0]]].words[: min(where[i][1] for i in g)],
            script[label[g[0]]].words[max(where[i][1] for i in g) + 1 :],
        )
        for g in groups
    ]
    own = _own_keys(script, common)
    occurrences = [  # its keys: its anchors', and its segment's own key words between them
        Occurrence(
            label[g[0]],
            tuple(words[g[0] : g[-1] + 1]),
            frozenset(words[i].text for i in g if words[i].text not in common)
            | {w.text for w in words[g[0] : g[-1] + 1] if w.text in own[label[g[0]]]},
        )
        for g in groups
    ]
    keys = [set(seg.words) - common for seg in script]
    vocab = [set(seg.words) for seg in script]
    off: list[OffScript] = []
    given: dict[int, int] = {}
    edges = [(-1, None)] + [(g[0], g[-1]) for g in groups] + [(len(words), None)]
    runs = _runs(script)
    at = {id(w): i for i, w in enumerate(words)}
    for gap, ((_a, left_end), (right_start, _b)) in enumerate(zip(edges, edges[1:])):
        lo = (left_end + 1) if left_end is not None else 0
        hi = right_start
        left = label[left_end] if left_end is not None else None
        right = label[right_start] if right_start < len(words) else None
        start, end = lo, hi
        while lo < hi and left is not None and _gives_back(words, lo, hi, left, keys, vocab, True):
            lo += 1
        while (
            hi > lo and right is not None and _gives_back(words, lo, hi, right, keys, vocab, False)
        ):
            hi -= 1
        stretch = words[lo:hi]
        if not _long(stretch):
            continue
        given.update((id(w), left) for w in words[start:lo])
        given.update((id(w), right) for w in words[hi:end])
        # the script's segments between the neighbours, none of them anchored: a stretch
        # next to an anchored segment is one of them told in other words, in their order
        if left is None and right is None:
            # nothing anchored anywhere: the whole pitch may be told in other words
            missing = list(range(len(script))) if not groups else []
        else:
            missing = list(
                range(-1 if left is None else left, len(script) if right is None else right)
            )[1:]
        # one segment told in other words, or several (split where the speaker paused)
        pieces = [stretch] if _paraphrased(stretch, own) is not None else _split(stretch)
        told_here: list[Occurrence] = []
        for k, piece in enumerate(pieces):
            told = _paraphrased(piece, own)
            if told is None and missing:
                told = _in_order(piece, missing, keys, runs, script)
            first, last = at[id(piece[0])], at[id(piece[-1])]
            if told is not None:
                missing = [m for m in missing if m > told]
                keys_in = frozenset(w.text for w in piece) & own[told]
                before = told_here[-1] if told_here else None
                if before and before.segment == told and at[id(before.words[-1])] == first - 1:
                    told_here.pop()  # one segment in two pieces, nothing between them
                    first, keys_in = at[id(before.words[0])], keys_in | before.keys
                told_here.append(Occurrence(told, tuple(words[first : last + 1]), keys_in, True))
                continue
            # the start or the end of a neighbour told in other words, with no pause between
            near = (
                (gap - 1, left, words[max(0, first - 1)].end, piece[0].start, k == 0, 1),
                (
                    gap,
                    right,
                    piece[-1].end,
                    words[min(last + 1, len(words) - 1)].start,
                    k == len(pieces) - 1,
                    0,
                ),
            )
            for n, seg, a, b, edge, side in near:
                if (
                    edge
                    and seg is not None  # then the word beyond the piece is its neighbour's
                    and b - a <= SPLIT_PAUSE
                    and (
                        _points(piece, keys[seg], runs, seg) >= ORDER_POINTS
                        or _in_turn(piece, unsaid[n][side])
                    )
                ):
                    occ = occurrences[n]
                    span = sorted({at[id(occ.words[0])], at[id(occ.words[-1])], first, last})
                    keys_in = occ.keys | (frozenset(w.text for w in piece) & own[seg])
                    occurrences[n] = Occurrence(
                        seg, tuple(words[span[0] : span[-1] + 1]), keys_in, occ.told
                    )
                    given.update((id(w), seg) for w in words[span[0] : span[-1] + 1])
                    break
            else:
                if _long(piece):
                    off.append(OffScript(tuple(piece)))
        occurrences += told_here
    told = [o for o in occurrences if o.told]
    runs_only = {n for n, g in enumerate(groups) if len(g) <= RUN}  # one run each
    if told and len({o.segment for o in occurrences}) < TOLD_ALONE:
        # fewer than TOLD_ALONE segments in the whole take, some of them only told in
        # other words: another text that shares a few words (a nurse's pitch at 10 dB
        # came out "to hit a wall", and its next sentences had three key words of
        # "Current depth"), not the pitch; a segment anchored by one run goes with them
        off += [OffScript(o.words) for o in told if _long(o.words)]
        weak = {id(occurrences[n]) for n in runs_only}
        occurrences = [o for o in occurrences if not o.told and id(o) not in weak]
    occurrences.sort(key=lambda o: o.start)
    return occurrences, off, given


def _long(stretch) -> bool:
    return len(stretch) >= OFF_WORDS and stretch[-1].end - stretch[0].start >= OFF_SECONDS


def _split(stretch) -> list:
    """``stretch`` cut at every pause over SPLIT_PAUSE."""
    pieces = [[stretch[0]]]
    for a, b in zip(stretch, stretch[1:]):
        if b.start - a.end > SPLIT_PAUSE:
            pieces.append([])
        pieces[-1].append(b)
    return pieces


def _own_keys(script, common) -> list[set[str]]:
    """Each segment's key words that no other segment has."""
    keys = [set(seg.words) - common for seg in script]
    return [k - set().union(*(o for m, o in enumerate(keys) if m != n)) for n, k in enumerate(keys)]


def _paraphrased(stretch, own: list[set[str]]) -> int | None:
    """The segment ``stretch`` tells in other words, or None (see the module's docstring)."""
    said = [w.text for w in stretch]
    counts = [len(set(said) & k) for k in own]
    best = max(range(len(own)), key=counts.__getitem__, default=None)
    if best is None or counts[best] < PARAPHRASE_KEYS:
        return None
    if sum(1 for w in said if w in own[best]) < PARAPHRASE_SHARE * len(said):
        return None
    return best


def _points(piece, keys: set[str], runs, seg: int) -> int:
    """The key words of segment ``seg`` in ``piece``, distinct, plus one for a three-word
    run of its own script in it."""
    said = [w.text for w in piece]
    forms = set(said) | {w[:-1] for w in said if w.endswith("s")} | {w + "s" for w in said}
    run = any(
        (runs.get(tuple(said[i : i + RUN])) or (None,))[0] == seg
        for i in range(len(said) - RUN + 1)
    )
    return len(forms & keys) + run


def _in_turn(piece, unsaid: tuple[str, ...]) -> bool:
    """Whether ``piece`` says IN_TURN or more of ``unsaid`` in their order, making at
    least half of its words (see IN_TURN)."""
    said = [w.text for w in piece]
    if not unsaid or 2 * len(unsaid) < len(said):
        return False
    row = [0] * (len(unsaid) + 1)  # the longest common subsequence, row by row
    for w in said:
        prev = 0
        for j, u in enumerate(unsaid, 1):
            prev, row[j] = row[j], prev + 1 if w == u else max(row[j], row[j - 1])
    return row[-1] >= IN_TURN and 2 * row[-1] >= len(said)


def _in_order(piece, missing: list[int], keys, runs, script) -> int | None:
    """The segment of ``missing`` (in the script's order) ``piece`` tells, or None: its
    points are its key words and runs (``_points``) and its meaning (meaning.py)."""
    if len(piece) < RUN:
        return None
    said = [w.text for w in piece]
    last = len(script) - 1

    def points(m: int) -> int:
        return _points(piece, keys[m], runs, m) + meaning_points(said, script[m], m == last)

    best = max(missing, key=lambda m: (points(m), -m))
    return best if points(best) >= ORDER_POINTS else None


def _groups(where: list[tuple[int, int] | None]) -> list[list[int]]:
    """Indices of anchored words, one list per run of one segment's anchors; the segment
    said again (its words going back more than BACK words) starts a new run."""
    groups: list[list[int]] = []
    for i, here in enumerate(where):
        if here is None:
            continue
        last = where[groups[-1][-1]] if groups else None
        if last is not None and last[0] == here[0] and here[1] > last[1] - BACK:
            groups[-1].append(i)
        else:
            groups.append([i])
    return groups


def _gives_back(words, lo: int, hi: int, seg: int, keys, vocab, from_left: bool) -> bool:
    """Whether the stretch ``words[lo:hi]``'s edge word goes back to its neighbouring
    segment: a word of that segment, or one of its key words among the next three (a
    paraphrased clause of it), and no pause over PAUSE between it and the segment."""
    edge = lo if from_left else hi - 1
    toward = edge - 1 if from_left else edge + 1
    if 0 <= toward < len(words):
        a, b = (words[toward], words[edge]) if from_left else (words[edge], words[toward])
        if b.start - a.end > PAUSE:
            return False
    near = words[lo : lo + RUN] if from_left else words[max(lo, hi - RUN) : hi]
    return words[edge].text in vocab[seg] or any(w.text in keys[seg] for w in near)
