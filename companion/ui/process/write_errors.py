"""A write the disk refuses (full, read-only, an I/O error, a database another process
holds too long) is told in one line in the window, never as a traceback: the user's data
stays as it was and the message says what to do. Everything else is a bug and keeps
Python's own report."""

from __future__ import annotations

import sys
from collections.abc import Callable


def install(show: Callable[[str], None]) -> Callable:
    """Route disk and database write errors raised in Qt slots to ``show``; returns the
    previous hook (to put back)."""
    previous = sys.excepthook

    def hook(kind, exc, tb):
        # here, not at the top: it imports sqlite3, and install() runs before the first paint
        from companion.core.storage.refusals import storage_message  # seam: after the first paint

        message = storage_message(exc) if isinstance(exc, BaseException) else None
        if message is None:
            previous(kind, exc, tb)
            return
        print(f"companion: {message}", file=sys.stderr)
        show(message)

    sys.excepthook = hook
    return previous
