"""Loops and rounds: the rows every feature shares."""

from __future__ import annotations

import datetime as dt

from companion.core.day import loops


def test_loop_label_names_company_role_and_first_day(db):
    full = loops.get_loop(db, loops.create_loop(db, "Acme", "SRE", starts_on="2026-12-02"))
    bare = loops.get_loop(db, loops.create_loop(db, "Initech"))
    assert full.label == "Acme — SRE (2026-12-02)"
    assert bare.label == "Initech"


def test_current_loop_prefers_today_then_the_next_one(db):
    past = loops.create_loop(db, "Past", starts_on="2026-11-20", ends_on="2026-11-21")
    later = loops.create_loop(db, "Later", starts_on="2026-12-20")
    soon = loops.create_loop(db, "Soon", starts_on="2026-12-05")
    assert loops.current_loop(db, dt.date(2026, 12, 1)).id == soon
    today = loops.create_loop(db, "Today", starts_on="2026-12-01", ends_on="2026-12-02")
    assert loops.current_loop(db, dt.date(2026, 12, 2)).id == today
    assert loops.current_loop(db, dt.date(2027, 1, 1)).id == later  # else the most recent
    assert loops.current_loop(db, dt.date(2026, 11, 21)).id == past
