"""The day's phases, countdown and reminders, driven by a fake clock."""

from __future__ import annotations

import datetime as dt

import pytest

from companion.core.day import schedule as sch
from companion.core.day.loops import add_round, create_loop, end_round, list_rounds, start_round

TZ = dt.timezone(dt.timedelta(hours=1))


def at(day: int, hour: int, minute: int = 0) -> dt.datetime:
    return dt.datetime(2026, 12, day, hour, minute, tzinfo=TZ)


@pytest.fixture
def loop(db):
    loop_id = create_loop(db, "Acme", starts_on="2026-12-02")
    add_round(db, loop_id, "coding", scheduled_at=at(2, 10))
    add_round(db, loop_id, "design", scheduled_at=at(2, 11, 30))
    add_round(db, loop_id, "hiring-manager", scheduled_at=at(2, 14))
    return loop_id


LENGTHS = {"coding": 45, "design": 45}


def walk(db, loop_id, clock, moment):
    clock.set(moment)
    return sch.situation(list_rounds(db, loop_id), clock.now(), LENGTHS)


def test_the_whole_day_with_a_controlled_clock(db, loop, clock):
    s = walk(db, loop, clock, at(1, 9))
    assert s.phase is None and s.next_round.type == "coding"
    assert s.starts_in == dt.timedelta(hours=25) and s.day == dt.date(2026, 12, 2)

    s = walk(db, loop, clock, at(1, 16, 59))
    assert s.phase is None
    s = walk(db, loop, clock, at(1, 17))
    assert s.phase == "night-before" and s.day == dt.date(2026, 12, 2)

    s = walk(db, loop, clock, at(2, 4, 59))
    assert s.phase is None
    s = walk(db, loop, clock, at(2, 7))
    assert s.phase == "morning-of" and s.round.type == "coding"

    s = walk(db, loop, clock, at(2, 9, 45))
    assert s.phase == "before-round" and s.starts_in == dt.timedelta(minutes=15)

    s = walk(db, loop, clock, at(2, 10, 5))
    assert s.phase == sch.IN_ROUND and s.round.type == "coding"
    assert s.next_round.type == "design"

    s = walk(db, loop, clock, at(2, 10, 50))  # coding took 45 min: between rounds
    assert s.phase is None and s.next_round.type == "design"
    s = walk(db, loop, clock, at(2, 11, 20))
    assert s.phase == "before-round" and s.round.type == "design"

    s = walk(db, loop, clock, at(2, 15, 1))
    assert s.phase == "after-loop" and s.day == dt.date(2026, 12, 2)
    s = walk(db, loop, clock, at(4, 15, 1))
    assert s.phase is None and s.round is None


def test_started_and_ended_rounds_from_the_cue_card(db, loop, clock):
    first = list_rounds(db, loop)[0]
    start_round(db, "coding", at(2, 10, 3), loop_id=loop, round_id=first.id)
    s = walk(db, loop, clock, at(2, 11, 0))  # ran long: still in the round
    assert s.phase == sch.IN_ROUND and s.round.id == first.id
    end_round(db, first.id, at(2, 11, 2))
    s = walk(db, loop, clock, at(2, 11, 5))
    assert s.phase is None and s.next_round.type == "design"


def test_no_rounds_is_an_empty_day(clock):
    s = sch.situation([], clock.now())
    assert s == sch.Situation(None, None, None, None, clock.now().date())


def test_reminders_ten_minutes_before_and_phases(db, loop, clock):
    titles = {"coding": "Coding", "design": "System design"}
    rounds = list_rounds(db, loop)
    assert sch.due_reminders(rounds, at(2, 9, 49), titles=titles, lengths=LENGTHS) == []
    due = sch.due_reminders(rounds, at(2, 9, 50), titles=titles, lengths=LENGTHS)
    warm = [r for r in due if r.phase == "before-round"]
    assert len(warm) == 1
    assert warm[0].title == "Coding round in 10 min (10:00)"
    assert "read your pitch aloud once" in warm[0].message and "Bathroom" in warm[0].message
    assert warm[0].key == f"before-round:{rounds[0].id}:{rounds[0].scheduled_at}"

    night = sch.due_reminders(rounds, at(1, 20), titles=titles)
    assert [r.phase for r in night] == ["night-before"]
    assert night[0].key == "night-before:2026-12-02"
    morning = sch.due_reminders(rounds, at(2, 7), titles=titles)
    assert [r.phase for r in morning] == ["morning-of"]
    after = sch.due_reminders(rounds, at(2, 15, 30), titles=titles)
    assert [r.phase for r in after] == ["after-loop"]
    assert sch.due_reminders(rounds, at(2, 19), titles=titles) == []  # too late to nag


def test_rescheduling_gives_a_new_reminder_key(db, loop):
    from companion.core.day.loops import update_round
    from companion.core.timeutil import to_stored as iso

    first = list_rounds(db, loop)[0]
    before = sch.due_reminders([first], at(2, 9, 55))[0].key
    update_round(db, first.id, scheduled_at=iso(at(2, 10, 30)))
    moved = list_rounds(db, loop)[0]
    assert sch.due_reminders([moved], at(2, 10, 25))[0].key != before


@pytest.mark.parametrize(
    ("seconds", "text"),
    [
        (0, "now"),
        (-5, "now"),
        (65, "in 1 min 05 s"),
        (600, "in 10 min"),
        (3900, "in 1 h 05 min"),
        (90000, "in 1 d 1 h"),
    ],
)
def test_countdown_text(seconds, text):
    assert sch.countdown_text(dt.timedelta(seconds=seconds)) == text


def test_clock_text_names_the_day_when_not_today():
    assert sch.clock_text(at(2, 10), at(2, 8)) == "10:00"
    assert sch.clock_text(at(2, 10), at(1, 8)) == "Wed 2 Dec 10:00"


def test_round_lengths_and_type_guess(content):
    lengths = sch.round_lengths(content.by_kind("rounds"))
    assert lengths["coding"] == 45
    types = [(t.id, t.title) for t in content.round_types()]
    assert sch.guess_round_type("Acme: System Design interview", types) == "design"
    assert sch.guess_round_type("Coding with Sam", types) == "coding"
    assert sch.guess_round_type("Chat with the hiring manager", types) == "hiring-manager"
    assert sch.guess_round_type("Lunch", types) == ""


def test_import_events_skips_duplicates_and_all_day(db, loop):
    from companion.core.day.ics import IcsEvent

    events = [
        IcsEvent("Coding", at(2, 10), 3),  # already scheduled
        IcsEvent("System design", at(3, 9), 9),
        IcsEvent("Onsite day", at(3, 0), 15, all_day=True),
    ]
    result = sch.import_events(db, loop, events, types=[("design", "System design")])
    assert (result.added, result.duplicates) == (1, 1)
    assert "Line 15" in result.messages[0] and "all-day" in result.messages[0]
    again = sch.import_events(db, loop, events, types=[("design", "System design")])
    assert again.added == 0 and again.duplicates == 2
    assert [r.type for r in list_rounds(db, loop)][-1] == "design"
