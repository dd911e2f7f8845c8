"""Rules of the day (DAY.md) that a hand-made break of the code showed untested: the
start that matches a round of the day only, the late note's two minutes, the newest of
several owed reminders, and the before-round window's edge."""

from __future__ import annotations

import datetime as dt

from companion.core.day import actions
from companion.core.day.loops import add_round, create_loop, get_round
from companion.core.day.model import BeforeItem, DayRules, Due, late_note, reminders_to_send

TZ = dt.timezone(dt.timedelta(hours=1))
NOW = dt.datetime(2026, 12, 2, 9, 0, tzinfo=TZ)


def test_a_start_matches_a_scheduled_round_of_today_only(db):
    """A coding round scheduled tomorrow is not the one a Start of coding today starts:
    today's Start is a new round, and tomorrow's stays scheduled."""
    loop = create_loop(db, "Acme", starts_on=NOW.date().isoformat())
    tomorrow = add_round(db, loop, "coding", scheduled_at=NOW + dt.timedelta(days=1))
    view = actions.load_view(db, DayRules(), NOW, loop)
    outcome = actions.start(db, view, NOW, round_type="coding")
    assert outcome.changed and outcome.round_id != tomorrow
    assert get_round(db, tomorrow).started_at is None
    today = add_round(db, loop, "coding", scheduled_at=NOW + dt.timedelta(hours=2))
    view = actions.load_view(db, DayRules(), NOW + dt.timedelta(hours=2), loop)
    assert (
        actions.start(db, view, NOW + dt.timedelta(hours=2), round_type="coding").round_id == today
    )


def _due(at: dt.datetime) -> Due:
    return Due("k", "before-round", "Coding in 5 min", "", at, at + dt.timedelta(hours=1))


def test_a_reminder_says_its_time_only_when_more_than_two_minutes_late():
    due = _due(NOW)
    assert late_note(due, NOW + dt.timedelta(minutes=2)) == ""
    assert late_note(due, NOW + dt.timedelta(minutes=2, seconds=1)) == " (due at 09:00)"


def test_of_several_owed_reminders_for_a_round_only_the_newest_is_sent(db):
    """The app was closed through 15, 10 and 7 minutes before the round: one reminder,
    the 7-minute one, not three at once and not the stalest."""
    loop = create_loop(db, "Acme", starts_on=NOW.date().isoformat())
    start = NOW + dt.timedelta(minutes=20)
    add_round(db, loop, "coding", scheduled_at=start)
    rules = DayRules(
        before=tuple(BeforeItem(m, f"step {m}") for m in (15, 10, 7)), start_soon=dt.timedelta(0)
    )
    view = actions.load_view(db, rules, start - dt.timedelta(minutes=6), loop)
    sent = reminders_to_send(view, set())
    assert [d.key.rsplit(":", 1)[-1] for d in sent if d.kind == "before-round"] == ["7"]


def test_the_before_round_phase_begins_exactly_its_window_before_the_start(db):
    loop = create_loop(db, "Acme", starts_on=NOW.date().isoformat())
    start = NOW + dt.timedelta(hours=1)
    add_round(db, loop, "coding", scheduled_at=start)
    rules = DayRules()
    edge = start - rules.before_window
    assert actions.load_view(db, rules, edge, loop).phase == "before-round"
    assert (
        actions.load_view(db, rules, edge - dt.timedelta(seconds=1), loop).phase != "before-round"
    )


def test_an_end_on_a_round_never_started_dates_its_start_from_the_schedule(db):
    """End pressed on a scheduled round no one started: it ran from its scheduled time
    (not from the press), so its length and the capture's window are right."""
    loop = create_loop(db, "Acme", starts_on=NOW.date().isoformat())
    held = add_round(db, loop, "coding", scheduled_at=NOW)
    later = NOW + dt.timedelta(minutes=50)
    assert actions.end(db, held, later).changed
    assert get_round(db, held).started == NOW and get_round(db, held).ended == later
    early = add_round(db, loop, "design", scheduled_at=later + dt.timedelta(hours=1))
    actions.end(db, early, later)  # ended before its time: it started at the press
    assert get_round(db, early).started == later
