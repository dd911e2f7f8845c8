"""A muted microphone sends pure digital silence: said as muted at once, not left to look
like a candidate who says nothing (the card said nothing for 14 s); zeros after the first
sound are a noise gate between words, not a mute."""

from __future__ import annotations

import math
from array import array

import fed_mic

from companion.ui.voice.listener import MUTED_SECONDS

CHUNK = 1600  # the pump's 0.1 s at 16 kHz
TONE = array("h", [int(8000 * math.sin(2 * math.pi * 220 * i / 16000)) for i in range(CHUNK)])


def _mic(qtbot):
    made: list = []
    mic = fed_mic.factory(made)(None)
    said: list[bool] = []
    mic.muted.connect(said.append)
    mic.start()
    return mic, said


def _zeros(mic, seconds: float) -> None:
    for _ in range(int(seconds * 10)):
        mic.feed(array("h", [0, 1, -1, 0] * (CHUNK // 4)))  # a dither's last bit at most


def test_zeros_from_the_start_are_a_muted_microphone_until_a_sound(qtbot):
    mic, said = _mic(qtbot)
    _zeros(mic, MUTED_SECONDS - 0.5)
    assert said == []
    _zeros(mic, 1.0)
    assert said == [True]
    mic.feed(TONE)
    assert said == [True, False]


def test_zeros_after_a_sound_are_no_mute(qtbot):
    mic, said = _mic(qtbot)
    mic.feed(TONE)
    _zeros(mic, 3 * MUTED_SECONDS)
    assert said == []
