"""Plain JSON settings kept in the journal database: every key that
:mod:`companion.core.setting_homes` declares for it, and no other."""

from __future__ import annotations

import json
import sqlite3
from typing import TYPE_CHECKING, Any

from companion.core.setting_homes import DATABASE, check_home, declared
from companion.core.storage.errors import explain_database_error

if TYPE_CHECKING:  # the handle is handed in: this module loads with the context
    from sqlite_utils import Database

    from companion.core.prefs import Prefs


class Settings:
    def __init__(self, db: Database):
        self._db = db

    def get(self, key: str, default: Any = None) -> Any:
        check_home(key, DATABASE)
        row = self._db.execute("SELECT value FROM settings WHERE key = ?", [key]).fetchone()
        if row is None:
            return default
        try:
            return json.loads(row[0])
        except (TypeError, ValueError):
            return default

    def set(self, key: str, value: Any) -> None:
        check_home(key, DATABASE)
        self._db["settings"].upsert({"key": key, "value": json.dumps(value)}, pk="key")

    def keep(self, key: str, value: Any) -> str | None:
        """:meth:`set` for a choice the user just made: a journal that refuses the write
        gives one line to show (what happened, what to do), not an exception."""
        try:
            self.set(key, value)
        except sqlite3.Error as exc:
            return explain_database_error(exc, None)
        return None

    def _has(self, key: str) -> bool:
        return (
            self._db.execute("SELECT 1 FROM settings WHERE key = ?", [key]).fetchone() is not None
        )


def adopt_from_prefs(settings: Settings, prefs: Prefs) -> list[str]:
    """Move the settings whose home is the database now out of ``prefs.json`` (an older
    version kept them there): each value goes into the database unless it holds one
    already (a newer value, written since), and leaves the file. Returns the keys moved
    out; the file is saved only when there were any (a problem saving is the file's own
    and shows as before; the database has the values either way)."""
    moving = [
        k for k in prefs.stored_keys() if (s := declared(k)) is not None and s.home == DATABASE
    ]
    for key in moving:  # all in the database first: a failure here leaves the file as it was
        value = prefs.left_behind(key)
        if value is not None and not settings._has(key):
            settings.set(key, value)
    for key in moving:
        prefs.drop(key)
    if moving:
        prefs.save()
    return moving
