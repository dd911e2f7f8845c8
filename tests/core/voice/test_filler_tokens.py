"""What the recognizer makes of the decoder's tokens around fillers: its speech sound
([SPEECH]) is passed on as a sound among words, and an um or uh said on its own is
bounded by silence however short the decoder's <s> and </s>. The decoder's output is
given (pocketsphinx's segments); the recognizer and the summary are ours."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from companion.core.voice.align import Aligner
from companion.core.voice.heard import summarise
from companion.core.voice.script import pitch_script

pytest.importorskip("pocketsphinx")
pytestmark = pytest.mark.voice

PAGE = """# About me

## Who I am

I am a nurse and I want it to be my main job to care for people.
"""


def heard(tokens: list[tuple[str, int, int]]):
    """The recognizer's words for one utterance of decoder ``tokens`` (word, first frame,
    last frame), and their summary."""
    from companion.core.voice.recognizer import ScriptRecognizer

    script = pitch_script(PAGE)
    recognizer = ScriptRecognizer([s for seg in script for s in seg.sentences])
    segments = [SimpleNamespace(word=w, start_frame=a, end_frame=b) for w, a, b in tokens]
    recognizer._decoder = SimpleNamespace(seg=lambda: segments)
    recognizer._utt_start = 0
    words = recognizer._segments()
    aligner = Aligner(script)
    aligner.feed(words)
    return words, summarise(aligner, words)


def test_an_uh_alone_in_its_utterance_is_a_filler():
    # the isolated "uh" at 30 s of the filler take: a 0.03 s <s> before it, not counted
    words, result = heard([("<s>", 0, 2), ("uh", 3, 24), ("</s>", 25, 58)])
    assert [w.text for w in words] == ["uh"]
    assert result.fillers == 1


def test_a_speech_sound_between_words_is_passed_on_and_counted():
    tokens = [("<s>", 0, 4), ("care", 5, 30), ("[SPEECH]", 31, 55), ("for", 56, 70),
              ("people", 71, 100), ("</s>", 101, 130)]  # fmt: skip
    words, result = heard(tokens)
    assert [(w.text, w.sound) for w in words if w.filler] == [("uh", True)]
    assert result.fillers == 1
    assert result.words_said == 3


def test_a_speech_sound_alone_is_no_word():
    # a cough or a breath on its own: nothing said
    words, result = heard([("<s>", 0, 4), ("[SPEECH]", 5, 40), ("</s>", 41, 70)])
    assert words == []
    assert result.fillers == 0
