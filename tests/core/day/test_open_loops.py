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
