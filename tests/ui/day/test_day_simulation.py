"""A whole simulated interview day through the running pieces: the day service, Today,
Checklist and the cue card, six rounds started and ended from the card and from Today
(``benchmarks/day_simulation.py``, which the all-day benchmark measures too)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

# one simulated day for both tests: kept on one xdist worker
pytestmark = [pytest.mark.gui, pytest.mark.xdist_group("day_simulation")]

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "benchmarks"))


@pytest.fixture(scope="module")
def day(qapp, tmp_path_factory):
    """One simulated day for the module (each costs tens of seconds of CPU): its result
    and the log records at ERROR or above it wrote."""
    import logging

    from day_simulation import simulate

    class Errors(logging.Handler):
        def __init__(self):
            super().__init__(logging.ERROR)
            self.records: list[logging.LogRecord] = []

        def emit(self, record):
            self.records.append(record)

    errors = Errors()
    root = logging.getLogger()
    root.addHandler(errors)
    try:
        # the countdown ticks every 10 s (the benchmark ticks every second)
        result = simulate(tmp_path_factory.mktemp("day"), card_ticks_per_minute=6)
    finally:
        root.removeHandler(errors)
    return result, errors.records


@pytest.mark.qt_log_ignore("This plugin does not support")  # offscreen: raise(), size hints
def test_a_twelve_hour_day_sends_each_reminder_once(day):
    result, errors = day
    assert result["duplicates"] == []  # every reminder once
    # the evening and morning have passed before 07:00; from then on, per round: the
    # before-round steps, the one-minute warning and the capture, and the thank-you
    assert result["reminders"] >= 6 * 3
    assert result["round_over"] == 6  # do-not-disturb restored after each round
    assert result["captures"] == result["round_ids"]  # the capture opened once per round
    assert result["dnd_restored"] and result["phase"] == "after-loop"
    assert not errors, [r.getMessage() for r in errors]


@pytest.mark.qt_log_ignore("This plugin does not support")
def test_every_page_shows_the_same_round_through_the_day(day):
    result, _errors = day
    types = result["types"]
    for step in result["seen"]:
        n = step["round"]
        if step["at"] == "before":
            # five minutes before: its list is up everywhere, the card shows that round
            assert step["phase"] == "before-round", step
            assert step["today"] == "Now: before the round", step
            assert step["checklist_now"].endswith("— now"), step
            assert step["card_type"] == types[n] and not step["card_running"], step
        else:
            assert step["phase"] == "in-round", step
            assert step["today"] == "Now: in the round", step
            assert step["card_type"] == types[n] and step["card_running"], step
    assert len(result["seen"]) == 2 * result["rounds"]
