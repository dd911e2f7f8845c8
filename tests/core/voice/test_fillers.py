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


def _long(words: list[HeardWord], seconds: float) -> list[HeardWord]:
    """``words`` with the filler lasting ``seconds``, the words after it moved on."""
    out, shift = [], 0.0
    for w in words:
        if w.filler:
            shift = seconds - (w.end - w.start)
            out.append(HeardWord(w.text, w.start, w.start + seconds, w.gap_before, w.gap_after))
        else:
            out.append(HeardWord(w.text, w.start + shift, w.end + shift))
    return out


def test_a_long_um_run_into_the_words_is_a_filler():
    # run-in fillers were not counted at all (0 of 36): one as long as a said "um" is
    from companion.core.voice.heard import RUN_IN_FILLER

    assert fillers(_long(take("um", 0.0, 0.0), RUN_IN_FILLER + 0.05)).fillers == 1
    assert fillers(_long(take("um", 0.0, 0.0), RUN_IN_FILLER - 0.1)).fillers == 0


def test_an_um_the_recognizer_heard_for_a_word_is_no_filler():
    # "so" came out as a 0.42 s "um" run into the words (a retold take): counted, it made
    # up 1.1 fillers a minute there
    assert fillers(_long(take("um", 0.0, 0.0), 0.42)).fillers == 0


def test_a_short_word_alone_between_silences_is_no_filler():
    # a breath before the first word came out as a lone "a": counted as a filler, it
    # invented 1.8-2.4 a minute on paraphrased and real speech
    words = take("um", 0.2, 0.2)
    words[4] = HeardWord("oh", words[4].start, words[4].start + 0.2, 0.4, 0.4)
    assert fillers(words).fillers == 0


def _sound(words: list[HeardWord], seconds: float, before=0.0, after=0.0) -> list[HeardWord]:
    """``words`` with the filler turned into a speech sound that is no word (the decoder's
    [SPEECH]) lasting ``seconds``, with ``before`` and ``after`` seconds of silence."""
    return [
        HeardWord(w.text, w.start, w.start + seconds, before, after, sound=True) if w.filler else w
        for w in words
    ]


def test_a_long_speech_sound_run_into_the_words_is_a_filler():
    # a run-in "uh" came out as no word at all (the decoder's [SPEECH]): none counted
    from companion.core.voice.heard import SOUND_FILLER

    result = fillers(_sound(take("uh", 0.0, 0.0), SOUND_FILLER + 0.02))
    assert result.fillers == 1
    assert result.words_said == len(SAID)  # a sound is no word said
    assert "uh" in result.transcript.split()


def test_a_short_speech_sound_is_neither_filler_nor_word():
    # the sounds the decoder took inside filler-free speech: mostly under 0.18 s
    result = fillers(_sound(take("uh", 0.0, 0.0), 0.1))
    assert result.fillers == 0
    assert result.words_said == len(SAID)
    assert "uh" not in result.transcript.split()


def test_a_speech_sound_with_a_pause_beside_it_is_not_run_in():
    # sounds with a pause on one side were breaths and noise in filler-free takes
    from companion.core.voice.heard import SOUND_GAP

    assert fillers(_sound(take("uh", 0.0, 0.0), 0.3, before=SOUND_GAP + 0.05)).fillers == 0
    assert fillers(_sound(take("uh", 0.0, 0.0), 0.3, after=SOUND_GAP + 0.05)).fillers == 0


def test_a_sound_and_the_um_it_touches_are_one_filler():
    # a run-in "um" came out as [SPEECH] then a short "um": each too short alone, one
    # filler together
    words = take("um", 0.0, 0.0)
    at = next(n for n, w in enumerate(words) if w.filler)
    um = words[at]
    sound = HeardWord("uh", um.start - 0.12, um.start, sound=True)
    short = HeardWord("um", um.start, um.start + 0.15)
    result = fillers([*words[:at], sound, short, *words[at + 1 :]])
    assert result.fillers == 1
    assert result.words_said == len(SAID)  # the um is no word said either
