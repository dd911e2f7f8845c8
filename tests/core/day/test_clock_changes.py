"""Every time shown at its own date's offset: a round after a clock change, looked at
before it, shows at its own wall time in the texts, ``--json`` and the import's notes
(today's offset made 10:00 New York on 15 March "09:00"). The instants are checked
against icalendar with zoneinfo, in New York, Berlin and Sydney, at both changes."""

from __future__ import annotations

import datetime as dt
import json
import time
import zoneinfo

import icalendar
import pytest

from companion.cli import main
from companion.core.day.clock import clock_text
from companion.core.timeutil import local_now, local_zone, to_local

# (zone, a moment before the change, the round's wall time after it): March and
# November in New York, March and October in Berlin, April and October in Sydney
CHANGES = [
    ("America/New_York", "2027-03-13T12:00", "2027-03-15T10:00"),
    ("America/New_York", "2026-10-31T12:00", "2026-11-02T10:00"),
    ("Europe/Berlin", "2027-03-27T12:00", "2027-03-29T10:00"),
    ("Europe/Berlin", "2026-10-24T12:00", "2026-10-26T10:00"),
    ("Australia/Sydney", "2027-04-03T12:00", "2027-04-05T10:00"),
    ("Australia/Sydney", "2026-10-03T12:00", "2026-10-05T10:00"),
]
IDS = [f"{zone.split('/')[1]}-{round_at[5:7]}" for zone, _at, round_at in CHANGES]


@pytest.fixture
def machine(monkeypatch):
    """``machine(zone)``: this process as a machine in ``zone`` (TZ, tzset, and the
    cached local zone forgotten), put back afterwards."""

    def use(zone: str) -> None:
        monkeypatch.setenv("TZ", zone)
        time.tzset()
        local_zone.cache_clear()

    yield use
    monkeypatch.undo()
    time.tzset()
    local_zone.cache_clear()


def invitation(zone: str, wall: str, sequence: int = 0) -> str:
    """A Google-shaped invitation for one round at ``wall`` in ``zone`` (its TZID)."""
    stamp = wall.replace("-", "").replace(":", "") + "00"
    return (
        "BEGIN:VCALENDAR\r\nPRODID:-//Google Inc//Google Calendar 70.9054//EN\r\n"
        "VERSION:2.0\r\nMETHOD:REQUEST\r\nBEGIN:VEVENT\r\n"
        f"DTSTART;TZID={zone}:{stamp}\r\nDTEND;TZID={zone}:{stamp[:9]}110000\r\n"
        "DTSTAMP:20260901T120000Z\r\nUID:coding-1@google.com\r\n"
        f"SEQUENCE:{sequence}\r\nSUMMARY:Acme - Coding\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
    )


def reference(text: str) -> dt.datetime:
    """The event's instant as icalendar with zoneinfo reads it."""
    (event,) = icalendar.Calendar.from_ical(text).walk("VEVENT")
    return event["DTSTART"].dt


def stamp_in(zone: str, moment: dt.datetime) -> str:
    return moment.astimezone(zoneinfo.ZoneInfo(zone)).isoformat(timespec="seconds")


def imported(machine, data_dir, tmp_path, capsys, zone: str, wall: str):
    """The invitation for a round at ``wall`` imported on a machine in ``zone``."""
    machine(zone)
    invite = tmp_path / "acme.ics"
    invite.write_text(invitation(zone, wall))
    assert main(["--data-dir", str(data_dir), "schedule", "import", str(invite)]) == 0
    capsys.readouterr()
    return invite


@pytest.mark.parametrize(("zone", "at", "wall"), CHANGES, ids=IDS)
def test_today_json_gives_each_date_its_own_offset(
    machine, data_dir, tmp_path, capsys, zone, at, wall
):
    invite = imported(machine, data_dir, tmp_path, capsys, zone, wall)
    assert main(["--data-dir", str(data_dir), "today", "--json", "--at", at]) == 0
    day = json.loads(capsys.readouterr().out)
    start = reference(invite.read_text())
    assert day["next_round"]["starts_at"] == stamp_in(zone, start)
    assert day["next_round"]["starts_at"][11:16] == "10:00"
    before = dt.datetime.fromisoformat(day["at"])
    assert before.utcoffset() != start.utcoffset()  # the change lies between
    evening = next(d for d in day["due"] if d["kind"] == "night-before")
    eve = dt.datetime.fromisoformat(wall) - dt.timedelta(days=1)
    local_eve = eve.replace(hour=17).replace(tzinfo=zoneinfo.ZoneInfo(zone))
    assert evening["due_at"] == local_eve.isoformat(timespec="seconds")
    texts = [d["text"] for d in day["due"] if d["kind"] == "before-round"]
    assert texts and all(" 10:00)" in t or "(10:00)" in t for t in texts)  # not 09:00


