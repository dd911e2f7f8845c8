"""A loop's status is derived from its rounds; an outcome the user chose is kept."""

from __future__ import annotations

import datetime as dt

import pytest

from companion.core.day.actions import round_states, skip
from companion.core.day.loops import (
    Loop,
    add_round,
    create_loop,
    end_round,
    get_loop,
    list_rounds,
    start_round,
    update_round,
)
from companion.core.day.model import DayRules, day_round
from companion.core.journal.progress import progress, shown_status
from companion.core.timeutil import to_stored


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


def test_the_grouped_count_gives_each_round_the_state_the_day_gives_it(db):
    """round_states counts pressed-ended rounds in SQL: the count must agree with the
    day's own rule (day_round) for every kind of round, skipped and running too."""
    now = dt.datetime(2026, 12, 2, 15, tzinfo=dt.UTC)
    loop = create_loop(db, "Acme", starts_on="2026-12-02")
    ended = add_round(db, loop, "coding", scheduled_at=now - dt.timedelta(hours=3))
    end_round(db, ended, now - dt.timedelta(hours=2))
    both = add_round(db, loop, "design", scheduled_at=now - dt.timedelta(hours=2))
    end_round(db, both, now - dt.timedelta(hours=1))
    update_round(db, both, skipped_at=to_stored(now))  # an imported row: skipped wins
    skip(db, add_round(db, loop, "hr", scheduled_at=now + dt.timedelta(hours=2)), now)
    running = add_round(db, loop, "behavioral", scheduled_at=now - dt.timedelta(minutes=5))
    start_round(db, "behavioral", now - dt.timedelta(minutes=5), round_id=running)
    add_round(db, loop, "system-design", scheduled_at=now + dt.timedelta(hours=1))
    add_round(db, loop, "hr")  # no time
    rules = DayRules()
    by_day = sorted(day_round(r, rules, now, False).state for r in list_rounds(db, loop))
    assert sorted(round_states(db, rules, now)[loop]) == by_day
    assert by_day == ["ended", "running", "scheduled", "scheduled", "skipped", "skipped"]
