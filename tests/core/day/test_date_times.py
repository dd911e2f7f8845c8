"""A typed day with a time ("3 March 14:30", "tomorrow 2pm"), as the round dialog reads it."""

from __future__ import annotations

import datetime as dt

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.core.day.dates import parse_day_time

TODAY = dt.date(2026, 11, 30)
CURRENT = dt.datetime(2026, 12, 5, 10, 0)  # what the field shows before typing

moments = st.datetimes(min_value=dt.datetime(1900, 1, 1), max_value=dt.datetime(2200, 12, 31))
wall_times = st.times().map(lambda t: t.replace(second=0, microsecond=0))


@pytest.mark.parametrize(
    ("text", "moment"),
    [
        ("3 March 14:30", dt.datetime(2027, 3, 3, 14, 30)),  # no year: the next 3 March
        ("Mar 3 2026 2pm", dt.datetime(2026, 3, 3, 14, 0)),
        ("tomorrow 9:15", dt.datetime(2026, 12, 1, 9, 15)),
        ("9:15 tomorrow", dt.datetime(2026, 12, 1, 9, 15)),
        ("today at 2:30 pm", dt.datetime(2026, 11, 30, 14, 30)),
        ("14:30", dt.datetime(2026, 12, 5, 14, 30)),  # a time alone keeps the field's day
        ("2:30 pm", dt.datetime(2026, 12, 5, 14, 30)),
        ("2.30pm", dt.datetime(2026, 12, 5, 14, 30)),
        ("2pm", dt.datetime(2026, 12, 5, 14, 0)),
        ("12am", dt.datetime(2026, 12, 5, 0, 0)),
        ("12 p.m.", dt.datetime(2026, 12, 5, 12, 0)),
        ("noon", dt.datetime(2026, 12, 5, 12, 0)),
        ("3 March", dt.datetime(2027, 3, 3, 10, 0)),  # a day alone keeps the field's time
        ("3 March, 14:30", dt.datetime(2027, 3, 3, 14, 30)),
        ("3/3/2026 14:30", dt.datetime(2026, 3, 3, 14, 30)),
        ("2026-03-03 14:30", dt.datetime(2026, 3, 3, 14, 30)),
        ("2026-03-03T14:30", dt.datetime(2026, 3, 3, 14, 30)),
        ("Wed 4 Mar 2026  14:30", dt.datetime(2026, 3, 4, 14, 30)),  # the display format
        ("Sat 5 Dec 2026 at 9am", dt.datetime(2026, 12, 5, 9, 0)),
    ],
)
def test_parse_day_time(text, moment):
    assert parse_day_time(text, TODAY, CURRENT) == moment


def test_a_number_in_a_date_is_never_an_hour():
    assert parse_day_time("3 March", TODAY, CURRENT).hour == 10
    assert parse_day_time("March 3 2027", TODAY, CURRENT) == dt.datetime(2027, 3, 3, 10, 0)
    assert parse_day_time("3/3/2026", TODAY, CURRENT) == dt.datetime(2026, 3, 3, 10, 0)


@pytest.mark.parametrize(
    "text",
    [
        "",
        "soon",
        "25:00",
        "14:75",
        "24:00",
        "3 March 25:00",
        "0pm",
        "13pm",
        "14:30 pm",
        "14:30 15:00",  # two times
        "4 March 14:",  # half typed: not 14 as the year 2014
        "4 March 14:3",
        "9:15:00",
        "31 February 2026 14:30",
        "March 14:30",
        "at",
    ],
)
def test_parse_day_time_names_no_moment(text):
    assert parse_day_time(text, TODAY, CURRENT) is None


@given(moments)
def test_a_long_date_and_24h_time_read_back_as_themselves(moment):
    moment = moment.replace(second=0, microsecond=0)
    text = f"{moment.day} {moment:%B %Y %H:%M}"  # d MMMM yyyy HH:MM
    assert parse_day_time(text, TODAY, CURRENT) == moment


@given(moments)
def test_the_fields_own_display_format_reads_back(moment):
    moment = moment.replace(second=0, microsecond=0)
    text = f"{moment:%a} {moment.day} {moment:%b %Y}  {moment:%H:%M}"  # ddd d MMM yyyy  HH:mm
    assert parse_day_time(text, TODAY, CURRENT) == moment


@given(wall_times, st.sampled_from(["{:%H:%M}", "{:%I:%M %p}", "{:%I:%M%p}", "{:%I.%M%p}"]))
def test_a_time_alone_sets_the_time_of_the_fields_day(time, form):
    text = form.format(time)
    assert parse_day_time(text, TODAY, CURRENT) == dt.datetime.combine(CURRENT.date(), time)
    assert parse_day_time(text.lower(), TODAY, CURRENT) == dt.datetime.combine(CURRENT.date(), time)


@given(moments.map(lambda m: m.date()), wall_times)
def test_a_day_alone_keeps_the_fields_time(day, time):
    current = dt.datetime.combine(CURRENT.date(), time)
    text = f"{day.day} {day:%B %Y}"
    assert parse_day_time(text, TODAY, current) == dt.datetime.combine(day, time)


@given(
    st.integers(min_value=0, max_value=99),
    st.integers(min_value=0, max_value=99),
)
def test_an_hour_or_minute_out_of_range_is_refused_not_wrapped(hour, minute):
    text = f"4 March 2027 {hour}:{minute:02d}"
    found = parse_day_time(text, TODAY, CURRENT)
    if hour < 24 and minute < 60:
        assert found == dt.datetime(2027, 3, 4, hour, minute)
    else:
        assert found is None


typed = st.lists(
    st.one_of(
        st.sampled_from(["March", "mar", "at", "today", "tomorrow", "pm", "am", "noon", ","]),
        st.from_regex(r"[0-9]{1,2}|[0-9]{4}|[0-9]{19,25}", fullmatch=True),
        st.from_regex(r"[0-9]{1,3}[:./-][0-9]{1,3}(am|pm)?", fullmatch=True),
        st.text(max_size=6),
    ),
    max_size=6,
).map(" ".join)


@given(st.one_of(st.text(max_size=40), typed))
def test_any_text_gives_a_moment_or_none_never_an_error(text):
    found = parse_day_time(text, TODAY, CURRENT)
    assert found is None or isinstance(found, dt.datetime)
