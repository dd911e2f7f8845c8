"""The study list's documented 14-day half-life, seen in how it ranks: a topic's recency
bonus halves every 14 days, so a flub one grade worse keeps its place above today's minor
one for exactly two weeks (README: ``times + 1.5 x worst + 3 x 0.5^(days/14)``)."""

from __future__ import annotations

import datetime as dt

import pytest

from companion.core.day.loops import create_loop
from companion.core.journal import entries as journal
from companion.core.study.ranking import study_list


@pytest.fixture
def loop(db):
    return create_loop(db, "Acme")


def _scores(db, now) -> dict[str, float]:
    return {i.key: i.score for i in study_list(db, now, include_quiz=False)}


def test_the_recency_bonus_halves_every_fourteen_days(db, loop, clock):
    now = clock.now()
    for name, days in (("today", 0), ("two weeks", 14), ("four weeks", 28), ("ages", 3650)):
        journal.add_flub(db, loop, None, name, severity=2, at=now - dt.timedelta(days=days))
    score = _scores(db, now)
    bonus = {key: score[key] - score["ages"] for key in ("today", "two weeks", "four weeks")}
    assert bonus["today"] == pytest.approx(3, rel=1e-3)  # the whole bonus when seen today
    assert bonus["two weeks"] == pytest.approx(bonus["today"] / 2, rel=1e-3)
    assert bonus["four weeks"] == pytest.approx(bonus["today"] / 4, rel=1e-3)


@pytest.mark.parametrize(("days", "first"), [(13, "older worse"), (15, "today minor")])
def test_a_worse_flub_outranks_a_minor_one_from_today_for_two_weeks(db, loop, clock, days, first):
    # today, severity 1: 1 + 1.5 + 3 = 5.5; severity 2 at 14 days: 1 + 3 + 1.5 = 5.5, so the
    # order turns between day 13 and day 15 (a tie would put "older worse" first by name)
    now = clock.now()
    journal.add_flub(db, loop, None, "Today minor", severity=1, at=now)
    journal.add_flub(db, loop, None, "Older worse", severity=2, at=now - dt.timedelta(days=days))
    assert study_list(db, now, include_quiz=False)[0].key == first
