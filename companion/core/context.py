"""The application context: data folder, store, content and preferences, opened lazily.

Built once by the application factory (or a CLI command) and handed down; nothing here
is a global. Heavy pieces (sqlite-utils, the content folder) load on first use, so the
first window can paint before they are needed.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from companion.core import paths
from companion.core.prefs import Prefs
from companion.core.settings import Settings

if TYPE_CHECKING:
    import datetime as dt

    from companion.core.content.items import ContentError
    from companion.core.content.loader import Content
    from companion.core.storage.store import Store


class AppContext:
    def __init__(
        self,
        data_dir: Path,
        *,
        clock: Callable[[], dt.datetime] | None = None,
    ):
        self.data_dir = Path(data_dir)
        self.clock: Callable[[], dt.datetime] = clock or _local_now
        self.prefs = Prefs(paths.prefs_path(self.data_dir))
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
            # seam: after the first paint (the database and sqlite-utils open after it)
            from companion.core.storage.store import (
                StorageError,
                open_memory_store,
                open_store,
            )

            try:
                self._store = open_store(self.db_path)
            except StorageError as exc:
                self.storage_problem = str(exc)
                self._store = open_memory_store()
        return self._store

    def commits(self) -> int:
        """Write transactions committed through this context's store so far."""
        return getattr(self._store.db, "commits", 0) if self._store is not None else 0

    def reading_only(self) -> bool:
        """The journal is open read-only (an export, doctor): an error did not lose a change."""
        return self._store is not None and self._store.read_only and self._store.path is not None

    def use_read_only_store(self) -> None:
        """Open the journal only to read (exports, analyze): nothing is written to it. A
        journal that needs an upgrade is upgraded in a copy in memory, never in the file;
        a missing one opens the normal way (the command then says there is none)."""
        if self._store is not None or not self.db_path.exists():
            return
        # seam: after the first paint (the database and sqlite-utils open after it)
        from companion.core.storage.store import StorageError, open_store, open_upgraded_copy

        try:
            store = open_store(self.db_path, read_only=True)
        except StorageError as exc:
            self.storage_problem = str(exc)
            return
        if store.pending_migrations:
            store.close()
            try:
                store = open_upgraded_copy(self.db_path)
            except StorageError as exc:
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
            # seam: after the first paint (the content pack loads after it)
            from companion.core.content.loader import default_folders, load_content

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


def _local_now():
    # seam: after the first paint (the first frame asks no clock)
    from companion.core.timeutil import local_now

    return local_now()
