"""The after-loop phase, without Qt: it follows the loop's last round, captured or not,
for the rules' 48 hours, then the day has nothing to say."""

from __future__ import annotations

import datetime as dt

import pytest

from companion.core.day import actions
from companion.core.day.loops import create_loop, end_round, start_round
from companion.core.day.rules import day_rules
from companion.core.journal import entries as journal

TZ = dt.timezone(dt.timedelta(hours=1))
END = dt.datetime(2026, 12, 2, 12, 0, tzinfo=TZ)


@pytest.fixture
def rules(content):
    return day_rules(content)


@pytest.fixture
def last_round(db):
    loop = create_loop(db, "Acme", starts_on="2026-12-02")
    rid = start_round(db, "coding", END - dt.timedelta(minutes=45), loop_id=loop)
    end_round(db, rid, END)
    return loop, rid


def _phase(db, rules, loop, moment):
    return actions.load_view(db, rules, moment, loop).phase


def test_a_captured_last_round_keeps_the_loop_in_after_loop(db, rules, last_round):
    loop, rid = last_round
    journal.add_asked(db, loop, rid, "Implement an LRU cache")
    view = actions.load_view(db, rules, END + dt.timedelta(hours=2), loop)
    assert view.round(rid).state == "captured"
    assert view.phase == "after-loop" and view.day == END.date()


def test_an_uncaptured_last_round_is_after_loop_too(db, rules, last_round):
    loop, rid = last_round
    view = actions.load_view(db, rules, END + dt.timedelta(minutes=5), loop)
    assert view.round(rid).state == "ended" and view.phase == "after-loop"


@pytest.mark.parametrize("captured", [False, True])
def test_after_loop_lasts_the_rules_48_hours(db, rules, last_round, captured):
    loop, rid = last_round
    if captured:
        journal.add_went_well(db, loop, rid, "Rapport")
    assert rules.after_loop_for == dt.timedelta(hours=48)
    assert _phase(db, rules, loop, END + dt.timedelta(hours=47, minutes=59)) == "after-loop"
    assert _phase(db, rules, loop, END + dt.timedelta(hours=48)) == "after-loop"
    assert _phase(db, rules, loop, END + dt.timedelta(hours=48, minutes=1)) == "none"
    # the view wakes when it ends, so the day moves on without a page asking
    view = actions.load_view(db, rules, END + dt.timedelta(hours=47), loop)
    assert view.next_change is not None and view.next_change <= END + dt.timedelta(hours=48)
