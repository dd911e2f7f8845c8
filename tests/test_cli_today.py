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
