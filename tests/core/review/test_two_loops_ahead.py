"""FSRS with two loops ahead: the cap looked only at the loop right after the last
review, so a card reviewed before loop A and due after loop B's first round dropped off
the list between A and B without a word."""

from __future__ import annotations

import datetime as dt

from companion.core.day.loops import add_round, create_loop
from companion.core.review import cards as review
from companion.core.review.deadline import effective_due, loop_starts

DAY = dt.timedelta(days=1)


def _loop(db, company: str, start: dt.datetime) -> None:
    loop_id = create_loop(db, company, "SRE", starts_on=start.date().isoformat())
    add_round(db, loop_id, "coding", scheduled_at=start)


def test_between_two_loops_a_card_is_due_before_the_second(db, clock):
    for _ in range(4):  # a mature card: FSRS's interval grows past weeks
        card = review.rate(db, "quiz", "q1", "Question 1?", "good", clock.now(), "quiz")
        clock.advance(days=12)
    card = review.rate(db, "quiz", "q1", "Question 1?", "good", clock.now(), "quiz")
    a = clock.now() + 3 * DAY
    b = a + 7 * DAY  # two loops a week apart
    _loop(db, "Acme", a)
    _loop(db, "Beta", b)
    assert card.due > b, "FSRS alone schedules it after both loops"
    between = a + 2 * DAY
    due = effective_due(card, loop_starts(db), between)
    assert due < b, "capped by the loop still ahead"
    assert due >= card.last_review
