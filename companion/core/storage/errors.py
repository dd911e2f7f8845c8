"""The journal's errors and their one-line explanations: what happened, where, and what
to do (the busy timeout a writer waits, read from the environment, is one of them)."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

from companion.core import paths
from companion.core.text import count_of


class StorageError(Exception):
    """A problem the user must read: the message says what and where."""


def busy_timeout_s() -> float:
    """Seconds a writer waits for another (``COMPANION_BUSY_TIMEOUT``, default 10);
    StorageError for a value that is not a number of seconds."""
    import math

    text = os.environ.get(BUSY_TIMEOUT_ENV, "").strip()
    if not text:
        return BUSY_TIMEOUT_S
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not math.isfinite(value) or value < 0 or value > 24 * 3600:
        raise StorageError(
            f"{BUSY_TIMEOUT_ENV}={text[:40]!r} is not a number of seconds between 0 and "
            f"86400; unset it (the default is {BUSY_TIMEOUT_S:g}) or give one, e.g. 30."
        )
    return value


class NewerSchemaError(StorageError):
    pass


class BackupError(StorageError):
    """A backup could not be written; the message says where and why."""


def _shown_timeout() -> str:
    try:
        return f"{busy_timeout_s():g}"
    except StorageError:
        return f"{BUSY_TIMEOUT_S:g}"


def os_reason(exc: OSError) -> str:
    return exc.strerror or str(exc)


def explain_operational(exc: sqlite3.OperationalError, path: Path) -> str:
    text = str(exc)
    if "readonly" in text or "read-only" in text or "unable to open" in text:
        why = paths.not_writable(path.parent) or "is not writable"
        return (
            f"The data folder {path.parent} {why} ({text}). Your saved data is "
            "untouched; make the folder writable or start with --data-dir elsewhere."
        )
    return explain_database_error(exc, path, doing="open")


def explain_database_error(
    exc: sqlite3.Error, path: Path | None, *, doing: str = "save", saved: int = 0
) -> str:
    """One line for an SQLite error at open or commit: what happened, where, what to do.
    ``saved``: transactions this command had already committed (they stay saved)."""
    text = str(exc)
    where = str(path) if path is not None else "the journal"
    if saved:
        return (
            f"The journal {where} refused a later write ({text}) after this command had "
            f"saved {count_of(saved, 'change')}, which stay saved; run `companion doctor` to check it."
        )
    if "full" in text:
        return (
            f"The disk holding {where} is full ({text}); this change was not saved. Free some "
            "space and try again; nothing saved before was lost."
        )
    if "malformed" in text or "not a database" in text:
        return (
            f"The journal {where} is damaged ({text}); this change was not saved. "
            "`companion doctor` checks it, `companion doctor --repair` moves it aside and "
            "`companion doctor --restore` puts the newest backup back."
        )
    if "disk I/O error" in text:
        lost = (
            "this change was not saved" if doing == "save" else f"this command could not {doing} it"
        )
        return (
            f"The disk holding {where} reported an I/O error ({text}); {lost}. Check the "
            "disk (or a file-size limit), then run `companion doctor`."
        )
    if "locked" in text or "busy" in text:
        return (
            f"Another program kept the journal {where} busy for more than "
            f"{_shown_timeout()} s ({text}); this command did not {doing} anything. "
            "Try again when the other Interview Companion window or command is done."
        )
    if "readonly" in text or "read-only" in text:
        return (
            f"The journal {where} is read-only ({text}); fix its permissions or start with "
            "--data-dir elsewhere."
        )
    return f"Cannot {doing} the journal {where}: {text}"


# another process writing: wait this long before giving up (COMPANION_BUSY_TIMEOUT, seconds)
BUSY_TIMEOUT_S = 10.0


BUSY_TIMEOUT_ENV = "COMPANION_BUSY_TIMEOUT"
