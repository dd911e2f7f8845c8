"""Series by UID and RECURRENCE-ID: a cancellation or a change of one occurrence touches
that occurrence only, EXDATE is honoured, and a re-import changes nothing. The
invitations are in the shapes Google, Exchange/Outlook and Apple write for a series."""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.core.day.invitation import import_invitation
from companion.core.day.loops import list_rounds
from companion.core.day.model import DayRules

RULES = DayRules(titles={"coding": "Coding round", "peer": "Peer"})
NOW = dt.datetime(2026, 12, 1, 9, 0, tzinfo=dt.UTC)
UID = "040000008200E00074C5B7101A82E008000000009F0A4E6E2B6DDB01@outlook.com"
BERLIN = """BEGIN:VTIMEZONE\r
TZID:W. Europe Standard Time\r
BEGIN:STANDARD\r
DTSTART:16010101T030000\r
TZOFFSETFROM:+0200\r
TZOFFSETTO:+0100\r
RRULE:FREQ=YEARLY;INTERVAL=1;BYDAY=-1SU;BYMONTH=10\r
END:STANDARD\r
BEGIN:DAYLIGHT\r
DTSTART:16010101T020000\r
TZOFFSETFROM:+0100\r
TZOFFSETTO:+0200\r
RRULE:FREQ=YEARLY;INTERVAL=1;BYDAY=-1SU;BYMONTH=3\r
END:DAYLIGHT\r
END:VTIMEZONE\r
"""
ZONE = "TZID=W. Europe Standard Time"


def calendar(*events: str, method: str = "REQUEST") -> str:
    return (
        "BEGIN:VCALENDAR\r\nMETHOD:" + method + "\r\nPRODID:Microsoft Exchange Server 2010\r\n"
        "VERSION:2.0\r\n" + BERLIN + "".join(events) + "END:VCALENDAR\r\n"
    )


def event(*lines: str, start: str = "20261210T100000", sequence: int = 0) -> str:
    """An Exchange-shaped VEVENT of the series (weekly peer sessions, Thursdays)."""
    body = [
        "BEGIN:VEVENT",
        "ORGANIZER;CN=Dana Li:mailto:dana.li@northwind.example",
        "ATTENDEE;ROLE=REQ-PARTICIPANT;CN=Sam Rivera:mailto:sam.rivera@example.org",
        "SUMMARY;LANGUAGE=en-US:Northwind - Peer pairing",
        f"DTSTART;{ZONE}:{start}",
        f"DTEND;{ZONE}:{start[:9]}110000",
        f"UID:{UID}",
        f"SEQUENCE:{sequence}",
        "DTSTAMP:20261201T101010Z",
        *lines,
        "END:VEVENT",
    ]
    return "\r\n".join(body) + "\r\n"


MASTER = event("RRULE:FREQ=WEEKLY;COUNT=4;BYDAY=TH")


def occurrence(original: str, *lines: str, start: str | None = None, sequence: int = 1) -> str:
    return event(
        f"RECURRENCE-ID;{ZONE}:{original}", *lines, start=start or original, sequence=sequence
    )


def _import(db, tmp_path, text: str, name: str = "s.ics"):
    path = tmp_path / name
    path.write_text(text)
    return import_invitation(db, path, RULES, company="Northwind", now=NOW)


def _live(db, loop_id) -> list[str]:
    return [
        f"{r.scheduled.astimezone(ZoneInfo('Europe/Berlin')):%d %H:%M}"
        for r in list_rounds(db, loop_id)
        if not r.skip_reason
    ]


def test_a_series_is_one_round_at_its_first_occurrence(db, tmp_path):
    result = _import(db, tmp_path, calendar(MASTER))
    assert _live(db, result.loop_id) == ["10 10:00"]


def test_cancelling_the_second_occurrence_leaves_the_first(db, tmp_path):
    first = _import(db, tmp_path, calendar(MASTER))
    cancel = calendar(occurrence("20261217T100000", "STATUS:CANCELLED"), method="CANCEL")
    with pytest.raises(ValueError, match="a cancellation of an event never imported"):
        _import(db, tmp_path, cancel, "c.ics")
    assert _live(db, first.loop_id) == ["10 10:00"]


def test_a_file_with_the_series_and_a_cancelled_occurrence_imports_twice_alike(db, tmp_path):
    text = calendar(MASTER, occurrence("20261217T100000", "STATUS:CANCELLED"))
    first = _import(db, tmp_path, text)
    rows = db.execute("select * from rounds").fetchall()
    again = _import(db, tmp_path, text)
    assert (again.added, again.cancelled) == (0, 0)
    assert db.execute("select * from rounds").fetchall() == rows
    assert _live(db, first.loop_id) == ["10 10:00"]


