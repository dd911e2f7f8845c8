"""One line for an error the disk or the database file gave (full, read-only, an I/O
error, held too long by another process); None for anything else (that is a bug)."""

from __future__ import annotations

import sqlite3

_DISK_WORDS = ("disk is full", "disk i/o error", "readonly", "read-only", "locked", "busy")


def storage_message(exc: BaseException) -> str | None:
    """One line for an error that comes from the disk or the database file, else None."""
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    if isinstance(exc, sqlite3.OperationalError) and any(w in text.lower() for w in _DISK_WORDS):
        return f"Could not save: {text}. Nothing was lost; free some space or close the other app, then try again."
    if isinstance(exc, OSError) and exc.errno is not None:
        where = f" ({exc.filename})" if exc.filename else ""
        return f"Could not save: {exc.strerror or text}{where}. Nothing was lost; try again."
    return None