@pytest.mark.parametrize(("zone", "at", "wall"), CHANGES, ids=IDS)
def test_the_moved_note_names_the_new_time_at_its_own_offset(
    machine, data_dir, tmp_path, capsys, zone, at, wall
):
    machine(zone)
    first = dt.datetime.fromisoformat(at)
    invite = tmp_path / "acme.ics"
    invite.write_text(invitation(zone, f"{first:%Y-%m-%d}T15:00"))
    assert main(["--data-dir", str(data_dir), "schedule", "import", str(invite)]) == 0
    invite.write_text(invitation(zone, wall, sequence=1))
    from companion.core.context import AppContext

    before = first.replace(tzinfo=local_zone())
    ctx = AppContext(data_dir, clock=lambda: before)
    try:
        from companion.commands.schedule import run_import

        class Args:
            file, company, role, me = invite, None, "", ""

        capsys.readouterr()
        assert run_import(Args, ctx) == 0
    finally:
        ctx.close()
    out = capsys.readouterr().out
    shown = clock_text(reference(invite.read_text()), before)
    assert shown.endswith("10:00")
    assert f"moved Coding round to {shown}." in out, out


@pytest.mark.parametrize(("zone", "at", "wall"), CHANGES, ids=IDS)
def test_to_local_and_clock_text_follow_the_date(machine, zone, at, wall):
    machine(zone)
    now = dt.datetime.fromisoformat(at).replace(tzinfo=local_zone())
    moment = dt.datetime.fromisoformat(wall).replace(tzinfo=zoneinfo.ZoneInfo(zone))
    assert to_local(moment.astimezone(dt.UTC)).strftime("%H:%M") == "10:00"
    assert clock_text(moment.astimezone(dt.UTC), now).endswith(" 10:00")
    assert local_now().tzinfo == local_zone()


def _companion(data_dir, zone: str, *args: str) -> str:
    """The installed command, run as a machine in ``zone`` (TZ=)."""
    import os
    import subprocess
    import sys

    env = {**os.environ, "TZ": zone, "COMPANION_HOME": str(data_dir)}
    done = subprocess.run(
        [sys.executable, "-m", "companion", "--data-dir", str(data_dir), *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.mark.parametrize(
    ("zone", "at", "wall"),
    [c for c in CHANGES if c[0] != "Australia/Sydney"],
    ids=[i for i in IDS if not i.startswith("Sydney")],
)
def test_today_json_at_in_a_process_of_that_zone(data_dir, tmp_path, zone, at, wall):
    """``TZ=… companion today --json --at`` across the change: icalendar's instants."""
    invite = tmp_path / "acme.ics"
    invite.write_text(invitation(zone, wall))
    _companion(data_dir, zone, "schedule", "import", str(invite))
    day = json.loads(_companion(data_dir, zone, "today", "--json", "--at", at))
    start = reference(invite.read_text())
    assert day["next_round"]["starts_at"] == stamp_in(zone, start)
    assert dt.datetime.fromisoformat(day["next_round"]["starts_at"]) == start
    eve = (dt.datetime.fromisoformat(wall) - dt.timedelta(days=1)).replace(hour=17)
    due = [d["due_at"] for d in day["due"] if d["kind"] == "night-before"]
    assert due[0] == eve.replace(tzinfo=zoneinfo.ZoneInfo(zone)).isoformat(timespec="seconds")


@pytest.mark.parametrize(("zone", "at", "wall"), CHANGES, ids=IDS)
def test_review_names_the_first_round_at_its_own_offset(
    machine, data_dir, tmp_path, capsys, zone, at, wall
):
    imported(machine, data_dir, tmp_path, capsys, zone, wall)
    assert main(["--data-dir", str(data_dir), "review", "--at", at]) == 0
    first = dt.datetime.fromisoformat(wall)
    assert f"(first round {first:%a %d %b} 10:00)" in capsys.readouterr().out