def test_an_override_of_the_first_occurrence_moves_it_and_leaves_no_stale_round(db, tmp_path):
    moved = occurrence("20261210T100000", start="20261210T150000")
    result = _import(db, tmp_path, calendar(MASTER, moved))
    assert _live(db, result.loop_id) == ["10 15:00"]


def test_a_later_override_of_the_first_occurrence_moves_its_round(db, tmp_path):
    result = _import(db, tmp_path, calendar(MASTER))
    moved = _import(
        db, tmp_path, calendar(occurrence("20261210T100000", start="20261211T090000")), "m.ics"
    )
    assert moved.moved == 1
    assert _live(db, result.loop_id) == ["11 09:00"]


def test_an_excluded_first_occurrence_is_not_imported(db, tmp_path):
    master = event("RRULE:FREQ=WEEKLY;COUNT=4;BYDAY=TH", f"EXDATE;{ZONE}:20261210T100000")
    result = _import(db, tmp_path, calendar(master))
    assert _live(db, result.loop_id) == ["17 10:00"]
    cancel = calendar(occurrence("20261217T100000", "STATUS:CANCELLED"), method="CANCEL")
    assert _import(db, tmp_path, cancel, "c.ics").cancelled == 1
    assert _live(db, result.loop_id) == []


def test_a_series_removed_entirely_says_so(db, tmp_path):
    master = event("RRULE:FREQ=WEEKLY;COUNT=1", f"EXDATE;{ZONE}:20261210T100000")
    other = event(start="20261211T100000").replace(UID, "other-event")
    result = _import(db, tmp_path, calendar(master, other))
    assert any("every occurrence of the series is removed" in m for m in result.messages)
    assert _live(db, result.loop_id) == ["11 10:00"]


def test_cancelling_the_whole_series_cancels_its_round(db, tmp_path):
    result = _import(db, tmp_path, calendar(MASTER))
    cancel = event("STATUS:CANCELLED", sequence=1)  # Outlook's copy without the RRULE
    assert _import(db, tmp_path, calendar(cancel, method="CANCEL"), "c.ics").cancelled == 1
    assert _live(db, result.loop_id) == []


def test_a_reply_is_not_a_round(db, tmp_path):
    reply = event("ATTENDEE;PARTSTAT=ACCEPTED;CN=Sam Rivera:mailto:sam.rivera@example.org")
    with pytest.raises(ValueError, match=r"reply \(METHOD:REPLY\), not an invitation"):
        _import(db, tmp_path, calendar(reply, method="REPLY"))
    assert db.execute("select count(*) from rounds").fetchone()[0] == 0


# --- a re-import of any accepted file changes nothing ---------------------------------

_PARTS = {
    "master": MASTER,
    "plain": event(start="20261214T100000").replace(UID, "plain-1@google.com"),
    "exdate-first": event("RRULE:FREQ=WEEKLY;COUNT=3", f"EXDATE;{ZONE}:20261210T100000"),
    "override-first": occurrence("20261210T100000", start="20261210T150000"),
    "override-third": occurrence("20261224T100000", start="20261223T100000"),
    "cancel-second": occurrence("20261217T100000", "STATUS:CANCELLED"),
    "cancel-plain": event("STATUS:CANCELLED", sequence=2).replace(UID, "plain-1@google.com"),
    "floating": event(start="20261215T090000")
    .replace(f"DTSTART;{ZONE}", "DTSTART")
    .replace(UID, "floating-1"),
    "no-uid": event(start="20261216T100000").replace(f"UID:{UID}\r\n", ""),
}


def _snapshot(db) -> list:
    return [
        db.execute(f"select * from {table} order by 1").fetchall() for table in ("loops", "rounds")
    ]


@given(
    st.lists(st.sampled_from(sorted(_PARTS)), min_size=1, max_size=5, unique=True),
    st.sampled_from(["REQUEST", "PUBLISH", "CANCEL"]),
)
@settings(max_examples=30, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_importing_any_accepted_file_twice_changes_nothing(tmp_path_factory, parts, method):
    from companion.core.storage.store import open_store  # a fresh journal for each example

    folder = tmp_path_factory.mktemp("journal")
    store = open_store(folder / "journal.db")
    db = store.db
    try:
        text = calendar(*(_PARTS[p] for p in parts), method=method)
        try:
            _import(db, folder, text)
        except ValueError:
            return  # refused with its message: nothing to re-import
        before = _snapshot(db)
        _import(db, folder, text)
        assert _snapshot(db) == before
    finally:
        store.close()
