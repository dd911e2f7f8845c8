"""The aligner and the script it aligns to: heard words (built here as the recognizer
reports them) walk the one-pager's segments forward, hold when unsure, jump on a unique
three-word run, never match a stage direction, and follow a correction by hand."""

from __future__ import annotations

from companion.core.voice.align import Aligner
from companion.core.voice.heard import summarise
from companion.core.voice.recognizer import HeardWord
from companion.core.voice.script import pitch_script, says_a_number, spoken_words

PAGE = """# About me

## Who I am

I am a backend engineer with six years in payments. [pause]

## Strongest evidence

I cut the nightly batch from 6 hours to 40 minutes (smile) and saved 30% of the cost.

## Current depth

Lately I study schedulers for training jobs on shared clusters.

## Why this role

Your team owns the serving platform and I want to own it end to end.

## Hand back

That is the short version. Which part should I go deeper on?
"""


def heard(
    text: str, start: float = 0.0, step: float = 0.3, pause_every: int = 0
) -> list[HeardWord]:
    words, at = [], start
    for n, word in enumerate(text.split()):
        words.append(HeardWord(word, at, at + step * 0.8, 0.0, 0.0))
        at += step
        if pause_every and (n + 1) % pause_every == 0:
            at += 1.0
    return words


def script():
    return pitch_script(PAGE)


def test_the_script_leaves_stage_directions_out_and_says_figures_as_words():
    segs = {s.id: s.words for s in script()}
    assert "pause" not in segs["identity"]
    assert "smile" not in segs["evidence"]
    assert segs["evidence"][:10] == tuple("i cut the nightly batch from six hours to forty".split())
    assert spoken_words("$1,200 and 2.5x [your number] (aside) 30%") == [
        "one", "thousand", "two", "hundred", "dollars", "and", "two", "point", "five",
        "x", "thirty", "percent",
    ]  # fmt: skip
    assert says_a_number(["forty", "minutes"]) and not says_a_number(["some", "minutes"])


def test_a_take_read_in_order_walks_every_segment():
    aligner = Aligner(script())
    order = []
    for word in heard(" ".join(" ".join(s.words) for s in script())):
        aligner.feed([word])
        order.append(aligner.current())
    assert order[0] is None  # "i": too common to say where the pitch starts
    assert order[-1] == 4
    known = [o for o in order if o is not None]
    assert known == sorted(known)  # forward only
    assert set(known) == {0, 1, 2, 3, 4}


def test_a_short_word_does_not_carry_the_pointer_into_the_next_segment():
    segs = script()
    aligner = Aligner(segs)
    aligner.feed(heard(" ".join(segs[0].words)))
    assert aligner.current() == 0
    aligner.feed(heard("i", start=9.0))  # evidence starts "i cut": not yet
    assert aligner.current() == 0
    aligner.feed(heard("cut the", start=9.5))  # a run of short words: no jump either
    assert aligner.current() == 0
    aligner.feed(heard("nightly", start=10.5))  # a longer word: we are there
    assert aligner.current() == 1
    other = Aligner(segs)
    other.feed(heard(" ".join(segs[0].words)))
    other.feed(heard("nightly", start=10.5))  # a longer word alone carries us too
    assert other.current() == 1


def test_unknown_words_hold_the_segment():
    aligner = Aligner(script())
    aligner.feed(heard("i am a backend engineer"))
    assert aligner.current() == 0
    pointer = aligner.state.pointer
    aligner.feed(heard("honestly kubernetes whatever blah"))
    assert aligner.current() == 0 and aligner.state.pointer == pointer


def test_a_segment_left_out_is_jumped_over_on_a_unique_three_word_run():
    segs = script()
    text = " ".join(segs[0].words + segs[1].words + segs[3].words + segs[4].words)
    aligner = Aligner(segs)
    words = heard(text, pause_every=0)
    aligner.feed(words)
    result = summarise(aligner, words)
    assert [s.id for s in result.segments if s.heard] == [
        "identity", "evidence", "why-role", "hand-back"
    ]  # fmt: skip
    assert result.skipped == ["depth"]


def test_a_repeated_phrase_does_not_pull_the_pointer_to_its_later_copy():
    # "to own" ... "own it end to end": "i want to" would match "why this role" too
    # early if the aligner trusted any three-word run; the phrase "the" is everywhere
    page = (
        "## Who I am\n\nI want to build things. I want to build teams.\n\n"
        "## Why this role\n\nI want to build things here.\n"
    )
    segs = pitch_script(page)
    aligner = Aligner(segs)
    aligner.feed(heard("i want to build things"))
    assert aligner.current() == 0
    aligner.feed(heard("i want to build teams", start=2.0))
    assert aligner.current() == 0  # the repeated run stays in the first segment
    aligner.feed(heard("i want to build things here", start=4.0))
    assert aligner.current() == 1


def test_a_run_the_script_repeats_ahead_holds_instead_of_jumping():
    page = (
        "## Who I am\n\nAlpha bravo charlie delta echo foxtrot golf hotel india juliet. "
        "We build the thing.\n\n## Why this role\n\nKilo lima. We build the thing here.\n"
    )
    aligner = Aligner(pitch_script(page))
    aligner.feed(heard("we build the thing"))  # twice ahead: where are we?
    assert aligner.current() is None and aligner.state.pointer == 0
    aligner.feed(heard("kilo lima we", start=2.0))  # once ahead: there
    assert aligner.current() == 1


