"""The order-free summary: a swap is a swap, a repeat a repeat, and speech off the
script is a stretch of its own, never inside a segment's time (issue 39)."""

from __future__ import annotations

import pytest
import voice_hearing as vh
import voice_takes as vt

from companion.core.voice.align import Aligner
from companion.core.voice.heard import summarise
from companion.core.voice.recognizer import HeardWord
from companion.core.voice.script import pitch_script

PITCH = {p[0]: p for p in vt.PITCH}
OFF = "I trained as a nurse and spent ten years on a children's ward in a busy city hospital"


def _words(texts: list[str], step: float = 0.3) -> list[HeardWord]:
    """Each text as words ``step`` apart, a 1.2 s pause between texts."""
    out, at = [], 0.5
    for text in texts:
        for word in text.lower().replace(",", "").replace(".", "").replace("?", "").split():
            out.append(HeardWord(word, at, at + step - 0.05))
            at += step
        at += 1.2
    return out


def _summary(ids: list[str], extra: dict[int, str] | None = None):
    script = pitch_script(vt.pitch_page())
    texts = [PITCH[i][2] for i in ids]
    for at, text in sorted((extra or {}).items(), reverse=True):
        texts.insert(at, text)
    words = _words(texts)
    aligner = Aligner(script)
    aligner.feed(words)
    return summarise(aligner, words, [(p[0], p[1]) for p in vt.PITCH]), words


def test_a_swap_is_heard_as_a_swap_not_a_skip():
    result, _ = _summary(["identity", "depth", "evidence", "why-role", "hand-back"])
    assert result.skipped == []
    assert [o[0] for o in result.order] == [
        "identity",
        "depth",
        "evidence",
        "why-role",
        "hand-back",
    ]
    assert result.out_of_order == ["depth"]


def test_a_repeat_is_heard_as_a_repeat():
    result, _ = _summary(["identity", "evidence", "evidence", "depth", "why-role", "hand-back"])
    assert [o[0] for o in result.order].count("evidence") == 2
    assert result.repeated == ["evidence"] and result.skipped == []


@pytest.mark.parametrize("where", [0, 2])
def test_speech_off_the_script_is_its_own_stretch(where):
    ids = [p[0] for p in vt.PITCH]
    result, words = _summary(ids, {where: OFF})
    assert len(result.off_script) == 1
    stretch = result.off_script[0]
    assert "nurse" in stretch.as_json()["words"] and "hospital" in stretch.as_json()["words"]
    after = {s.id: s for s in result.segments}[ids[where]]
    assert after.start > stretch.end  # never inside the next segment's time
    if where:
        before = {s.id: s for s in result.segments}[ids[where - 1]]
        assert before.end < stretch.start
    assert result.skipped == []


@pytest.mark.voice
@pytest.mark.skipif(vt.missing_tools() is not None, reason=f"{vt.missing_tools()}")
def test_a_spoken_swap_and_off_script_middle_keep_their_boundaries(tmp_path):
    p = PITCH
    pitch = [
        p["identity"],
        p["depth"],
        p["evidence"],
        ("x", "x", OFF),
        p["why-role"],
        p["hand-back"],
    ]
    take = vt.build(tmp_path, "swapoff", 160, vh.layout(pitch))
    result = vh._hear(take.path)
    assert result.skipped == [] and result.out_of_order == ["depth"]
    by_id = {s.id: s for s in result.segments}
    for (seg_id, _t, _x), (start, end) in zip(pitch, take.truth):
        if seg_id == "x":
            [off] = result.off_script
            assert off.start == pytest.approx(start, abs=1.5)
            assert off.end == pytest.approx(end, abs=1.5)
            continue
        assert by_id[seg_id].start == pytest.approx(start, abs=1.5)
        assert by_id[seg_id].end == pytest.approx(end, abs=1.5)


def _told(texts: list[str]):
    script = pitch_script(vt.pitch_page())
    words = _words(texts)
    aligner = Aligner(script)
    aligner.feed(words)
    return summarise(aligner, words, [(p[0], p[1]) for p in vt.PITCH])


def test_a_segment_told_in_other_words_is_heard_not_off_script():
    told = {p[0]: p[2] for p in vt.PARAPHRASE}
    # no three-word run of the script in it: only its own key words tell it
    texts = [told["identity"], *(PITCH[i][2] for i in ("evidence", "depth", "why-role"))]
    texts.append(told["hand-back"])
    result = _told(texts)
    assert result.skipped == [] and result.off_script == ()
    assert [o[0] for o in result.order][0] == "identity"


def test_a_short_garbled_clause_is_not_a_remark_off_the_script():
    # the recognizer's words for a clause of "depth", 2.4 s: the segment's own start
    texts = [PITCH["identity"][2], PITCH["evidence"][2],
             "lately on company we watching for you to " + PITCH["depth"][2]]  # fmt: skip
    result = _told(texts)
    assert result.off_script == ()
    clause = len(_words(texts[:2]))  # the clause's first word
    depth = {s.id: s for s in result.segments}["depth"]
    assert depth.start == pytest.approx(_words(texts)[clause].start)


