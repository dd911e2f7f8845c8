"""File dialogs that open without a nested loop, and exports run off the GUI thread.

Pages hold a ``FileDialogs`` instance in ``self.file_dialogs``: the dialog opens, the
method returns at once, and the page's callback runs with the path once one is chosen
(tests pick it in the open dialog, as a user does). Exports run on a worker thread with
their own read connection to the database file (core.journal.snapshot) (WAL lets it read while the GUI
writes), so even a 10,000-loop journal export never freezes the window.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QObject, QRunnable, QThreadPool, Signal
from PySide6.QtWidgets import QFileDialog, QWidget

from companion.core.journal.snapshot import with_read_only
from companion.core.study.exports import EXPORT_FORMATS
from companion.ui.widgets.opening import choose_file

# the study list's formats as the core declares them: a save dialog's filter, a menu entry
STUDY_FILTERS = {name: f.file_filter for name, f in EXPORT_FORMATS.items()}
STUDY_TITLES = {name: f.menu for name, f in EXPORT_FORMATS.items()}


class FileDialogs:
    """The file dialogs, opening in the last folder used (kept in ``ctx``'s settings); each
    returns the open dialog, and ``then(path)`` runs once a file is chosen (nothing on
    cancel)."""

    def __init__(self, ctx=None):
        self.ctx = ctx

    def save_path(
        self, parent: QWidget, title: str, suggested: Path, filters: str, then: Callable
    ) -> QFileDialog:
        return choose_file(
            parent,
            title,
            suggested,
            filters,
            lambda path, _f: then(path),
            save=True,
            ctx=self.ctx,
        )

    def open_path(
        self, parent: QWidget, title: str, start: Path, filters: str, then: Callable
    ) -> QFileDialog:
        return choose_file(parent, title, start, filters, lambda path, _f: then(path), ctx=self.ctx)


class _Signals(QObject):
    done = Signal(bool, str)  # ok, message


class _Job(QRunnable):
    def __init__(self, db_path: Path, work: Callable, signals: _Signals):
        super().__init__()
        self.db_path = db_path
        self.work = work
        self.signals = signals

    def run(self) -> None:
        try:
            message = with_read_only(self.db_path, self.work)
        except Exception as exc:  # reported to the user, never a crash of the worker
            self.signals.done.emit(False, _why(exc))
            return
        self.signals.done.emit(True, message)


def _why(exc: Exception) -> str:
    if isinstance(exc, OSError):
        return f"Could not write the file: {exc.strerror or exc}."
    return str(exc)


class ExportRunner(QObject):
    """Runs one export at a time on the thread pool; ``finished(ok, message)`` after."""

    finished = Signal(bool, str)

    def __init__(self, ctx, parent: QObject | None = None):
        super().__init__(parent)
        self.ctx = ctx
        self.busy = False
        self._signals = _Signals()
        self._signals.done.connect(self._done)

    def start(self, work: Callable) -> bool:
        """``work(db) -> message`` runs on a worker thread; False if one is already running."""
        if self.busy:
            return False
        self.busy = True
        store = self.ctx.store
        path = store.path
        if path is None:  # the in-memory fallback cannot be shared with a thread
            try:
                message = work(store.db)
            except Exception as exc:
                self._done(False, _why(exc))
            else:
                self._done(True, message)
            return True
        QThreadPool.globalInstance().start(_Job(path, work, self._signals))
        return True

    def _done(self, ok: bool, message: str) -> None:
        self.busy = False
        self.finished.emit(ok, message)
