"""The documented 30-minute overrun, by the day's own view: a round you started runs on
until End or 30 minutes past its length; a round never started ends on time."""

from __future__ import annotations

import datetime as dt

import pytest

from companion.core.day import actions
from companion.core.day.loops import add_round, create_loop, update_round
from companion.core.day.rules import day_rules

TZ = dt.timezone(dt.timedelta(hours=1))
NINE = dt.datetime(2026, 12, 2, 9, 0, tzinfo=TZ)
SECOND = dt.timedelta(seconds=1)


@pytest.fixture
def rules(content):
    return day_rules(content)


@pytest.fixture
def round_id(db):
    loop = create_loop(db, "Acme", starts_on="2026-12-02")
    rid = add_round(db, loop, "coding", scheduled_at=NINE)
    update_round(db, rid, length_minutes=45)
    return rid


def _state(db, rules, rid, moment) -> str:
    view = actions.load_view(db, rules, moment)
    return next(r.state for r in view.rounds if r.id == rid)


def test_a_started_round_runs_until_thirty_minutes_past_its_length(db, rules, round_id):
    actions.start(db, actions.load_view(db, rules, NINE), NINE, round_id=round_id)
    end = NINE + dt.timedelta(minutes=45)
    assert _state(db, rules, round_id, end + dt.timedelta(minutes=29, seconds=59)) == "running"
    assert _state(db, rules, round_id, end + dt.timedelta(minutes=30)) == "ended"


def test_a_round_never_started_ends_on_time(db, rules, round_id):
    end = NINE + dt.timedelta(minutes=45)
    assert _state(db, rules, round_id, end - SECOND) == "running"
    assert _state(db, rules, round_id, end) == "ended"


def test_end_ends_a_started_round_at_once(db, rules, round_id):
    actions.start(db, actions.load_view(db, rules, NINE), NINE, round_id=round_id)
    ten = NINE + dt.timedelta(minutes=60)
    actions.end(db, round_id, ten)
    assert _state(db, rules, round_id, ten + SECOND) == "ended"
