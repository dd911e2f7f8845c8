"""A calendar file's own VTIMEZONE: built once per file, cut to the events' dates without
changing any event's offset, and never lent to another file."""

from __future__ import annotations

import datetime as dt
import io

import pytest
from core.about.test_guard import growth
from dateutil import tz

from companion.core.day.ics import parse_ics
from companion.core.day.ics_zones import FileZones

LOCAL = dt.timezone(dt.timedelta(hours=1))


def _observance(kind: str, start: str, frm: str, to: str, *extra: str) -> list[str]:
    return [
        f"BEGIN:{kind}",
        f"DTSTART:{start}",
        f"TZOFFSETFROM:{frm}",
        f"TZOFFSETTO:{to}",
        *extra,
        f"END:{kind}",
    ]


def _era_zone(tzid: str) -> list[str]:
    """A yearly block per transition (no RRULE), whose offsets change between eras."""
    lines = ["BEGIN:VTIMEZONE", f"TZID:{tzid}", "X-LIC-LOCATION:Nowhere"]
    for year in range(1975, 2031):
        base = 1 if year < 2000 else 3 if year < 2021 else 5
        std, dst = f"+{base:02d}00", f"+{base + 1:02d}00"
        lines += _observance("DAYLIGHT", f"{year}0329T020000", std, dst, "X-FOO:bar")
        lines += _observance("STANDARD", f"{year}1025T030000", dst, std)
    return [*lines, "END:VTIMEZONE"]


def _calendar(zone: list[str], tzid: str, starts: list[str]) -> str:
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", *zone]
    for n, start in enumerate(starts):
        lines += [
            "BEGIN:VEVENT",
            f"UID:{n}",
            f"DTSTART;TZID={tzid}:{start}",
            f"DTEND;TZID={tzid}:{start[:9]}235900",
            f"SUMMARY:event {n}",
            "END:VEVENT",
        ]
    return "\r\n".join([*lines, "END:VCALENDAR"]) + "\r\n"


def _reference(zone: list[str]) -> dt.tzinfo:
    """The whole zone, uncut, as dateutil reads it (X- lines removed: it refuses them)."""
    text = "\n".join(line for line in zone if not line.startswith("X-"))
    return tz.tzical(io.StringIO(text)).get()


STARTS = [
    "19760101T120000",  # early, between two old blocks
    "19990329T013000",  # just before the last spring change of the first era
    "20050710T090000",
    "20210328T120000",  # the first day of the last era
    "20261201T100000",
    "20270615T100000",
    "20301231T230000",  # after the last block
]


@pytest.mark.parametrize("picked", [STARTS, STARTS[4:5], STARTS[:2], STARTS[2:4]])
def test_cutting_the_zone_to_the_events_keeps_every_offset(picked):
    zone = _era_zone("Custom/Eras")
    reference = _reference(zone)
    events, problems = parse_ics(_calendar(zone, "Custom/Eras", picked), local_tz=LOCAL)
    assert problems == []
    assert len(events) == len(picked)
    for event in events:
        wall = event.start.replace(tzinfo=None)
        assert event.start.utcoffset() == wall.replace(tzinfo=reference).utcoffset(), wall
        assert event.minutes is None or event.minutes > 0


def test_a_zone_is_cut_to_a_few_blocks_for_events_close_together():
    zone = _era_zone("Custom/Eras")
    blocks = [["BEGIN:VEVENT", "DTSTART;TZID=Custom/Eras:20261201T100000", "END:VEVENT"]]
    from companion.core.day import ics_zones

    top, subs = ics_zones._observances(zone)
    kept = ics_zones._cut(subs, ics_zones.event_window(blocks))
    assert len(subs) == 112 and len(kept) <= 4
    assert "Custom/Eras" in FileZones(zone, blocks).built


def test_rules_still_apply_years_after_they_start():
    zone = [
        "BEGIN:VTIMEZONE",
        "TZID:Custom/Rules",
        *_observance(
            "DAYLIGHT",
            "19810329T020000",
            "+0100",
            "+0200",
            "RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU",
        ),
        *_observance(
            "STANDARD",
            "19961027T030000",
            "+0200",
            "+0100",
            "RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU",
        ),
        "END:VTIMEZONE",
    ]
    events, problems = parse_ics(
        _calendar(zone, "Custom/Rules", ["20260715T100000", "20261215T100000"]), local_tz=LOCAL
    )
    assert problems == []
    assert [e.start.utcoffset() for e in events] == [dt.timedelta(hours=2), dt.timedelta(hours=1)]


def test_each_file_keeps_its_own_zone_of_the_same_name():
    """Two invitations whose custom zones share a TZID: each is read with its own zone
    (icalendar's zone cache is process-wide and kept the first file's)."""

    def file_with(offset: str) -> str:
        zone = [
            "BEGIN:VTIMEZONE",
            "TZID:Office Time",
            *_observance("STANDARD", "19700101T000000", offset, offset),
            "END:VTIMEZONE",
        ]
        return _calendar(zone, "Office Time", ["20261202T090000"])

    first, _ = parse_ics(file_with("+0300"), local_tz=LOCAL)
    second, _ = parse_ics(file_with("-0500"), local_tz=LOCAL)
    assert first[0].start.utcoffset() == dt.timedelta(hours=3)
    assert second[0].start.utcoffset() == dt.timedelta(hours=-5)


