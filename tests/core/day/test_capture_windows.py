"""The capture reminder after a round had a window that ran out during the next round:
no capture reminder fires inside a round; between rounds it waits for the next break or
the loop's end."""

from __future__ import annotations

import datetime as dt

from companion.core.day import actions
from companion.core.day.loops import add_round, create_loop, end_round, update_round
from companion.core.day.model import reminders_owed
from companion.core.day.rules import day_rules

TZ = dt.timezone(dt.timedelta(hours=1))


def at(hour: int, minute: int = 0) -> dt.datetime:
    return dt.datetime(2026, 12, 2, hour, minute, tzinfo=TZ)


def _captures(db, rules, when):
    view = actions.load_view(db, rules, when)
    return [d for d in reminders_owed(view, set()) if d.kind == "capture"], view


def test_no_capture_reminder_inside_the_next_round_it_waits_for_the_break(db, content):
    rules = day_rules(content)
    loop_id = create_loop(db, "Acme", "SRE", starts_on="2026-12-02")
    first = add_round(db, loop_id, "coding", scheduled_at=at(10))
    second = add_round(db, loop_id, "design", scheduled_at=at(11))
    update_round(db, first, started_at=at(10).isoformat())
    end_round(db, first, at(10, 45))
    owed, _view = _captures(db, rules, at(10, 50))
    assert [d.round_id for d in owed] == [first]  # the break: it fires
    update_round(db, second, started_at=at(11).isoformat())
    owed, view = _captures(db, rules, at(11, 10))
    assert view.current is not None and owed == [], "nothing inside the round"
    end_round(db, second, at(11, 45))
    owed, _view = _captures(db, rules, at(11, 50))
    assert first in [d.round_id for d in owed], "the first round's capture waits for this break"
    assert all(not (at(11) <= d.due_at < at(11, 45)) for d in owed)
