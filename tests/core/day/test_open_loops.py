"""Which loops the day names (Today's title): every loop with a round to come, and a loop
whose rounds are over only while something of it is open (its capture, its thank-you)."""

from __future__ import annotations

import datetime as dt

import pytest
from scripted_calendar import DAY, NEXT_WEEK, book, local

from companion.core.day import actions
from companion.core.day.rules import day_rules
from companion.core.journal.thankyou import save_thank_you


@pytest.fixture
def rules(content):
    return day_rules(content)


def _named(db, rules, moment) -> list[str]:
    return [lp.company for lp in actions.load_view(db, rules, moment).open_loops()]


def test_a_loop_is_named_while_anything_of_it_is_open(db, rules):
    booked = book(db)
    assert _named(db, rules, local(DAY, 9)) == ["Northwind", "Cobalt", "Driftwood"]
    # Northwind is over: its thank-you keeps it in the day, after the loops to come
    assert _named(db, rules, local(DAY, 15)) == ["Cobalt", "Driftwood", "Northwind"]
    after = local(DAY + dt.timedelta(days=1), 11)
    assert _named(db, rules, after) == ["Driftwood", "Northwind", "Cobalt"]
    save_thank_you(db, booked["Northwind"][0], sent_at=after)
    assert _named(db, rules, after) == ["Driftwood", "Cobalt"]  # its note is sent
    # a week on, both thank-yous are past their window: the night of Driftwood's round
    assert _named(db, rules, local(NEXT_WEEK, 0, 45)) == ["Driftwood"]


def test_the_night_and_the_morning_are_one_list_for_a_day_of_two_loops(db, rules):
    """A tick made in the morning (Northwind's onsite first) is still there when Cobalt's
    screen is the round to come; each round keeps its own before-round list."""
    from companion.core.day import checklist as cl

    booked = book(db)
    northwind, cobalt = booked["Northwind"][0], booked["Cobalt"][0]
    morning = actions.load_view(db, rules, local(DAY, 8))
    scope = cl.scope_for("morning-of", morning)
    assert scope == cl.Scope(northwind, DAY.isoformat())
    cl.set_checked(db, scope, "morning-of/eat", True, morning.now)
    later = actions.load_view(db, rules, local(DAY, 15, 50))
    assert later.focus.round.loop_id == cobalt
    assert cl.scope_for("morning-of", later) == scope
    assert cl.scope_for("night-before", later) == scope
    assert "morning-of/eat" in cl.checked_keys(db, cl.scope_for("morning-of", later))
    assert cl.scope_for("before-round", later) == cl.Scope(cobalt, DAY.isoformat(), later.focus.id)
    assert [lp.company for lp in cl.day_loops(later)] == ["Northwind", "Cobalt"]


def test_a_loop_over_keeps_its_after_loop_list_while_another_loops_round_comes(db, rules):
    """15:00: Northwind's last round ended at 14:45, Cobalt's screen is at 16:00. Its
    after-loop ticks were kept under Cobalt's loop (the focus), where the write-down tick
    that follows the day read Cobalt's captures."""
    from companion.core.day import checklist as cl

    booked = book(db)
    northwind, cobalt = booked["Northwind"][0], booked["Cobalt"][0]
    between = actions.load_view(db, rules, local(DAY, 15))
    assert between.phase == "between-rounds" and between.after_loop.company == "Northwind"
    assert cl.scope_for("after-loop", between) == cl.Scope(northwind, DAY.isoformat())
    assert between.after_loop_last.id == booked["Northwind"][1][-1]  # its write-down
    # once Cobalt's loop is over too, the list is Cobalt's, on its day
    evening = actions.load_view(db, rules, local(DAY, 17))
    assert cl.scope_for("after-loop", evening) == cl.Scope(cobalt, DAY.isoformat())
    # and the next morning, still on the interview day, not the calendar's
    morning = actions.load_view(db, rules, local(DAY + dt.timedelta(days=1), 9))
    assert cl.scope_for("after-loop", morning) == cl.Scope(cobalt, DAY.isoformat())