def test_a_zone_dateutil_cannot_read_is_still_read_by_icalendar():
    zone = [
        "BEGIN:VTIMEZONE",
        "TZID:Custom/Dates",
        "BEGIN:STANDARD",
        "DTSTART;VALUE=DATE:19700101",  # a date, not a date-time: dateutil refuses it
        "TZOFFSETFROM:+0400",
        "TZOFFSETTO:+0400",
        "END:STANDARD",
        "END:VTIMEZONE",
    ]
    blocks = [["BEGIN:VEVENT", "DTSTART;TZID=Custom/Dates:20261202T090000", "END:VEVENT"]]
    assert "Custom/Dates" in FileZones(zone, blocks).built  # built once, for every event
    events, problems = parse_ics(
        _calendar(zone, "Custom/Dates", ["20261202T090000"]), local_tz=LOCAL
    )
    assert problems == []
    assert events[0].start.utcoffset() == dt.timedelta(hours=4)


def _date_zone_calendar(events: int) -> str:
    """A zone dateutil refuses (a DTSTART that is a date) and a line of it per event."""
    zone = [
        "BEGIN:VTIMEZONE",
        "TZID:Custom/Dates",
        *(f"X-NOTE-{n}:{'padding ' * 4}" for n in range(events)),
        "BEGIN:STANDARD",
        "DTSTART;VALUE=DATE:19700101",
        "TZOFFSETFROM:+0400",
        "TZOFFSETTO:+0400",
        "END:STANDARD",
        "END:VTIMEZONE",
    ]
    return _calendar(
        zone, "Custom/Dates", [f"202612{1 + n % 28:02d}T090000" for n in range(events)]
    )


def test_a_zone_icalendar_reads_is_read_once_for_all_the_events():
    """Such a zone went inline with each event: icalendar parsed it once per event (150
    events and 150 lines of zone took 2 s, the ics fuzz target's timeouts)."""
    events, problems = parse_ics(_date_zone_calendar(30), local_tz=LOCAL)
    assert problems == [] and len(events) == 30
    assert {e.start.utcoffset() for e in events} == {dt.timedelta(hours=4)}
    assert growth(parse_ics, _date_zone_calendar, 25) < 3.0


def test_a_zone_no_reader_can_read_leaves_its_events_a_named_problem():
    zone = [
        "BEGIN:VTIMEZONE",
        "TZID:Custom/Broken",
        "BEGIN:STANDARD",
        "END:STANDARD",
        "END:VTIMEZONE",
    ]
    events, problems = parse_ics(_calendar(zone, "Custom/Broken", ["20261202T090000"]))
    assert events == []
    assert "unknown time zone 'Custom/Broken'" in str(problems[0])


def _berlin_from(onset_year: int, *rule: str) -> list[str]:
    """Berlin's rules as a WordPress plugin writes them: only from ``onset_year`` on
    (cottbus' file: one RDATE a year for two years; ``rule``: yearly, with an RRULE)."""
    std, dst = (
        ("RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU",),
        ("RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU",),
    )
    if not rule:
        std, dst = (f"RDATE:{onset_year + 1}1027T030000",), (f"RDATE:{onset_year + 2}0329T020000",)
    return [
        "BEGIN:VTIMEZONE",
        "TZID:Europe/Berlin",
        "X-LIC-LOCATION:Europe/Berlin",
        *_observance("STANDARD", f"{onset_year}1028T030000", "+0200", "+0100", *std),
        *_observance("DAYLIGHT", f"{onset_year + 1}0331T020000", "+0100", "+0200", *dst),
        "END:VTIMEZONE",
    ]


def _icalendar_instant(text: str, uid: str) -> dt.datetime:
    """The instant icalendar with zoneinfo gives an event (the reference)."""
    import icalendar

    for event in icalendar.Calendar.from_ical(text).walk("VEVENT"):
        if str(event["UID"]) == uid:
            return event["DTSTART"].dt
    raise LookupError(uid)


def test_a_zone_is_used_only_from_its_first_onset_on():
    """fablab_cottbus.ics' shape: the file's zone starts in October 2018, its events are
    of 2016-2017; before the onset the zone the TZID names holds (summer is +02:00)."""
    starts = ["20161203T140000", "20170610T100000", "20190601T100000", "20210610T100000"]
    text = _calendar(_berlin_from(2018), "Europe/Berlin", starts)
    events, problems = parse_ics(text, local_tz=LOCAL)
    assert not problems
    offsets = {e.summary: e.start.utcoffset() for e in events}
    hour = dt.timedelta(hours=1)
    assert offsets == {
        "event 0": hour,
        "event 1": 2 * hour,
        "event 2": 2 * hour,
        "event 3": 2 * hour,
    }
    assert type(events[2].start.tzinfo).__name__ != "ZoneInfo"  # inside: the file's own
    for n, event in enumerate(sorted(events, key=lambda e: e.summary)):
        assert event.start == _icalendar_instant(text, str(n))


def test_a_zone_without_a_name_zoneinfo_knows_is_still_used_early():
    """A made-up TZID has no other rules: the file's zone (its first standard) holds."""
    zone = [line.replace("Europe/Berlin", "Custom Zone") for line in _berlin_from(2018)]
    (event,), _ = parse_ics(_calendar(zone, "Custom Zone", ["20170610T100000"]), local_tz=LOCAL)
    assert event.start.utcoffset() == dt.timedelta(hours=1)


@pytest.mark.parametrize("edge", ["00010101T100000", "99991231T100000", "00010101", "99991231"])
def test_an_event_at_the_calendars_ends_loses_itself_only(edge):
    """An event in year 1 or 9999 beside a VTIMEZONE overflowed the zone's window and
    lost every event of the file; now it alone is refused, by line."""
    text = _calendar(_berlin_from(2018, "yearly"), "Europe/Berlin", [edge, "20261201T100000"])
    events, problems = parse_ics(text, local_tz=LOCAL)
    assert [e.start for e in events] == [
        dt.datetime(2026, 12, 1, 10, tzinfo=dt.timezone(dt.timedelta(hours=1)))
    ]
    assert len(problems) == 1 and "outside 1970-2200" in problems[0].message
