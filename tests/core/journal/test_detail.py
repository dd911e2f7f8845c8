"""A loop as the Journal shows it: rounds in time order, and the questions asked them."""

from __future__ import annotations

import datetime as dt

from companion.core.day.loops import add_round, create_loop, start_round
from companion.core.journal.detail import loop_detail
from companion.core.selfcheck.planner import record_asked


def test_rounds_are_in_the_order_they_happened(db):
    day = dt.datetime(2026, 3, 2)
    loop = create_loop(db, "Acme", starts_on="2026-03-02")
    late = add_round(db, loop, "design", scheduled_at=day.replace(hour=13, minute=40))
    # planned for 14:00, started early at 12:31: it happened first
    early = add_round(db, loop, "coding", scheduled_at=day.replace(hour=14))
    start_round(db, "coding", day.replace(hour=12, minute=31), loop_id=loop, round_id=early)
    unplanned = add_round(db, loop, "behavioral")  # no time at all: last
    detail = loop_detail(db, loop)
    assert [g.round.id for g in detail.rounds] == [early, late, unplanned]


def test_the_questions_asked_them_are_in_their_round(db):
    day = dt.datetime(2026, 3, 2, 9)
    loop = create_loop(db, "Acme", starts_on="2026-03-02")
    rnd = add_round(db, loop, "design", scheduled_at=day)
    record_asked(db, loop, "What does success look like?", "peer", rnd, day)
    record_asked(db, loop, "How is on-call shared?", "peer", None, day)
    detail = loop_detail(db, loop)
    by_round = {g.round.id if g.round else None: g for g in detail.rounds}
    assert [q.text for q in by_round[rnd].asked_them] == ["What does success look like?"]
    assert [q.text for q in by_round[None].asked_them] == ["How is on-call shared?"]
