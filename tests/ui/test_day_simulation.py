"""A whole simulated interview day through the running pieces: the day service, Today,
Checklist and the cue card, six rounds started and ended from the card and from Today
(``benchmarks/day_simulation.py``, which the all-day benchmark measures too)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.gui

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))


@pytest.mark.qt_log_ignore("This plugin does not support")  # offscreen: raise(), size hints
def test_a_twelve_hour_day_sends_each_reminder_once(qapp, tmp_path, caplog):
    from day_simulation import simulate

    result = simulate(tmp_path)
    assert result["duplicates"] == []  # every reminder once
    # the evening and morning have passed before 07:00; from then on, per round: the
    # before-round steps, the one-minute warning and the capture, and the thank-you
    assert result["reminders"] >= 6 * 3
    assert result["round_over"] == 6  # do-not-disturb restored after each round
    assert result["captures"] == result["round_ids"]  # the capture opened once per round
    assert result["dnd_restored"] and result["phase"] == "after-loop"
    assert not [r for r in caplog.records if r.levelname in ("ERROR", "CRITICAL")]
