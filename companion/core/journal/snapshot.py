"""Reading the journal off the GUI thread: a read-only connection of its own.

SQLite connections belong to the thread that opened them, so a worker (an export of a
10,000-loop journal) opens its own. WAL lets it read while the GUI's connection writes.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from sqlite_utils import Database

from companion.core.storage.store import read_only_uri

T = TypeVar("T")


def with_read_only(db_path: Path, work: Callable[[Database], T]) -> T:
    """``work(db)`` on a new read-only connection to ``db_path``, closed afterwards."""
    conn = sqlite3.connect(read_only_uri(db_path), uri=True, timeout=5.0, isolation_level=None)
    try:
        return work(Database(conn))
    finally:
        conn.close()
