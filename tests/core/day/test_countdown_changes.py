"""The moment a countdown's words change, one rule for Today and the card: the card
once said "in 3 min" beside Today's "in 2 min" (it woke only at the day's changes, and
Today stepped a minute as if minutes rounded down)."""

from __future__ import annotations

import datetime as dt

from hypothesis import given
from hypothesis import strategies as st

from companion.core.day.clock import (
    countdown_changes_in,
    countdown_text,
    ends_text,
    ends_text_changes_in,
)

MS = dt.timedelta(milliseconds=1)


@given(st.integers(min_value=1, max_value=3 * 86400 * 1000))
def test_the_words_hold_until_the_change_and_differ_at_it(ms):
    delta = dt.timedelta(milliseconds=ms)
    wait = countdown_changes_in(delta)
    assert wait is not None and wait > dt.timedelta(0)
    assert countdown_text(delta - wait) != countdown_text(delta)
    if wait > MS:
        assert countdown_text(delta - wait + MS) == countdown_text(delta)


def test_examples():
    assert countdown_changes_in(dt.timedelta(minutes=6, seconds=10)) == dt.timedelta(seconds=10)
    assert countdown_changes_in(dt.timedelta(seconds=45.5)) == dt.timedelta(seconds=0.5)
    assert countdown_changes_in(dt.timedelta(0)) is None
    assert countdown_changes_in(dt.timedelta(seconds=-5)) is None


def test_ends_text_says_the_overrun_once_the_end_has_passed():
    tz = dt.timezone(dt.timedelta(hours=1))
    end = dt.datetime(2026, 12, 2, 10, 35, tzinfo=tz)
    assert ends_text(end, end - dt.timedelta(minutes=20)) == "ends about 10:35"
    assert ends_text(end, end) == "ends about 10:35"
    assert ends_text(end, end + dt.timedelta(seconds=30)) == "was due to end at 10:35, just over"
    late = ends_text(end, end + dt.timedelta(minutes=12))
    assert late == "was due to end at 10:35, 12 min over" and "ends about" not in late


def test_ends_text_changes_at_the_end_then_each_whole_minute_over():
    end = dt.datetime(2026, 12, 2, 10, 35, tzinfo=dt.UTC)
    assert ends_text_changes_in(end, end - dt.timedelta(minutes=3)) == dt.timedelta(minutes=3)
    assert ends_text_changes_in(end, end + dt.timedelta(seconds=20)) == dt.timedelta(seconds=40)
    assert ends_text_changes_in(end, end + dt.timedelta(minutes=12)) == dt.timedelta(seconds=60)
