"""The schema steps: which are known, applied and pending, applying them in one
transaction, and refusing a journal a newer version wrote.

Only applying needs sqlite-utils; the questions take the bare connection."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import TYPE_CHECKING

from companion.core.storage.errors import NewerSchemaError
from companion.core.storage.schema import MIGRATION_SETS, known_steps

if TYPE_CHECKING:
    from sqlite_utils import Database


def migrate(db: Database, pending: set) -> None:
    """Apply the pending schema steps as one transaction that holds the write lock from
    its start (BEGIN IMMEDIATE): a second process opening the same new journal waits for
    it (busy timeout), then finds nothing pending, instead of creating the same tables
    and failing with 'table "_sqlite_migrations" already exists'."""
    if pending:
        db.execute("BEGIN IMMEDIATE")
        try:
            for migration_set in MIGRATION_SETS:
                migration_set.apply(db)  # its steps nest as savepoints
            db.execute(f"PRAGMA user_version = {len(known_steps())}")
            db.execute("COMMIT")
        except BaseException:
            if db.conn.in_transaction:
                db.execute("ROLLBACK")
            raise
    elif db.execute("PRAGMA user_version").fetchone()[0] != len(known_steps()):
        db.execute(f"PRAGMA user_version = {len(known_steps())}")


def table_names(conn: sqlite3.Connection) -> list[str]:
    """The tables, as sqlite-utils' ``Database.table_names()`` lists them."""
    rows = conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall()
    return [name for (name,) in rows]


def applied_steps(conn: sqlite3.Connection) -> set[tuple[str, str]]:
    if "_sqlite_migrations" not in table_names(conn):
        return set()
    rows = conn.execute("SELECT migration_set, name FROM _sqlite_migrations").fetchall()
    return {(a, b) for a, b in rows}


def pending_steps(conn: sqlite3.Connection) -> set[tuple[str, str]]:
    return known_steps() - applied_steps(conn)


def check_not_newer(conn: sqlite3.Connection, path: Path) -> None:
    unknown = applied_steps(conn) - known_steps()
    version = conn.execute("PRAGMA user_version").fetchone()[0]
    if unknown or version > len(known_steps()):
        conn.close()
        raise NewerSchemaError(
            f"The journal {path} was written by a newer version of Interview Companion "
            f"(schema {version}, this version knows {len(known_steps())}). Update the app; the "
            "file was left untouched."
        )


def upgrade_due(path: Path) -> bool:
    """The file's header says its schema is older than this code's (or cannot be read):
    a backup, and so a full check, comes first. (``user_version`` is bytes 60-63.)"""
    try:
        with open(path, "rb") as fh:
            head = fh.read(64)
    except OSError:
        return True
    if len(head) < 64:
        return True
    return int.from_bytes(head[60:64], "big") != len(known_steps())
