"""A loop's status is derived from its rounds; an outcome the user chose is kept."""

from __future__ import annotations

import datetime as dt

import pytest

from companion.core.day.loops import Loop, add_round, create_loop, end_round, get_loop
from companion.core.day.model import DayRules
from companion.core.journal.progress import progress, round_states, shown_status


@pytest.mark.parametrize(
    "states, shown",
    [
        ((), "planned"),
        (("scheduled", "scheduled"), "planned"),
        (("running", "scheduled"), "in progress"),
        (("captured", "scheduled"), "in progress"),
        (("ended", "captured", "skipped"), "done"),
    ],
)
def test_progress(states, shown):
    assert progress(states) == shown


def test_outcomes_and_loops_without_rounds_keep_their_status():
    loop = Loop(1, "Acme", "", None, None, "offer", "")
    assert shown_status(loop, ["scheduled"]) == "offer"
    assert shown_status(Loop(1, "Acme", "", None, None, "done", ""), []) == "done"


def test_rounds_that_ran_by_the_clock_count_as_held(db):
    now = dt.datetime(2026, 12, 2, 15, tzinfo=dt.UTC)
    loop = create_loop(db, "Acme", starts_on="2026-12-02")
    done = add_round(db, loop, "coding", scheduled_at=now - dt.timedelta(hours=3))
    end_round(db, done, now - dt.timedelta(hours=2))
    add_round(db, loop, "design", scheduled_at=now - dt.timedelta(hours=2))  # never pressed
    states = round_states(db, DayRules(), now)
    assert sorted(states[loop]) == ["ended", "ended"]
    assert shown_status(get_loop(db, loop), states[loop]) == "done"  # stored: planned
