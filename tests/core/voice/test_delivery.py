"""The delivery line's pace: measured over the latest speech, not against the clock, so
it holds still once the talk stops, and a pace nudge is only for the answer under way."""

from __future__ import annotations

from companion.core.voice.delivery import delivery_line, pace
from companion.core.voice.recognizer import HeardWord


def _words(start: float, count: int, wpm: float) -> list[HeardWord]:
    step = 60.0 / wpm
    return [
        HeardWord(f"w{n}", start + n * step, start + n * step + step * 0.8) for n in range(count)
    ]


# an answer that starts slowly (100 wpm for 24 s) and ends fast (200 wpm for 12 s)
ANSWER = _words(0.0, 40, 100.0) + _words(24.0, 40, 200.0)
END = ANSWER[-1].end


def test_the_pace_holds_still_once_the_talk_stops():
    """Against the clock, the slow start slid out of the window as the silence went on:
    the figure rose from 133 to 200 wpm with nobody speaking."""
    at_the_end = pace(ANSWER)
    assert at_the_end is not None and 120 < at_the_end < 160
    for later in (5.0, 10.0, 20.0, 29.0):
        line = delivery_line(ANSWER, END + later, calibrated_wpm=140.0)
        assert line.pace_wpm == at_the_end


def test_no_pace_nudge_while_the_interviewer_speaks():
    """The answer ended 6 s ago (past the answer gap): a slow-down nudge now would land
    on the interviewer's question."""
    line = delivery_line(ANSWER, END + 6.0, calibrated_wpm=100.0)
    assert line.answer_seconds is None and line.nudge == ""
    assert line.pace_wpm is not None  # the last answer's pace is still shown


def test_a_fast_answer_under_way_is_told_to_slow_down():
    fast = _words(0.0, 80, 210.0)
    line = delivery_line(fast, fast[-1].end + 0.5, calibrated_wpm=150.0)
    assert line.answer_seconds is not None and round(line.pace_wpm) == 211
    assert line.nudge == "Slow down: 211 wpm, your rate is 150"