def test_a_wrong_jump_is_undone_when_the_speech_is_back_where_it_jumped_from():
    segs = script()
    aligner = Aligner(segs)
    words = heard(" ".join(segs[0].words + segs[1].words))
    aligner.feed(words)
    assert aligner.current() == 1
    # the recognizer makes up a run of the hand-back mid-depth: "part should i"
    made_up = heard("lately i study part should i", start=20.0)
    aligner.feed(made_up)
    assert aligner.current() == 4
    back = heard("schedulers for training jobs on shared clusters", start=22.0)
    aligner.feed(back)
    assert aligner.current() == 2  # back where the speech is
    result = summarise(aligner, words + made_up + back)
    assert "hand-back" in result.skipped  # the made-up run left no match behind


def test_a_stage_direction_spoken_by_mistake_matches_nothing():
    aligner = Aligner(script())
    aligner.feed(heard("i am a backend engineer with six years in payments pause"))
    assert aligner.state.unmatched and aligner.state.unmatched[-1].text == "pause"


def test_back_and_next_corrections_move_the_segment_and_it_follows_from_there():
    segs = script()
    aligner = Aligner(segs)
    aligner.feed(heard("i am a backend engineer"))
    aligner.move_to(2)
    assert aligner.current() == 2
    aligner.feed(heard(" ".join(segs[2].words[:4]), start=3.0))
    assert aligner.current() == 2
    aligner.move_to(1)  # back: the earlier matches do not win over the correction
    assert aligner.current() == 1
    aligner.feed(heard(" ".join(segs[1].words[:5]), start=6.0))
    assert aligner.current() == 1


def test_peek_keeps_nothing():
    aligner = Aligner(script())
    state = aligner.peek(heard("i am a backend engineer"))
    assert aligner.current(state) == 0
    assert aligner.current() is None and aligner.state.pointer == 0


def test_segment_times_rate_fillers_and_the_evidence_number():
    segs = script()
    words = heard(" ".join(segs[0].words), step=0.4)
    words.append(HeardWord("um", 9.0, 9.3, 5.08, 0.3))  # between pauses, as a filler is
    words.append(HeardWord("on", 9.6, 9.9, 0.3, 0.3))  # a lone short word: a breath, a noise
    words += heard(" ".join(segs[1].words), start=10.0, step=0.3)
    aligner = Aligner(segs)
    aligner.feed(words)
    result = summarise(aligner, words, [(s.id, s.title) for s in segs])
    first, second = result.segments[0], result.segments[1]
    assert first.heard and first.start == 0.0
    assert first.words_heard == len(segs[0].words)
    assert first.wpm is not None and abs(first.wpm - 150) < 10  # a word every 0.4 s
    # the lone "on" 0.1 s before it is the start of its sound (heard.EDGE_GAP), not a word
    assert second.start == 9.6 and second.words_heard == len(segs[1].words)
    assert result.fillers == 1  # the um; a short word it could not place is no filler
    assert result.evidence_number is True
    assert result.skipped == ["depth", "why-role", "hand-back"]
    assert result.transcript.split()[len(segs[0].words)] == "um"


def test_a_segment_opening_with_words_the_recognizer_cannot_hear_is_named_at_its_next():
    # a company's name has no pronunciation: never heard, so never waited for (the card
    # named such a segment 2-2.8 s late, once the next three-word run came)
    page = PAGE.replace("I cut the nightly", "At Kvarn Bolaget I cut the nightly")
    segs = pitch_script(page)
    aligner = Aligner(segs, frozenset({"kvarn", "bolaget"}))
    aligner.feed(heard(" ".join(segs[0].words)))
    aligner.feed(heard("nightly", start=9.0))
    assert aligner.current() == 1
    waiting = Aligner(segs)
    waiting.feed(heard(" ".join(segs[0].words)))
    waiting.feed(heard("nightly", start=9.0))
    assert waiting.current() == 0


def test_a_run_with_one_word_lost_moves_the_pointer_past_a_skipped_segment():
    # after a skip the recognizer heard "your team um the" for "your team owns the": the
    # card waited for the next exact run, 2.8 s into the segment
    segs = script()
    aligner = Aligner(segs)
    aligner.feed(heard(" ".join(segs[0].words)))
    aligner.feed(heard(" ".join(segs[1].words), start=9.0))
    aligner.feed(heard("your team the", start=30.0))  # "Current depth" left out
    assert aligner.current() == 3
    held = Aligner(segs)
    held.feed(heard(" ".join(segs[0].words)))
    held.feed(heard(" ".join(segs[1].words), start=9.0))
    held.feed(heard("your team platform", start=30.0))  # two words lost: no run
    assert held.current() == 1


def test_on_the_card_two_words_the_script_says_once_jump_past_a_skipped_segment():
    # after a skip the card heard "your team" 0.5 s into "Why this role" and waited for a
    # third word, 0.5 s more
    segs = script()
    said = " ".join(segs[0].words) + " your team"  # two segments left out
    live, take = Aligner(segs, pairs=True), Aligner(segs)
    live.feed(heard(said))
    take.feed(heard(said))
    assert live.current() == 3
    assert take.current() == 0  # a take's hearing keeps the three-word rule
    apart = Aligner(segs, pairs=True)  # each said once, but not in a row
    apart.feed(heard(" ".join(segs[0].words) + " schedulers platform"))
    assert apart.current() == 0
    inside = Aligner(segs, pairs=True)  # "training jobs": not the segment's opening
    inside.feed(heard(" ".join(segs[0].words) + " training jobs"))
    assert inside.current() == 0
    short = Aligner(segs, pairs=True)  # "want to": a short word is no rare word
    short.feed(heard(" ".join(segs[0].words) + " want to"))
    assert short.current() == 0