def test_two_segments_told_in_other_words_in_a_row_are_both_heard():
    told = {p[0]: p[2] for p in vt.PARAPHRASE}
    texts = [told["identity"], told["evidence"], *(PITCH[i][2] for i in ("depth", "why-role"))]
    result = _told(texts + [PITCH["hand-back"][2]])
    assert result.skipped == [] and result.off_script == ()


# two segments told in other words, one after the other: no three-word run of the script
# in either, so between "Who I am" and "Why this role" nothing is anchored
TOLD_EVIDENCE = (
    "Back then our service took forty thousand calls each second and tail latency was "
    "the wall, so I took on the scheduler."
)
TOLD_DEPTH = (
    "These days I think about batching, a line of requests sorted by size, and fairness "
    "beats peak throughput."
)


def test_a_stretch_of_two_segments_told_in_other_words_is_cut_at_its_pause():
    # as one stretch neither segment's key words make a fifth of it (5 of 40 words): cut
    # at the 1.2 s pause between them (over order.SPLIT_PAUSE) each piece is its segment
    texts = [PITCH["identity"][2], TOLD_EVIDENCE, TOLD_DEPTH, PITCH["why-role"][2]]
    texts.append(PITCH["hand-back"][2])
    result = _told(texts)
    assert result.skipped == [] and result.off_script == ()
    assert [o[0] for o in result.order] == [p[0] for p in vt.PITCH]
    words = _words(texts)
    first = len(_words(texts[:2]))  # TOLD_DEPTH's first word
    by_id = {s.id: s for s in result.segments}
    assert by_id["evidence"].end == pytest.approx(words[first - 1].end)
    assert by_id["depth"].start == pytest.approx(words[first].start)


def test_a_segment_told_with_two_of_its_key_words_before_the_next_one_is_heard():
    # only "infrastructure" and "running" of Who I am (a paraphrase at 10 dB kept no more):
    # before "Strongest evidence" at the start, in the script's order, it is Who I am
    told = "so I work on infrastructure and these days I keep things running"
    result = _told([told, *(PITCH[i][2] for i in ("evidence", "depth", "why-role", "hand-back"))])
    assert result.skipped == [] and result.off_script == ()
    identity = {s.id: s for s in result.segments}["identity"]
    assert identity.start == pytest.approx(0.5) and identity.end < _words([told])[-1].end + 0.1


def test_a_segment_begun_in_other_words_starts_where_they_start():
    # the first clause of "Current depth" in other words, then its own script with no pause
    begun = "right now a queue for requests is what I think about " + (
        "which taught me that fairness matters more than peak throughput"
    )
    texts = [PITCH["identity"][2], PITCH["evidence"][2], begun, PITCH["why-role"][2]]
    result = _told(texts)
    assert result.off_script == () and result.repeated == []
    depth = {s.id: s for s in result.segments}["depth"]
    assert depth.start == pytest.approx(_words(texts)[len(_words(texts[:2]))].start)


def test_a_remark_where_a_segment_was_left_out_is_off_the_script_not_that_segment():
    texts = [PITCH["identity"][2], PITCH["evidence"][2], OFF, PITCH["why-role"][2]]
    result = _told(texts + [PITCH["hand-back"][2]])
    assert result.skipped == ["depth"] and len(result.off_script) == 1


@pytest.mark.parametrize("where", [1, 5])
def test_a_made_up_run_with_one_key_word_is_no_occurrence_of_a_segment(where):
    # "for every model" is a run of "Why this role" alone, but two of its words are
    # everyday ones: one key word is what the recognizer makes up out of other speech,
    # so a remark holding it is off the script, not that segment said again (MIN_KEYS)
    remark = "My sister runs a bakery and she bakes for every model of oven they sell in town"
    ids = [p[0] for p in vt.PITCH]
    result, _ = _summary(ids, {where: remark})
    assert [o[0] for o in result.order] == ids
    assert result.repeated == []
    assert len(result.off_script) == 1
    assert "for every model" in result.off_script[0].as_json()["words"]


# one dither draw in about 30 of the espeak take at 140 wpm (test_dither_stability.py):
# "from eight hundred milliseconds" heard as "length on really second". The rest of the
# clause is among the commonest words, so no run anchors it and it has one key word of
# "Strongest evidence" ("second"), yet it is the segment's own unsaid end, said in order
MISHEARD = PITCH["evidence"][2].replace(
    "from eight hundred milliseconds", "length on really second"
)


