"""Changing some columns of one row: the one UPDATE the edit paths share (loops, rounds,
journal entries), after each has checked its own fields."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from sqlite_utils import Database


def set_columns(db: Database, table: str, row_id: int, values: dict) -> None:
    """``UPDATE table SET ... WHERE id = row_id``; ``table`` and the column names are the
    caller's own checked names, never user text."""
    if values:
        sets = ", ".join(f"{name} = ?" for name in values)
        db.execute(f"UPDATE {table} SET {sets} WHERE id = ?", [*values.values(), row_id])
