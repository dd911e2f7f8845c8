"""`companion doctor` says which display platform the app will use and why."""

from __future__ import annotations

import sqlite3

import pytest
from demo_journal import companion_with_demo

from companion.cli import main


def test_doctor_names_the_platform_and_the_reason(data_dir, capsys, monkeypatch):
    monkeypatch.delenv("QT_QPA_PLATFORM", raising=False)
    monkeypatch.delenv("COMPANION_WAYLAND", raising=False)
    monkeypatch.setenv("WAYLAND_DISPLAY", "wayland-0")
    monkeypatch.setenv("DISPLAY", ":5")
    main(["doctor"])
    out = capsys.readouterr().out
    assert "display platform: xcb (Wayland session with XWayland (DISPLAY=:5)" in out
    monkeypatch.setenv("COMPANION_WAYLAND", "1")
    main(["doctor"])
    assert "display platform: wayland (COMPANION_WAYLAND=1: native Wayland" in (
        capsys.readouterr().out
    )


def _loops(data_dir) -> int:
    conn = sqlite3.connect(data_dir / "companion.sqlite3")
    try:
        return conn.execute("SELECT COUNT(*) FROM loops").fetchone()[0]
    finally:
        conn.close()


@pytest.mark.parametrize("page", [b"\x20\x00", b"\x02\x00", b"\x00\x01", b"\x00\x03"])
def test_repair_sets_a_changed_page_size_back(data_dir, capsys, page):
    assert companion_with_demo(["demo", "--loops", "3"]) == 0
    conn = sqlite3.connect(data_dir / "companion.sqlite3")
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    journal = data_dir / "companion.sqlite3"
    with open(journal, "r+b") as fh:
        fh.seek(16)
        fh.write(page)
    damaged = journal.read_bytes()
    capsys.readouterr()
    assert main(["doctor"]) == 1
    assert main(["doctor", "--repair"]) == 0
    out = capsys.readouterr().out
    assert "the header was set back" in out and "moved aside" not in out
    assert _loops(data_dir) == 3
    kept = [p for p in data_dir.iterdir() if ".damaged-" in p.name]
    assert [p.read_bytes() for p in kept] == [damaged]
    assert main(["doctor"]) == 0  # and a second run has nothing to do


def test_repair_leaves_a_journal_no_page_size_makes_whole_to_the_open(data_dir, capsys):
    journal = data_dir / "companion.sqlite3"
    journal.write_bytes(b"SQLite format 3\x00" + b"\x10\x00" + b"\xff" * 4078)
    assert main(["doctor", "--repair"]) == 0
    out = capsys.readouterr().out
    assert "moved aside" in out and "set back" not in out
    assert "doctor --repair" not in out
