"""When a segment counts as heard: its own key words, not everyday words any speech
makes (issue 39: another text came back with segments "heard")."""

from __future__ import annotations

from companion.core.voice.align import Aligner
from companion.core.voice.heard import summarise
from companion.core.voice.recognizer import HeardWord, common_words
from companion.core.voice.script import pitch_script

PAGE = """# About me

## Who I am

I am a nurse and I want it to be my main job to care for people.

## Why this role

Your hospital runs the largest children's ward in the region.
"""


def heard(text: str, start: float = 0.0) -> list[HeardWord]:
    return [
        HeardWord(w, start + 0.3 * n, start + 0.3 * n + 0.25) for n, w in enumerate(text.split())
    ]


def test_everyday_words_of_a_segment_do_not_make_it_heard():
    script = pitch_script(PAGE)
    aligner = Aligner(script)
    words = heard("i am a and i want it to be my")  # all common, in the script's order
    aligner.feed(words)
    assert len(aligner.state.matches) >= 3  # the aligner did match them
    result = summarise(aligner, words)
    assert result.skipped == ["identity", "why-role"]


def test_three_key_words_make_a_segment_heard():
    script = pitch_script(PAGE)
    aligner = Aligner(script)
    words = heard("i am a nurse and i want it to be my main job to care for people")
    aligner.feed(words)
    assert summarise(aligner, words).skipped == ["why-role"]


def test_the_common_words_are_everyday_english_in_frequency_order():
    common = common_words(200)
    assert {"the", "i", "my", "want", "it"} <= common
    assert "nurse" not in common and "hospital" not in common
    assert common_words(10) < common
