"""Clock and countdown texts, round-type guesses and calendar events made into rounds.

The day's phases and reminders are tested in test_day_model.py."""

from __future__ import annotations

import datetime as dt

import pytest

from companion.core.day import schedule as sch
from companion.core.day.loops import add_round, create_loop, list_rounds

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


@pytest.mark.parametrize(
    ("seconds", "text"),
    [
        (0, "now"),
        (-5, "now"),
        (45, "in 45 s"),
        (59.95, "in 1 min"),  # a start-soon reminder sent a moment late
        (65, "in 2 min"),  # minutes round up: the text changes as a minute passes
        (370, "in 7 min"),
        (599.9, "in 10 min"),  # the 10-minute reminder, fired just after its mark
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


def test_round_type_guess(content):
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


def test_rescheduling_gives_new_reminder_keys(db, loop, content):
    from companion.core.day.actions import load_view, reschedule
    from companion.core.day.rules import day_rules

    rules = day_rules(content)
    first = list_rounds(db, loop)[0]
    keys = {
        d.key
        for d in load_view(db, rules, at(2, 9, 55)).due
        if d.round_id == first.id and d.kind == "before-round"
    }
    reschedule(db, first.id, at(2, 10, 30))
    moved = {
        d.key
        for d in load_view(db, rules, at(2, 10, 25)).due
        if d.round_id == first.id and d.kind == "before-round"
    }
    assert keys and moved and not keys & moved


def test_an_unknown_event_title_becomes_its_own_round_type(db, loop):
    from companion.core.day.ics import IcsEvent

    events = [IcsEvent("Acme - Bar raiser", at(3, 9), 3)]
    sch.import_events(db, loop, events, types=[("design", "System design")], company="Acme")
    rnd = list_rounds(db, loop)[-1]
    assert (rnd.type, rnd.type_label) == ("bar-raiser", "Bar raiser")


@pytest.mark.parametrize(
    ("label", "title"),
    [
        ("Coding", "Coding round"),
        ("Behavioral interview", "Behavioral interview"),  # not "... interview round"
        ("Recruiter screen", "Recruiter screen"),
        ("Round 2: pairing", "Round 2: pairing"),
        ("Backgrounder", "Backgrounder round"),  # a word, not "round" inside one
    ],
)
def test_a_round_is_named_once(db, label, title):
    loop_id = create_loop(db, "Acme")
    rid = add_round(db, loop_id, "custom")
    db.execute("UPDATE rounds SET type_label = ? WHERE id = ?", [label, rid])
    (rnd,) = list_rounds(db, loop_id)
    assert sch.round_title(rnd) == title


def test_type_names_give_the_pack_title_else_the_rounds_own_words(db):
    from companion.core.day.loops import type_names

    loop_id = create_loop(db, "Acme")
    add_round(db, loop_id, "design")
    rid = add_round(db, loop_id, "ml-infra-deep-dive")
    db.execute("UPDATE rounds SET type_label = 'ML infra deep dive' WHERE id = ?", [rid])
    add_round(db, loop_id, "bar-raiser")  # typed before labels were kept: its id's words
    names = type_names(db, {"design": "System design"})
    assert names == {
        "design": "System design",
        "ml-infra-deep-dive": "ML infra deep dive",
        "bar-raiser": "Bar raiser",
    }
