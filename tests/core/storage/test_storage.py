"""Opening the database: migrations, pragmas, newer schemas, backups, damaged files."""

from __future__ import annotations

import datetime as dt
import sqlite3

import pytest

from companion.core.day import loops
from companion.core.storage.schema import MIGRATION_SETS, known_steps
from companion.core.storage.store import (
    NewerSchemaError,
    backup,
    list_backups,
    open_store,
    restore_backup,
)


@pytest.fixture
def db_file(tmp_path):
    return tmp_path / "data" / "companion.sqlite3"


def _open(path, **kw):
    store = open_store(path, **kw)
    return store


def test_fresh_database_gets_every_migration(db_file):
    store = _open(db_file)
    try:
        applied = {
            tuple(r) for r in store.db.execute("SELECT migration_set, name FROM _sqlite_migrations")
        }
        assert applied == known_steps()
        assert store.schema_version() == len(known_steps())
        assert {"settings", "loops", "rounds"} <= set(store.db.table_names())
        assert store.notices == []
        assert store.quick_check() == "ok"
    finally:
        store.close()


def test_every_migration_set_has_a_unique_name():
    names = [m.name for m in MIGRATION_SETS]
    assert len(names) == len(set(names))


def test_a_set_of_steps_applies_each_once_in_order_and_refuses_a_second_name():
    from sqlite_utils import Database

    from companion.core.storage.schema.steps import Steps

    steps = Steps("test.set")

    @steps()
    def m001_first(db):
        db.execute("CREATE TABLE first (x)")

    @steps(name="m002_renamed", transactional=False)
    def second(db):
        db.execute("CREATE TABLE second (x)")

    with pytest.raises(ValueError, match="m001_first"):
        steps(name="m001_first")(lambda db: None)
    db = Database(memory=True)
    steps.apply(db)
    steps.apply(db)  # applied steps are not run again (the table would exist)
    rows = db.execute("SELECT name FROM _sqlite_migrations ORDER BY rowid").fetchall()
    assert [name for (name,) in rows] == ["m001_first", "m002_renamed"]
    assert {"first", "second"} <= set(db.table_names())


def test_a_read_only_open_reads_through_the_bare_connection(db_file):
    """Reading the saved one-pager needs no sqlite-utils: the store makes its Database
    only when asked for one (``about rehearse`` stays within 40 MiB)."""
    _open(db_file).close()
    store = _open(db_file, read_only=True)
    try:
        assert store.conn.execute("SELECT COUNT(*) FROM loops").fetchone() == (0,)
        assert store._db is None and store.commits == 0
        assert store.db.table_names() and store.db is store.db
    finally:
        store.close()


def test_reopening_keeps_data_and_applies_nothing_twice(db_file):
    store = _open(db_file)
    loop_id = loops.create_loop(store.db, "Acme")
    store.close()
    store = _open(db_file)
    try:
        assert loops.get_loop(store.db, loop_id).company == "Acme"
        count = store.db.execute("SELECT count(*) FROM _sqlite_migrations").fetchone()[0]
        assert count == len(known_steps())
    finally:
        store.close()


def test_wal_and_foreign_keys_are_on(db_file):
    store = _open(db_file)
    try:
        assert store.db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert store.db.execute("PRAGMA foreign_keys").fetchone()[0] == 1
        with pytest.raises(sqlite3.IntegrityError):
            loops.add_round(store.db, 9999, "coding")  # no such loop
    finally:
        store.close()


def test_newer_user_version_is_refused_and_file_untouched(db_file):
    _open(db_file).close()
    conn = sqlite3.connect(db_file)
    conn.execute("PRAGMA user_version = 999")
    conn.close()
    before = db_file.read_bytes()
    with pytest.raises(NewerSchemaError, match="newer version") as info:
        open_store(db_file)
    assert str(db_file) in str(info.value)
    assert db_file.read_bytes() == before


def test_unknown_migration_row_is_refused(db_file):
    _open(db_file).close()
    conn = sqlite3.connect(db_file)
    conn.execute(
        "INSERT INTO _sqlite_migrations (migration_set, name, applied_at) "
        "VALUES ('companion.future', 'm001_flying_cars', '2030-01-01')"
    )
    conn.commit()
    conn.close()
    with pytest.raises(NewerSchemaError):
        open_store(db_file)


