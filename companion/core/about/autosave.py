"""Autosave timing for the one-pager: save soon after typing pauses, and never let unsaved
typing get older than about a second even while the user keeps typing.

The policy is pure (times are plain monotonic seconds); :class:`Autosaver` joins it to the
store. The UI drives it with a short timer; the resilience test drives it from a process
that is then killed.
"""

from __future__ import annotations

import datetime as dt
import time
from collections.abc import Callable

from sqlite_utils import Database

from companion.core.about import store as about_store

IDLE_SECONDS = 0.4  # save this long after the last keystroke...
MAX_DELAY_SECONDS = 0.75  # ...or this long after the first unsaved one, whichever is first


class AutosavePolicy:
    def __init__(self, idle: float = IDLE_SECONDS, max_delay: float = MAX_DELAY_SECONDS):
        self.idle = idle
        self.max_delay = max_delay
        self.first_unsaved: float | None = None
        self.last_change: float | None = None

    @property
    def dirty(self) -> bool:
        return self.first_unsaved is not None

    def changed(self, now: float) -> None:
        if self.first_unsaved is None:
            self.first_unsaved = now
        self.last_change = now

    def due(self, now: float) -> bool:
        if self.first_unsaved is None or self.last_change is None:
            return False
        return now - self.last_change >= self.idle or now - self.first_unsaved >= self.max_delay

    def saved(self) -> None:
        self.first_unsaved = None
        self.last_change = None


class Autosaver:
    """Call :meth:`touch` on every edit and :meth:`tick` often (every ~100 ms while dirty);
    the text is read from ``text_source`` only when a save is due."""

    def __init__(
        self,
        db: Database,
        text_source: Callable[[], str],
        *,
        wall_clock: Callable[[], dt.datetime],
        monotonic: Callable[[], float] = time.monotonic,
        policy: AutosavePolicy | None = None,
        store=about_store,
        what: str = "the one-pager",
    ):
        self.db = db
        self.text_source = text_source
        self.wall_clock = wall_clock
        self.monotonic = monotonic
        self.policy = policy or AutosavePolicy()
        self.store = store  # about's store, or a DocumentStore (the story bank)
        self.what = what
        self.last_error: str | None = None
        self.saved_text: str | None = None

    @property
    def dirty(self) -> bool:
        return self.policy.dirty

    def touch(self) -> None:
        self.policy.changed(self.monotonic())

    def tick(self) -> bool:
        """Save if due; True when a save happened."""
        if not self.policy.due(self.monotonic()):
            return False
        return self.save_now()

    def save_now(self, reason: str = "autosave") -> bool:
        """Save at once (Ctrl+S, leaving the page, closing). False when the write failed;
        the text stays in the editor and :attr:`last_error` says why."""
        text = self.text_source()
        try:
            self.store.save_text(self.db, text, self.wall_clock(), reason=reason)
        except Exception as exc:  # sqlite3 errors, disk full: report, keep the text dirty
            self.last_error = f"Could not save {self.what}: {exc}"
            return False
        self.last_error = None
        self.saved_text = text
        self.policy.saved()
        return True
