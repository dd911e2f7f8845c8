"""`companion today --at`: a moment it cannot read is a one-line message, never a traceback."""

from __future__ import annotations

import pytest

from companion.cli import main


@pytest.mark.parametrize("moment", ["nonsense", "0001-01-01T00:00"])
def test_an_unreadable_moment_is_one_line(data_dir, capsys, moment):
    assert main(["--data-dir", str(data_dir), "today", "--at", moment]) == 2
    err = capsys.readouterr().err
    assert f"--at {moment!r} is not an ISO-8601 time" in err
    assert "Traceback" not in err


def test_a_moment_without_a_zone_is_local_time(data_dir, capsys):
    assert main(["--data-dir", str(data_dir), "today", "--at", "2026-12-01T09:50", "--json"]) == 0
    assert '"at": "2026-12-01T09:50:00' in capsys.readouterr().out


def test_one_am_before_a_morning_round_is_the_night_before_and_leads_with_sleep(
    data_dir, capsys, ctx
):
    import datetime as dt

    from companion.core.day.loops import add_round, create_loop

    local = dt.datetime(2026, 12, 2, 10, 0).astimezone()
    loop_id = create_loop(ctx.db, "Acme", "ML infra", starts_on="2026-12-02")
    add_round(ctx.db, loop_id, "design", scheduled_at=local)
    ctx.db.close()
    assert main(["--data-dir", str(data_dir), "today", "--at", "2026-12-02T01:00"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert "phase: night-before" in lines
    due = [line for line in lines if line.startswith("due ")]
    assert due[0].endswith("Go to sleep: first round at 10:00")


NEW_YORK_INVITE = """BEGIN:VCALENDAR\r
VERSION:2.0\r
BEGIN:VEVENT\r
SUMMARY:Acme - Coding\r
DTSTART;TZID=America/New_York:20261203T090000\r
DTEND;TZID=America/New_York:20261203T094500\r
DESCRIPTION:Interviewer: Priya Raman\r
LOCATION:https://meet.example.com/abc\r
END:VEVENT\r
BEGIN:VEVENT\r
SUMMARY:Acme - System design\r
DTSTART;TZID=America/New_York:20261203T100000\r
END:VEVENT\r
END:VCALENDAR\r
"""


@pytest.fixture
def utc_machine(monkeypatch):
    import time

    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


def test_an_invitation_from_another_zone_prints_in_local_time(
    data_dir, tmp_path, capsys, utc_machine
):
    invite = tmp_path / "acme.ics"
    invite.write_text(NEW_YORK_INVITE)
    assert main(["--data-dir", str(data_dir), "schedule", "import", str(invite)]) == 0
    capsys.readouterr()
    # 13:50 UTC: the coding round (09:00 New York) is 14:00 here; its 15-minute step
    # (13:45) has passed, the 10-minute one (13:50) is now, the 5-minute one is to come
    assert main(["--data-dir", str(data_dir), "today", "--at", "2026-12-03T13:50"]) == 0
    out = capsys.readouterr().out
    assert "next: Coding round with Priya Raman at 14:00" in out, out
    assert "call: https://meet.example.com/abc" in out
    due = [line for line in out.splitlines() if line.startswith("due ")]
    assert due[0] == "due now: Coding round in 10 min (14:00)", out
    assert all(line.split()[1] > "13:50" for line in due[1:]), out
    assert "due 13:55: Coding round in 5 min (14:00)" in due
    assert not any("in 15 min (14:00)" in line for line in due), out  # passed, superseded
    assert not any("09:" in line or "08:" in line for line in out.splitlines()), out


def test_the_json_day_is_in_local_time_and_lists_only_what_is_to_come(
    data_dir, tmp_path, capsys, utc_machine
):
    import json

    invite = tmp_path / "acme.ics"
    invite.write_text(NEW_YORK_INVITE)
    assert main(["--data-dir", str(data_dir), "schedule", "import", str(invite)]) == 0
    capsys.readouterr()
    assert main(["--data-dir", str(data_dir), "today", "--at", "2026-12-03T13:50", "--json"]) == 0
    day = json.loads(capsys.readouterr().out)
    assert day["next_round"]["starts_at"] == "2026-12-03T14:00:00+00:00"
    assert day["next_round"]["interviewer"] == "Priya Raman"
    assert all(d["due_at"] > "2026-12-03T13:50:00+00:00" for d in day["due"]), day["due"]
    (now,) = day["now"]  # the 10-minute step, due at 13:50, in the words of now
    assert now["text"].startswith("Coding round in 10 min (14:00): "), day["now"]