def test_backup_rotation_keeps_the_newest_n(db_file, tmp_path):
    store = _open(db_file)
    folder = tmp_path / "backups"
    start = dt.datetime(2026, 12, 1, 9, 0)
    try:
        made = [
            backup(store.conn, folder, start + dt.timedelta(hours=n), keep=3, reason="test")
            for n in range(5)
        ]
    finally:
        store.close()
    kept = list_backups(folder)
    assert kept == sorted(made[2:], key=lambda p: p.name, reverse=True)
    for path in kept:
        conn = sqlite3.connect(path)
        assert conn.execute("PRAGMA quick_check").fetchone()[0] == "ok"
        conn.close()


def test_no_backup_of_a_database_that_fails_quick_check(db_file, tmp_path):
    store = _open(db_file)
    folder = tmp_path / "backups"
    backup(store.conn, folder, dt.datetime(2026, 12, 1, 9), keep=2)
    existing = list_backups(folder)

    class FailingCheck:
        """The real database, except quick_check reports damage."""

        def __init__(self, conn):
            self._conn = conn

        def backup(self, dest):
            self._conn.backup(dest)

        def execute(self, sql, *args):
            if "quick_check" in sql:
                return self._conn.execute("SELECT 'row 3 missing from index'")
            return self._conn.execute(sql, *args)

    try:
        result = backup(FailingCheck(store.conn), folder, dt.datetime(2026, 12, 2, 9), keep=1)
    finally:
        store.close()
    assert result is None
    assert list_backups(folder) == existing  # nothing added, and no good backup rotated out


def _days_later(days: int):
    base = dt.datetime.now().astimezone()
    return base + dt.timedelta(days=days)


def test_daily_backup_is_taken_once_a_day_by_the_clock(db_file, clock):
    clock.set(_days_later(30))  # a clock that is not the wall clock (as in every test)
    folder = db_file.parent / "backups"
    _open(db_file, now=clock).close()  # fresh: nothing worth backing up yet
    assert list_backups(folder) == []
    _open(db_file, now=clock).close()
    assert len(list_backups(folder)) == 1
    clock.advance(hours=3)
    _open(db_file, now=clock).close()
    assert len(list_backups(folder)) == 1, "a second backup on the same day"
    clock.advance(days=1)
    _open(db_file, now=clock).close()
    assert len(list_backups(folder)) == 2


def test_daily_backup_with_the_wall_clock(db_file):
    folder = db_file.parent / "backups"
    _open(db_file).close()
    assert list_backups(folder) == []
    _open(db_file).close()
    _open(db_file).close()
    assert len(list_backups(folder)) == 1  # the second open the same day takes none


def test_corrupt_file_is_moved_aside_and_restorable(db_file):
    store = _open(db_file)
    loop_id = loops.create_loop(store.db, "Initech", "Staff engineer")
    store.close()
    _open(db_file).close()  # the daily backup now holds the loop
    backups = list_backups(db_file.parent / "backups")
    assert len(backups) == 1

    garbage = b"this is not a database\n" * 200
    db_file.write_bytes(garbage)
    for side in ("-wal", "-shm"):
        db_file.with_name(db_file.name + side).unlink(missing_ok=True)
    store = _open(db_file)
    try:
        assert store.moved_aside is not None
        assert store.moved_aside.read_bytes() == garbage  # moved, never deleted
        assert len(store.notices) == 1
        assert "moved aside" in store.notices[0] and str(db_file) in store.notices[0]
        assert loops.list_loops(store.db) == []
    finally:
        store.close()

    restore_backup(backups[0], db_file)
    store = _open(db_file)
    try:
        assert loops.get_loop(store.db, loop_id).company == "Initech"
        assert store.notices == []
    finally:
        store.close()


def test_empty_file_is_a_new_database(db_file):
    db_file.parent.mkdir(parents=True)
    db_file.write_bytes(b"")
    store = _open(db_file)
    try:
        assert store.notices == []
        assert store.moved_aside is None
        assert "loops" in store.db.table_names()
    finally:
        store.close()
