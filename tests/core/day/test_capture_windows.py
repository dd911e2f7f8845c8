"""The capture reminder after a round had a window that ran out during the next round:
no capture reminder fires inside a round; between rounds it waits for the next break or
the loop's end."""

from __future__ import annotations

import datetime as dt

from companion.core.day import actions
from companion.core.day.loops import add_round, create_loop, end_round, update_round
from companion.core.day.model import reminders_owed, reminders_to_send
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


def test_one_capture_notice_at_a_break_names_the_rounds_still_unwritten(db, content):
    rules = day_rules(content)
    loop_id = create_loop(db, "Acme", "SRE", starts_on="2026-12-02")
    ids = [
        add_round(db, loop_id, kind, scheduled_at=at(hour))
        for kind, hour in (("coding", 10), ("design", 11), ("behavioral", 12))
    ]
    for round_id, hour in zip(ids, (10, 11, 12), strict=True):
        update_round(db, round_id, started_at=at(hour).isoformat())
        end_round(db, round_id, at(hour, 45))
    view = actions.load_view(db, rules, at(12, 50))
    owed = [d for d in reminders_owed(view, set()) if d.kind == "capture"]
    assert {d.round_id for d in owed} == set(ids)  # each round is still owed its capture

    sent = [d for d in reminders_to_send(view, set()) if d.kind == "capture"]
    assert [d.round_id for d in sent] == [ids[2]], "one notice, for the round just ended"
    first, second = (view.round(n) for n in ids[:2])
    assert sent[0].text.endswith(
        f"Not written down yet either: {first.title} (10:00), {second.title} (11:00)."
    )


def test_a_single_capture_notice_is_left_as_it_is(db, content):
    rules = day_rules(content)
    loop_id = create_loop(db, "Acme", "SRE", starts_on="2026-12-02")
    only = add_round(db, loop_id, "coding", scheduled_at=at(10))
    update_round(db, only, started_at=at(10).isoformat())
    end_round(db, only, at(10, 45))
    view = actions.load_view(db, rules, at(10, 50))
    sent = [d for d in reminders_to_send(view, set()) if d.kind == "capture"]
    assert sent == [d for d in reminders_owed(view, set()) if d.kind == "capture"]
    assert len(sent) == 1 and "Not written down yet" not in sent[0].text
