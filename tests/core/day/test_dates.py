"""A typed day in words, and when a new round starts by default."""

from __future__ import annotations

import datetime as dt

import pytest

from companion.core.day.dates import default_round_start, parse_day

TODAY = dt.date(2026, 11, 30)


@pytest.mark.parametrize(
    ("text", "day"),
    [
        ("3 March 2026", dt.date(2026, 3, 3)),
        ("Mar 3, 2027", dt.date(2027, 3, 3)),
        ("3 mar", dt.date(2027, 3, 3)),  # no year: the next 3 March
        ("december 2", dt.date(2026, 12, 2)),
        ("2nd of December", dt.date(2026, 12, 2)),
        ("Sept 9 2026", dt.date(2026, 9, 9)),
        ("2026-12-24", dt.date(2026, 12, 24)),
        ("24/12/2026", dt.date(2026, 12, 24)),
        ("tomorrow", dt.date(2026, 12, 1)),
        ("Wed 2 Dec 2026", dt.date(2026, 12, 2)),
    ],
)
def test_parse_day(text, day):
    assert parse_day(text, TODAY) == day


@pytest.mark.parametrize(
    "text",
    [
        "",
        "soon",
        "31 February 2026",
        "13/13/2026",
        "March",
        "3 March 99999999999999999999",
        "9" * 32767,  # a paste: int() refuses 4,300+ digits with ValueError
        "30 Nov 0 November",  # what QDateEdit's section typing made of "30 November"
        "3 March oops",
        "Nov 3 March",
    ],
)
def test_parse_day_names_no_day(text):
    assert parse_day(text, TODAY) is None


def test_a_round_on_a_loop_dated_today_starts_at_the_next_full_hour():
    now = dt.datetime(2026, 11, 30, 9, 17).astimezone()
    assert default_round_start(now, now.date(), []) == now.replace(hour=10, minute=0, second=0)


def test_a_round_on_a_later_loop_starts_at_ten_on_its_first_day():
    now = dt.datetime(2026, 11, 30, 9, 17).astimezone()
    start = default_round_start(now, dt.date(2026, 12, 3), [])
    assert (start.date(), start.hour, start.minute) == (dt.date(2026, 12, 3), 10, 0)


def test_late_at_night_or_without_a_date_it_is_tomorrow_at_ten():
    late = dt.datetime(2026, 11, 30, 22, 40).astimezone()
    assert default_round_start(late, late.date(), []).replace(tzinfo=None) == dt.datetime(
        2026, 12, 1, 10
    )
    now = dt.datetime(2026, 11, 30, 9, 17).astimezone()
    assert default_round_start(now, None, []).replace(tzinfo=None) == dt.datetime(2026, 12, 1, 10)


def test_the_next_round_follows_the_last_one():
    now = dt.datetime(2026, 11, 30, 9, 17).astimezone()
    last = now.replace(hour=13, minute=0)
    assert default_round_start(now, now.date(), [last]) == last + dt.timedelta(hours=1)


def test_after_the_loops_last_round_has_passed_it_is_the_next_full_hour():
    """The #41 walk: at 12:10, after a round at 11:00, Add round offered 12:00 (past)."""
    now = dt.datetime(2026, 12, 17, 12, 10).astimezone()
    last = now.replace(hour=11, minute=0)
    assert default_round_start(now, now.date(), [last]) == now.replace(hour=13, minute=0)
    late = now.replace(hour=22, minute=30)
    start = default_round_start(late, late.date(), [last])
    assert start.replace(tzinfo=None) == dt.datetime(2026, 12, 18, 10)
