"""The application context: data folder, store, content and preferences.

Built once by the application factory (or a CLI command) and handed down; nothing here
is a global. The store and the content open on first use. The store's module (and
sqlite-utils with it, 10 MiB) is imported when the store is first opened: a command that
needs no journal (``about rehearse --input``) never pays for it. The window's first frame
does without this module (it reads only the preferences), and the UI imports it after the
first paint (``companion.ui.process.launch``).
"""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from companion.core import paths
from companion.core.content.items import ContentError
from companion.core.content.loader import Content, default_folders, load_content
from companion.core.prefs import Prefs
from companion.core.settings import Settings, adopt_from_prefs
from companion.core.timeutil import local_now

if TYPE_CHECKING:
    from companion.core.storage.store import Store

log = logging.getLogger(__name__)


def _storage():
    """The store's module, imported when a journal is first opened."""
    from companion.core.storage import store  # seam: journal

    return store


class AppContext:
    def __init__(
        self,
        data_dir: Path,
        *,
        clock: Callable[[], dt.datetime] | None = None,
        prefs: Prefs | None = None,
    ):
        """``prefs``: the folder's preferences when they are open already (the window's
        first frame reads them before this context is built): one writer of the file."""
        self.data_dir = Path(data_dir)
        self.clock: Callable[[], dt.datetime] = clock or local_now
        self.prefs = prefs if prefs is not None else Prefs(paths.prefs_path(self.data_dir))
        self._store: Store | None = None
        self._content: Content | None = None
        self.content_errors: list[ContentError] = []
        self.storage_problem: str | None = None

    @property
    def db_path(self) -> Path:
        return paths.db_path(self.data_dir)

    @property
    def store(self) -> Store:
        """The journal store; a throwaway in-memory one (with ``storage_problem`` set) if
        the real one cannot be opened, so the app keeps working and tells the user."""
        if self._store is None:
            storage = _storage()
            try:
                self._store = storage.open_store(self.db_path)
            except storage.StorageError as exc:
                self.storage_problem = str(exc)
                self._store = storage.open_memory_store()
            else:
                self._adopt_prefs()
        return self._store

    def _adopt_prefs(self) -> None:
        """Settings an older version kept in prefs.json move into the journal, once."""
        if self._store.read_only:
            return
        try:
            adopt_from_prefs(Settings(self._store.db), self.prefs)
        except Exception as exc:  # a locked journal: they stay in the file, moved next time
            log.warning("could not move settings out of prefs.json: %s", exc)

    def commits(self) -> int:
        """Write transactions committed through this context's store so far."""
        return self._store.commits if self._store is not None else 0

    def reading_only(self) -> bool:
        """The journal is open read-only (an export, doctor): an error did not lose a change."""
        return self._store is not None and self._store.read_only and self._store.path is not None

    def use_read_only_store(self) -> None:
        """Open the journal only to read (exports, analyze): nothing is written to it. A
        journal that needs an upgrade is upgraded in a copy in memory, never in the file;
        a missing one opens the normal way (the command then says there is none)."""
        if self._store is not None or not self.db_path.exists():
            return
        storage = _storage()
        try:
            store = storage.open_store(self.db_path, read_only=True)
        except storage.StorageError as exc:
            self.storage_problem = str(exc)
            return
        if store.pending_migrations:
            store.close()
            try:
                store = storage.open_upgraded_copy(self.db_path)
            except storage.StorageError as exc:
                self.storage_problem = str(exc)
                return
        self._store = store

    @property
    def db(self):
        return self.store.db

    @property
    def settings(self) -> Settings:
        return Settings(self.db)

    @property
    def content(self) -> Content:
        if self._content is None:
            self._content, self.content_errors = load_content(
                default_folders(paths.user_content_dir(self.data_dir))
            )
        return self._content

    def reload_content(self) -> None:
        self._content = None

    def now(self) -> dt.datetime:
        return self.clock()

    def close(self) -> None:
        if self._store is not None:
            self._store.close()
            self._store = None
