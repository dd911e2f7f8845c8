"""The Journal page's exports and import: the study list and the whole journal, off the GUI thread."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtWidgets import QApplication, QWidget

from companion.core.changes import DAY_KINDS, Change
from companion.core.journal.files import export_journal, import_journal
from companion.core.journal.validate import JournalImportError
from companion.core.study.exports import SUFFIXES, export_study_list
from companion.core.study.ranking import GuideIndex
from companion.core.text import count_of
from companion.ui.journal.files import STUDY_FILTERS, ExportRunner, FileDialogs


def start_study_export(page, fmt: str, path: Path) -> None:
    """Export the study list on the page's ExportRunner (shared with the Study page)."""

    now = page.ctx.now()
    guide = GuideIndex(page.ctx.content)  # built on the GUI thread; read-only afterwards

    def work(db) -> str:
        count = export_study_list(db, fmt, path, now, guide=guide)
        return f"Wrote {count_of(count, 'topic')} to {path}."

    _start_export(page, work, path)


def _start_export(page, work, path: Path) -> None:
    """Start ``work`` on the page's ExportRunner and say so in the page's status line
    (``page``: anything with an ``exporter`` and a ``status``)."""
    if not page.exporter.start(work):
        page.status("An export is already running.")
    else:
        page.status(f"Exporting to {path}…")


class JournalTransfer(QObject):
    """Export the study list or the journal and import a journal, for the page that is
    its parent (the file dialogs open on it; an import is announced as the page's own).
    What happened is said through ``said``."""

    said = Signal(str)

    def __init__(self, ctx, bus, page: QWidget):
        super().__init__(page)
        self.ctx = ctx
        self.bus = bus
        self.file_dialogs = FileDialogs(ctx)
        self.exporter = ExportRunner(ctx, self)
        self.exporter.finished.connect(self._export_done)

    def status(self, text: str) -> None:
        self.said.emit(text)

    def _page(self) -> QWidget:
        return self.parent()  # the Qt parent, not an attribute: no cycle through the page

    def _suggest(self, name: str) -> Path:
        return Path.home() / name

    def export_study_list(self, fmt: str) -> None:
        self.file_dialogs.save_path(
            self._page(),
            "Export the study list",
            self._suggest(f"study-list{SUFFIXES[fmt]}"),
            STUDY_FILTERS[fmt],
            lambda path: start_study_export(self, fmt, path),
        )

    def export_journal(self) -> None:
        self.file_dialogs.save_path(
            self._page(),
            "Export the whole journal",
            self._suggest("journal.json"),
            "JSON (*.json)",
            self.export_journal_to,
        )

    def export_journal_to(self, path: Path) -> None:
        now = self.ctx.now()

        def work(db) -> str:
            count = export_journal(db, path, now)
            return f"Wrote {count_of(count, 'loop')} to {path}."

        _start_export(self, work, path)

    def import_journal(self) -> None:
        self.file_dialogs.open_path(
            self._page(), "Import a journal", Path.home(), "JSON (*.json)", self.import_journal_from
        )

    def import_journal_from(self, path: Path) -> None:
        self.status(f"Importing {path.name}…")
        # a large journal takes a second or two on this thread (SQLite writes belong
        # to the GUI's connection): say so with the cursor rather than look frozen
        QApplication.setOverrideCursor(Qt.CursorShape.WaitCursor)
        try:
            report = import_journal(self.ctx.db, path)
        except JournalImportError as exc:
            self.status(f"{exc} Nothing was imported.")
            return
        finally:
            QApplication.restoreOverrideCursor()
        self.status(" ".join([report.summary(), *report.warnings()]))

        self.bus.announce(Change.of(*DAY_KINDS, "plan", "study", origin=self._page()))

    def _export_done(self, ok: bool, message: str) -> None:
        self.status(message if ok else f"Export failed: {message}")
