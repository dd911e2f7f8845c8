"""One rule for stored times: a time without a zone is local time, everywhere."""

from __future__ import annotations

import datetime as dt

import pytest

from companion.core.timeutil import parse_stored, to_stored, to_stored_utc

LOCAL = dt.datetime(2026, 12, 1, 14, 0).astimezone()


def test_a_time_without_a_zone_is_local_time():
    assert parse_stored("2026-12-01T14:00:00") == LOCAL
    assert parse_stored("2026-12-01T14:00:00").tzinfo is not None


def test_a_time_with_a_zone_keeps_it():
    moment = parse_stored("2026-12-01T14:00:00+09:00")
    assert moment.utcoffset() == dt.timedelta(hours=9)


@pytest.mark.parametrize("text", [None, "", "yesterday", "2026-13-01T00:00"])
def test_nothing_or_rubbish_reads_as_none(text):
    assert parse_stored(text) is None


def test_written_times_read_back_the_same():
    assert parse_stored(to_stored(LOCAL)) == LOCAL
    assert parse_stored(to_stored(dt.datetime(2026, 12, 1, 14, 0))) == LOCAL
    assert to_stored_utc(LOCAL).endswith("+00:00")
    assert parse_stored(to_stored_utc(LOCAL)) == LOCAL


def test_every_feature_reads_a_zoneless_time_the_same_way():
    from companion.core.day.loops import Round
    from companion.core.study.ranking import rank_score

    naive = "2026-12-01T14:00:00"
    assert Round(1, None, "design", "", "", naive, None, None, "").scheduled == LOCAL
    assert Round(1, None, "design", "", "", None, naive, None, "").started == LOCAL
    # seen right now: the recency bonus is whole whatever the machine's zone
    assert rank_score(1, 1, naive, LOCAL) == rank_score(1, 1, LOCAL.isoformat(), LOCAL)
