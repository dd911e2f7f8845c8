"""The live follower after a swap (issue 65): a segment not yet said is named from two
words that open it, and the card names the segment swapped back to within 1 s of its
first sound (it took 1.3 s: the aligner waited for "company" to undo its jump)."""

from __future__ import annotations

from array import array

import pytest
import voice_takes as vt

from companion.core.content.plans import FALLBACK_PITCH
from companion.core.voice.follow import PitchFollow
from companion.core.voice.pcm import resample
from companion.core.voice.recognizer import HeardWord
from companion.core.voice.script import pitch_script, spoken_words
from companion.core.voice.take import read_wav

needs_tools = pytest.mark.skipif(vt.missing_tools() is not None, reason=f"{vt.missing_tools()}")
pytestmark = pytest.mark.voice  # each test hears a take or a word list
P = {p[0]: p for p in vt.PITCH}
SILENCE = array("h", bytes(3200))  # 0.1 s at 16 kHz


def _words(text: str, start: float) -> list[HeardWord]:
    said = spoken_words(text)
    return [HeardWord(w, start + 0.3 * n, start + 0.3 * n + 0.25) for n, w in enumerate(said)]


def _swapped() -> PitchFollow:
    """ "Who I am" then "Current depth" said (final words), "Current depth" on the card."""
    follow = PitchFollow(pitch_script(vt.pitch_page(), plan=FALLBACK_PITCH), 150.0)
    follow.aligner.feed(_words(f"{P['identity'][2]} {P['depth'][2]}", 0.0))
    follow._shown = follow.aligner.current()
    assert follow.script[follow._shown].id == "depth"
    return follow


def _shown_after(follow: PitchFollow, tentative: str, hypotheses: int = 3) -> str | None:
    """The segment on the card after ``hypotheses`` newer hypotheses all saying ``tentative``."""
    from companion.core.voice.follow import CONFIRM_SECONDS

    follow._partial = _words(tentative, 60.0)
    view = follow.view()
    for _ in range(hypotheses):
        for _ in range(int(CONFIRM_SECONDS * 10) + 1):
            follow.recognizer.feed(SILENCE)
        follow._hypothesis += 1
        view = follow.view()
    return view.segment_id


def test_a_swap_back_lands_on_the_unsaid_segment_its_first_words_open():
    # the recognizer's "of my last" for "At my last company", 0.7 s in
    follow = _swapped()
    assert _shown_after(follow, "of my last") == "evidence"
    # the aligner follows from there: the final words keep the card on it
    follow.aligner.feed(_words("of my last company we served forty thousand requests", 60.0))
    follow._partial = []
    assert follow.view().segment_id == "evidence"


def test_no_landing_on_a_segment_said_ahead_or_deep_in_an_utterance():
    follow = _swapped()
    # "Strongest evidence" said before "Current depth": "my last" is a repeat, not a swap
    follow.aligner.move_to(0)
    said = " ".join(P[s][2] for s in ("identity", "evidence", "depth"))
    follow.aligner.feed(_words(said, 0.0))
    follow._shown = follow.aligner.current()
    assert _shown_after(follow, "of my last") == "depth"
    # the pair after three words of talk: a remark ("when i was at my last"), not a landing
    assert _shown_after(_swapped(), "when i was my last") == "depth"
    # a segment ahead is not a swap back: "the short answer is" off the script, before
    # "Hand back" was said, is the aligner's to judge (a three-word run), not a landing
    assert _shown_after(_swapped(), "the short answer") == "depth"


@needs_tools
def test_the_card_names_the_segment_swapped_back_to_within_a_second(tmp_path):
    from voice_hearing import layout

    pitch = [P["identity"], P["depth"], P["evidence"], *vt.PITCH[3:]]
    take = vt.build(tmp_path, "swap", 160, layout(pitch))
    audio = read_wav(take.path)
    samples = resample(audio.samples, audio.sample_rate)
    follow = PitchFollow(pitch_script(vt.pitch_page(), plan=FALLBACK_PITCH), 150.0)
    starts = {p[0]: t[0] for p, t in zip(pitch, take.truth)}
    named: dict[str, float] = {}
    for i in range(0, len(samples), 1600):
        view = follow.feed(samples[i : i + 1600])
        if view.segment_id and follow.now >= starts[view.segment_id]:
            named.setdefault(view.segment_id, follow.now)
    late = {s: round(named.get(s, take.seconds) - starts[s], 1) for s in ("depth", "evidence")}
    assert max(late.values()) <= 1.0, late
