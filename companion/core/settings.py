"""Plain JSON settings kept in the journal database."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the handle is handed in: this module loads with the context
    from sqlite_utils import Database


class Settings:
    def __init__(self, db: Database):
        self._db = db

    def get(self, key: str, default: Any = None) -> Any:
        row = self._db.execute("SELECT value FROM settings WHERE key = ?", [key]).fetchone()
        if row is None:
            return default
        try:
            return json.loads(row[0])
        except (TypeError, ValueError):
            return default

    def set(self, key: str, value: Any) -> None:
        self._db["settings"].upsert({"key": key, "value": json.dumps(value)}, pk="key")
