"""The full scan of the journal (``PRAGMA quick_check``, which reads every page: about
0.8 s at 100,000 loops) runs once a day with the daily backup and before an upgrade,
not on every open; damage is still found: at that daily check (the file is moved aside),
by `companion doctor`, and by any read that meets it (one line naming doctor)."""

from __future__ import annotations

import datetime as dt
import sqlite3
from pathlib import Path

import pytest
from demo_journal import generate

from companion.core.storage import store as store_module
from companion.core.storage.store import list_backups, open_store

DAY = dt.datetime(2026, 12, 1, 9, 0)


@pytest.fixture
def scans(monkeypatch) -> list[str]:
    """Every quick_check or integrity_check any connection of the store module runs."""
    seen: list[str] = []
    real = sqlite3.connect

    def connect(*args, **kwargs):
        conn = real(*args, **kwargs)
        conn.set_trace_callback(
            lambda sql: (
                seen.append(sql) if "quick_check" in sql or "integrity_check" in sql else None
            )
        )
        return conn

    monkeypatch.setattr(store_module.sqlite3, "connect", connect)
    return seen


def journal(tmp_path: Path) -> Path:
    path = tmp_path / "companion.sqlite3"
    store = open_store(path, now=lambda: DAY)
    generate(store.db, 40, seed=3, today=DAY.date())
    store.close()
    open_store(path, now=lambda: DAY).close()  # the daily backup, checked when made
    assert list_backups(tmp_path / "backups")
    return path


def damage(path: Path) -> None:
    """Overwrite the root pages of a few tables (not page 1: the header stays intact)."""
    conn = sqlite3.connect(path)
    page = conn.execute("PRAGMA page_size").fetchone()[0]
    roots = [
        row[0]
        for row in conn.execute(
            "SELECT rootpage FROM sqlite_master WHERE name IN ('loops', 'rounds', 'asked')"
        )
    ]
    conn.close()
    data = bytearray(path.read_bytes())
    for root in roots:
        start = (root - 1) * page
        data[start : start + page] = b"\xa5" * page
    path.write_bytes(bytes(data))


def test_an_open_within_a_day_of_the_last_check_scans_nothing(tmp_path, scans):
    path = journal(tmp_path)
    scans.clear()
    for hours in (1, 5, 23):
        open_store(path, now=lambda h=hours: DAY + dt.timedelta(hours=h)).close()
    assert scans == []


def test_the_daily_open_scans_once_and_backs_up(tmp_path, scans):
    path = journal(tmp_path)
    scans.clear()
    open_store(path, now=lambda: DAY + dt.timedelta(days=1, minutes=1)).close()
    assert len(scans) == 1
    assert len(list_backups(tmp_path / "backups")) == 2


def test_damage_is_found_at_the_daily_check_and_moved_aside(tmp_path):
    path = journal(tmp_path)
    damage(path)
    same_day = open_store(path, now=lambda: DAY + dt.timedelta(hours=2))
    assert same_day.moved_aside is None  # not scanned: the header is fine
    with pytest.raises(sqlite3.DatabaseError) as raised:
        for table in ("loops", "rounds", "asked", "flubs", "went_well", "thank_yous"):
            same_day.db.execute(f"SELECT * FROM {table}").fetchall()
    same_day.close()
    line = store_module.explain_database_error(raised.value, path)
    assert "damaged" in line and "companion doctor" in line
    next_day = open_store(path, now=lambda: DAY + dt.timedelta(days=1, hours=1))
    assert next_day.moved_aside is not None and next_day.moved_aside.exists()
    assert "moved aside" in next_day.notices[0]
    next_day.close()


def test_an_upgrade_is_checked_first_whatever_the_day(tmp_path, scans):
    path = journal(tmp_path)
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA user_version = 1")  # as an older version of the app left it
    conn.close()
    scans.clear()
    open_store(path, now=lambda: DAY + dt.timedelta(hours=1)).close()
    assert len(scans) == 1


def test_doctor_runs_the_full_check(tmp_path):
    from companion.core.health import check_health

    path = journal(tmp_path)
    damage(path)
    report = check_health(tmp_path)
    assert not report.healthy
    assert any(
        "integrity" in line or "damaged" in line or "malformed" in line for line in report.lines
    )