def test_a_misheard_clause_saying_the_rest_of_a_segment_in_order_is_its_end():
    texts = [PITCH[i][2] for i in ("identity",)] + [MISHEARD]
    texts += [PITCH[i][2] for i in ("why-role", "hand-back")]
    words = _words(texts, step=0.4)  # 3.6 s for the clause: long enough to be a remark
    script = pitch_script(vt.pitch_page())
    aligner = Aligner(script)
    aligner.feed(words)
    result = summarise(aligner, words, [(p[0], p[1]) for p in vt.PITCH])
    assert result.off_script == () and result.skipped == ["depth"]
    evidence = {s.id: s for s in result.segments}["evidence"]
    assert evidence.end == pytest.approx(words[len(_words(texts[:2])) - 1].end)  # "twenty"


def test_a_misheard_clause_saying_the_start_of_a_segment_in_order_is_its_start():
    # "At my last company we served" heard as "at my last come and we were": one
    # everyday word after another, the segment's first anchor at "forty thousand requests"
    begun = "at my last come and we were " + PITCH["evidence"][2].split("served ", 1)[1]
    texts = [PITCH["identity"][2], begun, *(PITCH[i][2] for i in ("why-role", "hand-back"))]
    words = _words(texts, step=0.45)
    script = pitch_script(vt.pitch_page())
    aligner = Aligner(script)
    aligner.feed(words)
    result = summarise(aligner, words, [(p[0], p[1]) for p in vt.PITCH])
    assert result.off_script == () and result.skipped == ["depth"]
    evidence = {s.id: s for s in result.segments}["evidence"]
    assert evidence.start == pytest.approx(words[len(_words(texts[:1]))].start)  # "at"


def test_a_hand_back_in_other_words_is_a_question_handed_back():
    # "Where would you like me to go" shares no key word with "Which part would be most
    # useful for you to go deeper on?": its meaning (a question handed back) tells it
    from companion.core.voice.meaning import hands_back

    told = "so that's me in brief where would you like me to go into more detail"
    assert hands_back(told.split()) and not hands_back("that is me in brief".split())
    texts = [*(PITCH[i][2] for i in ("identity", "evidence", "depth", "why-role")), told]
    result = _told(texts)
    assert result.skipped == [] and result.off_script == ()


def test_an_evidence_told_with_its_figures_in_other_sentences_is_heard():
    # the figures and an outcome ("fell from ... to ...") with none of the evidence's runs
    told = (
        "what i am proudest of is that after i redesigned how work got done the slow ones "
        "fell from eight hundred to one hundred and twenty"
    )
    texts = [PITCH["identity"][2], told, *(PITCH[i][2] for i in ("depth", "why-role"))]
    result = _told(texts + [PITCH["hand-back"][2]])
    assert result.skipped == [] and result.off_script == ()


@pytest.mark.parametrize(
    "texts",
    [
        # a nurse's pitch at 10 dB came out with "to hit a wall" (a run of Strongest
        # evidence) and, in its next sentences, three key words of Current depth: two
        # segments, one of them only told in other words, is another text, not the pitch
        ["full forty i for you and i have been the queue with wall david be the off it to "
         "offering i that groups one you to hit a wall the",
         "am me that patients a every that lately my my health of a the which taught model "
         "wall queue that you been finally that something on i want i that the a wall your "
         "few with moment you peak of with years"],
        # another dither draw of it (about one in fifteen): "fifty off it to" is a figure
        # and an outcome, which was a point for the opening because its script has a
        # figure ("eight years"), though no outcome: with "lately", the opening was told
        ["full forty i for you and fan family um queue with want it at the fifty off it to "
         "off we lately i have been for you to hit a wall the",
         "am me that i from eight every that lately my my um health of a the which taught "
         "model wall queue that you been finally um that something on i want i that the a "
         "wall your few with moment you peak of with years"],
    ],
)  # fmt: skip
def test_another_text_with_one_made_up_run_and_a_few_key_words_hears_nothing(texts):
    result = _told(texts)
    assert [s.id for s in result.segments if s.heard] == []


@pytest.mark.parametrize(
    ("opening", "heard"),
    [
        # the recognizer's retold opening at 10 dB: "eight years" and "model" kept
        ("five for been the i they'll that with she believe feet the that is is the eight "
         "years want it how be my mean something on model", True),
        ("five for been the i they'll that with she believe feet the that is is the ten "
         "years want it how be my mean something on model", False),
        ("five for been the i they'll that with she believe feet the that is is the eight "
         "days want it how be my mean something on model", False),
    ],
)  # fmt: skip
def test_an_opening_told_with_its_figure_and_what_it_counts_is_heard(opening, heard):
    # a one-word figure is its meaning only with the word it counts ("eight years"):
    # another figure ("ten years") or "eight" alone is any stray number
    texts = [opening, *(PITCH[i][2] for i in ("evidence", "depth", "why-role", "hand-back"))]
    result = _told(texts)
    assert ("identity" not in result.skipped) is heard
