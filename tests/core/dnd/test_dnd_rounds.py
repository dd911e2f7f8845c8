"""Do-not-disturb around rounds: a choice made before the round waits for its start, and
a pause restored at a restart mid-round is made again (#41)."""

from __future__ import annotations

import datetime as dt

import pytest

from companion.core.day.loops import add_round, create_loop, list_rounds
from companion.core.day.model import day_view
from companion.core.day.rules import day_rules
from companion.core.dnd.record import Hold
from companion.core.dnd.rounds import dnd_step, round_running

TZ = dt.timezone(dt.timedelta(hours=1))
TEN = dt.datetime(2026, 12, 2, 10, 0, tzinfo=TZ)


@pytest.fixture
def day(db, content):
    """The day at a moment: one 45-minute coding round at 10:00."""
    loop = create_loop(db, "Acme", starts_on="2026-12-02")
    add_round(db, loop, "coding", scheduled_at=TEN)
    rules = day_rules(content)
    return lambda now: day_view(None, list_rounds(db, loop), rules, now)


def _hold(round_id: int, holder: str = "app") -> Hold:
    return Hold(adapter="gnome", prior={}, since="", holder=holder, pid=1, round_id=round_id)


def test_a_choice_made_13_minutes_early_waits_for_the_round(day):
    early = day(TEN - dt.timedelta(minutes=13))
    rid = early.next.id
    assert dnd_step(early, None, auto=False, chosen_round=rid) == ("", 0)  # not yet
    running = day(TEN + dt.timedelta(minutes=1))
    assert dnd_step(running, None, auto=False, chosen_round=rid) == ("on", rid)
    assert dnd_step(running, None, auto=False, chosen_round=0) == ("", 0)  # not asked
    assert dnd_step(running, None, auto=True, chosen_round=0) == ("on", rid)


def test_after_a_restart_mid_round_the_pause_is_made_again_and_ends_with_the_round(day):
    mid = day(TEN + dt.timedelta(minutes=20))
    rid = mid.current.id
    # start-up restored notifications (no hold): the choice stands for the rest of the round
    assert dnd_step(mid, None, auto=False, chosen_round=rid) == ("on", rid)
    assert dnd_step(mid, _hold(rid), auto=False, chosen_round=rid) == ("", 0)  # held
    over = day(TEN + dt.timedelta(hours=3))
    assert dnd_step(over, _hold(rid), auto=False, chosen_round=rid) == ("off", 0)
    assert dnd_step(over, None, auto=False, chosen_round=rid) == ("", 0)
    assert dnd_step(over, _hold(rid, "cli"), auto=False, chosen_round=rid) == ("", 0)


def test_round_running_counts_from_the_pressed_start_else_the_scheduled_one():
    assert not round_running(None, TEN, None, TEN - dt.timedelta(minutes=13))
    assert round_running(None, TEN, None, TEN)
    assert round_running(TEN - dt.timedelta(minutes=5), TEN, None, TEN - dt.timedelta(minutes=1))
    assert not round_running(None, TEN, TEN + dt.timedelta(minutes=30), TEN + dt.timedelta(hours=1))
    assert not round_running(None, None, None, TEN)
