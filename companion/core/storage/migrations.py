"""The schema steps: which are known, applied and pending, applying them in one
transaction, and refusing a journal a newer version wrote."""

from __future__ import annotations

from pathlib import Path

from sqlite_utils import Database

from companion.core.storage.errors import NewerSchemaError
from companion.core.storage.schema import MIGRATION_SETS, known_steps


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


def applied_steps(db: Database) -> set[tuple[str, str]]:
    if "_sqlite_migrations" not in db.table_names():
        return set()
    rows = db.execute("SELECT migration_set, name FROM _sqlite_migrations").fetchall()
    return {(a, b) for a, b in rows}


def pending_steps(db: Database) -> set[tuple[str, str]]:
    return known_steps() - applied_steps(db)


def check_not_newer(db: Database, path: Path) -> None:
    unknown = applied_steps(db) - known_steps()
    version = db.execute("PRAGMA user_version").fetchone()[0]
    if unknown or version > len(known_steps()):
        db.close()
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
