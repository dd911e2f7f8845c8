"""A reminder as the desktop shows it: the real time left (rounded as the Today header
rounds), one slot per round so a newer step replaces the shown one, an expiry, and
taken down once its round starts."""

from __future__ import annotations

import datetime as dt

import pytest

from companion.core.day.loops import Round
from companion.core.day.model import DayRules, Due, day_view, reminders_to_send
from companion.core.day.notices import MAX_SHOWN, notice_for, stale
from companion.core.day.schedule import countdown_text
from companion.core.timeutil import to_stored

TZ = dt.timezone(dt.timedelta(hours=1))
START = dt.datetime(2026, 12, 2, 11, 52, tzinfo=TZ)
RULES = DayRules(
    titles={"coding": "Coding"},
    lengths={"coding": 45},
    before=(),
)


def _round(**times) -> Round:
    values = {"started_at": None, "ended_at": None}
    values.update({k: to_stored(v) if v else None for k, v in times.items()})
    return Round(1, 1, "coding", "", "Priya", to_stored(START), notes="", **values)


def _view(now, rnd=None, rules=None):
    from companion.core.day.model import BeforeItem

    rules = rules or DayRules(
        titles={"coding": "Coding"},
        lengths={"coding": 45},
        before=(BeforeItem(15, "Water"), BeforeItem(10, "Notebook"), BeforeItem(5, "Breathe")),
    )
    return day_view(None, [rnd or _round()], rules, now)


def test_a_late_reminder_says_the_real_time_left_as_the_header_does():
    # the 5-minute step, sent at 11:48:54 after an edit: 3 min 6 s are left
    now = START - dt.timedelta(minutes=3, seconds=6)
    view = _view(now)
    (due,) = [d for d in reminders_to_send(view, set()) if d.kind == "before-round"]
    notice = notice_for(due, view)
    assert notice.title == f"Coding round {countdown_text(START - now)} (11:52)"
    assert notice.title == "Coding round in 4 min (11:52)"
    assert "due at" not in notice.body


def test_an_on_time_step_keeps_its_minutes():
    now = START - dt.timedelta(minutes=10) + dt.timedelta(milliseconds=50)  # the timer's lag
    view = _view(now)
    (due,) = [d for d in reminders_to_send(view, set()) if d.kind == "before-round"]
    assert notice_for(due, view).title == "Coding round in 10 min (11:52)"


def test_every_step_of_a_round_shares_one_slot_and_expires():
    slots, expiries = set(), []
    for minutes in (15, 10, 5, 1):
        now = START - dt.timedelta(minutes=minutes)
        view = _view(now)
        for due in reminders_to_send(view, set()):
            notice = notice_for(due, view)
            slots.add(notice.slot)
            expiries.append(notice.expire_ms)
    assert slots == {"before:1"}  # the 10-minute step replaces the 15-minute one, ...
    assert all(0 < ms <= MAX_SHOWN.total_seconds() * 1000 for ms in expiries)


def test_a_rounds_reminder_is_stale_once_the_round_starts_or_ends():
    now = START - dt.timedelta(minutes=1)
    view = _view(now)
    (soon,) = [d for d in reminders_to_send(view, set()) if d.kind == "start-soon"]
    notice = notice_for(soon, view)
    assert notice.title == "Coding round starts in 1 min (11:52)"
    assert not stale(notice, view)
    assert stale(notice, _view(START + dt.timedelta(seconds=1)))  # by the clock
    pressed = _round(started_at=now)
    assert stale(notice, _view(now, pressed))  # Start pressed early
    assert stale(notice, day_view(None, [], RULES, now))  # the round is gone


@pytest.mark.parametrize("left", [dt.timedelta(0), dt.timedelta(seconds=-30)])
def test_the_expiry_is_never_zero(left):
    now = START
    due = Due(
        "k", "thank-you", "Thank-you note", "Send it.", now - dt.timedelta(hours=1), now + left
    )
    notice = notice_for(due, day_view(None, [], RULES, now))
    assert notice.expire_ms > 0 and notice.slot == "k" and not notice.round_id
