"""Exports of an older journal upgrade a copy in memory: the file keeps its bytes and its
schema, no pre-migration backup is written (they raised schema 7 to 11 in place)."""

from __future__ import annotations

import sqlite3

import pytest

from companion.cli import main


@pytest.fixture
def older_journal(tmp_path):
    """A journal with only the first two migration sets applied (schema 3)."""
    from sqlite_utils import Database

    from companion.core.storage.schema import MIGRATION_SETS

    data = tmp_path / "data"
    data.mkdir(mode=0o700)
    path = data / "companion.sqlite3"
    db = Database(path)
    for migration_set in MIGRATION_SETS[:2]:
        migration_set.apply(db)
    db.execute("PRAGMA user_version = 3")
    db.conn.commit()
    db.close()
    return data


@pytest.mark.parametrize(
    "argv",
    [
        ["journal", "export", "-o", "{out}/j.json"],
        ["export", "study-list", "-o", "{out}/s.md"],
        ["about", "analyze"],
    ],
)
def test_exports_of_an_older_journal_leave_the_file_as_it_was(older_journal, tmp_path, argv):
    path = older_journal / "companion.sqlite3"
    before = path.read_bytes()
    argv = [a.replace("{out}", str(tmp_path)) for a in argv]
    code = main(["--data-dir", str(older_journal), *argv])
    assert code in (0, 1)  # analyze of no one-pager says so (1); the rest export (0)
    assert path.read_bytes() == before
    assert not (older_journal / "backups").exists()
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == 3
