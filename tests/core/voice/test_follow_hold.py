"""The live follower (issue 39): a delivery nudge changes at most once per 10 s, the
segment's countdown pauses in silence, and a move read off a tentative hypothesis alone
waits to be confirmed."""

from __future__ import annotations

from array import array

import pytest
import voice_takes as vt

from companion.core.content.plans import FALLBACK_PITCH
from companion.core.voice.delivery import DeliveryLine
from companion.core.voice.follow import PitchFollow
from companion.core.voice.pcm import resample
from companion.core.voice.script import pitch_script
from companion.core.voice.take import read_wav

needs_tools = pytest.mark.skipif(vt.missing_tools() is not None, reason=f"{vt.missing_tools()}")
SILENCE = array("h", bytes(3200))  # 0.1 s at 16 kHz


def _follow() -> PitchFollow:
    return PitchFollow(pitch_script(vt.pitch_page(), plan=FALLBACK_PITCH), 150.0)


def test_a_nudge_near_its_threshold_changes_at_most_once_per_hold():
    from companion.core.voice.follow import NUDGE_HOLD

    follow = _follow()
    shown, changes = "", 0
    for step in range(350):  # 35 s, the pace crossing the threshold every half second
        follow.feed(SILENCE)
        nudge = "Slow down: 190 wpm, your rate is 150" if (step // 5) % 2 else ""
        line = follow._held(DeliveryLine(190.0, 10.0, nudge))
        if line.nudge != shown:
            changes += 1
            shown = line.nudge
    assert 1 <= changes <= 35 / NUDGE_HOLD + 1


@needs_tools
def test_the_countdown_pauses_while_the_candidate_is_silent(tmp_path):
    take = vt.build(tmp_path, "pause", 160, [0.5, vt.PITCH[0][2], 6.0, vt.PITCH[1][2], 0.5])
    audio = read_wav(take.path)
    samples = resample(audio.samples, audio.sample_rate)
    follow = _follow()
    seen = {}
    for i in range(0, len(samples), 1600):
        view = follow.feed(samples[i : i + 1600])
        seen[round(follow.now, 1)] = view
    quiet_from, quiet_to = take.truth[0][1] + 1.5, take.truth[1][0] - 0.2
    a = seen[round(quiet_from, 1)]
    b = seen[round(quiet_to, 1)]
    assert a.segment_id == b.segment_id == "identity"
    assert a.remaining - b.remaining < 0.5  # 4 s of silence spent no budget


def test_a_move_on_a_tentative_hypothesis_alone_waits_to_be_confirmed():
    from companion.core.voice.follow import CONFIRM_SECONDS

    follow = _follow()
    follow._shown = 1  # "Strongest evidence" on the card
    # a hypothesis says "Hand back": the final words do not
    assert not follow._confirmed(4, None)
    for _ in range(int(CONFIRM_SECONDS * 10) + 1):
        follow.recognizer.feed(SILENCE)  # the clock moves on, the hypothesis does not
    assert not follow._confirmed(4, None)  # no newer hypothesis yet
    follow._hypothesis += 1
    assert follow._confirmed(4, None)
