"""An "um" or "uh" counts as a filler only between pauses (issue 39: the recognizer made
up 35 of them in 29 filler-free takes, 3 a minute at 10 dB noise)."""

from __future__ import annotations

from companion.core.voice.align import Aligner
from companion.core.voice.heard import summarise
from companion.core.voice.recognizer import HeardWord
from companion.core.voice.script import pitch_script

PAGE = """# About me

## Who I am

I am a nurse and I want it to be my main job to care for people.
"""
SAID = "i am a nurse and i want it to be my main job to care for people".split()


def take(filler: str, before: float, after: float, at: int = 4) -> list[HeardWord]:
    words, t = [], 0.0
    for n, text in enumerate(SAID):
        if n == at:
            t += before
            words.append(HeardWord(filler, t, t + 0.3, before, after))
            t += 0.3 + after
        words.append(HeardWord(text, t, t + 0.25))
        t += 0.3
    return words


def fillers(words: list[HeardWord]):
    aligner = Aligner(pitch_script(PAGE))
    aligner.feed(words)
    return summarise(aligner, words)


def test_an_um_between_pauses_is_a_filler():
    result = fillers(take("um", 0.2, 0.2))
    assert result.fillers == 1
    assert result.skipped == []


def test_an_uh_inside_running_speech_is_not_counted():
    assert fillers(take("uh", 0.0, 0.0)).fillers == 0


def test_a_pause_on_one_side_only_is_not_enough():
    assert fillers(take("um", 0.6, 0.0)).fillers == 0
    assert fillers(take("um", 0.0, 0.6)).fillers == 0


def test_two_slight_pauses_are_not_enough():
    assert fillers(take("um", 0.1, 0.1)).fillers == 0
    assert fillers(take("um", 0.1, 0.2)).fillers == 1
