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
