"""A write the disk refuses (full, read-only, an I/O error, a database another process
holds too long) is told in one line in the window, never as a traceback: the user's data
stays as it was and the message says what to do. Everything else is a bug and keeps
Python's own report."""

from __future__ import annotations

import sqlite3
import sys
from collections.abc import Callable

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


def install(show: Callable[[str], None]) -> Callable:
    """Route disk and database write errors raised in Qt slots to ``show``; returns the
    previous hook (to put back)."""
    previous = sys.excepthook

    def hook(kind, exc, tb):
        message = storage_message(exc) if isinstance(exc, BaseException) else None
        if message is None:
            previous(kind, exc, tb)
            return
        print(f"companion: {message}", file=sys.stderr)
        show(message)

    sys.excepthook = hook
    return previous
