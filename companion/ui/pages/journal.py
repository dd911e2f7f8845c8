"""The Journal page: loops, each loop's rounds with what was asked, flubbed and went well,
the thank-you tracker, search as you type, exports and import."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QModelIndex, Qt, QTimer
from PySide6.QtGui import QGuiApplication, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListView,
    QMenu,
    QPlainTextEdit,
    QPushButton,
    QSplitter,
    QStackedWidget,
    QToolButton,
    QTreeView,
    QVBoxLayout,
    QWidget,
)

from companion.ui.journal_files import STUDY_FILTERS, STUDY_TITLES, ExportRunner, FileDialogs
from companion.ui.journal_models import OBJECT, LoopListModel, RoundTreeModel, SearchResultsModel

EMPTY_TEXT = (
    "No loops yet.\n\nAdd one with “New loop…”. After each round, the cue card's capture "
    "(or “Capture…” here) takes what was asked and what you flubbed in under a minute."
)


class NewLoopDialog(QDialog):
    def __init__(self, parent=None):
        super().__init__(parent)
        self.setWindowTitle("New loop")
        self.company = QLineEdit()
        self.company.setAccessibleName("Company")
        self.role = QLineEdit()
        self.role.setAccessibleName("Role")
        self.day = QLineEdit()
        self.day.setAccessibleName("Date, YYYY-MM-DD")
        self.day.setPlaceholderText("YYYY-MM-DD")
        form = QFormLayout(self)
        form.addRow("&Company", self.company)
        form.addRow("&Role", self.role)
        form.addRow("&Date", self.day)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)


class ThankYouBox(QGroupBox):
    """Per loop: when it is due, to whom, the draft; copy, mark sent."""

    def __init__(self, page: JournalPage):
        super().__init__("Thank-you note")
        self.page = page
        self.loop_id: int | None = None
        self.setAccessibleName("Thank-you note")
        self.due = QLabel()
        self.due.setAccessibleName("Thank-you due")
        self.to_whom = QLineEdit()
        self.to_whom.setAccessibleName("Thank-you to")
        self.to_whom.setPlaceholderText("To whom (recruiter, hiring manager…)")
        self.draft = QPlainTextEdit()
        self.draft.setAccessibleName("Thank-you draft")
        self.draft.setTabChangesFocus(True)
        self.draft.setMaximumHeight(140)
        self.fill = QPushButton("&Draft from notes")
        self.copy = QPushButton("&Copy")
        self.copy.setAccessibleName("Copy the draft to the clipboard")
        self.sent = QPushButton("Mark &sent")
        self.fill.clicked.connect(self.fill_draft)
        self.copy.clicked.connect(self.copy_draft)
        self.sent.clicked.connect(self.toggle_sent)
        self.to_whom.editingFinished.connect(self.save)
        self._save_timer = QTimer(self)
        self._save_timer.setSingleShot(True)
        self._save_timer.setInterval(600)
        self._save_timer.timeout.connect(self.save)
        self.draft.textChanged.connect(self._save_timer.start)
        row = QHBoxLayout()
        row.addWidget(self.fill)
        row.addWidget(self.copy)
        row.addStretch(1)
        row.addWidget(self.sent)
        layout = QVBoxLayout(self)
        layout.addWidget(self.due)
        layout.addWidget(self.to_whom)
        layout.addWidget(self.draft)
        layout.addLayout(row)
        self._sent = False

    def show_loop(self, loop_id: int | None, thank_you) -> None:
        self._save_timer.stop()
        self.loop_id = loop_id
        self.setEnabled(loop_id is not None)
        if loop_id is None or thank_you is None:
            self.due.setText("")
            self.draft.blockSignals(True)
            self.draft.setPlainText("")
            self.draft.blockSignals(False)
            return
        self._sent = thank_you.sent
        if thank_you.sent:
            self.due.setText(f"Sent {thank_you.sent_at[:16].replace('T', ' ')} UTC.")
        elif thank_you.due_at is None:
            self.due.setText("Due 24 h after the last round ends.")
        else:
            left = thank_you.due_at - self.page.ctx.now()
            hours = int(left.total_seconds() // 3600)
            stamp = thank_you.due_at.astimezone().strftime("%a %d %b %H:%M")
            self.due.setText(f"Due {stamp} ({'overdue' if hours < 0 else f'in {hours} h'}).")
        self.sent.setText("Mark &not sent" if thank_you.sent else "Mark &sent")
        self.to_whom.setText(thank_you.to_whom)
        self.draft.blockSignals(True)
        self.draft.setPlainText(thank_you.draft)
        self.draft.blockSignals(False)

    def save(self) -> None:
        from companion.core.journal import save_thank_you

        if self.loop_id is None:
            return
        try:
            save_thank_you(
                self.page.ctx.db,
                self.loop_id,
                to_whom=self.to_whom.text(),
                draft=self.draft.toPlainText(),
            )
        except ValueError as exc:
            self.page.status(f"Thank-you not saved: {exc}")

    def fill_draft(self) -> None:
        from companion.core.journal import default_recipient, draft_thank_you

        if self.loop_id is None:
            return
        if not self.to_whom.text().strip():
            self.to_whom.setText(default_recipient(self.page.ctx.db, self.loop_id))
        self.save()
        self.draft.setPlainText(draft_thank_you(self.page.ctx.db, self.loop_id))
        self.save()

    def copy_draft(self) -> None:
        QGuiApplication.clipboard().setText(self.draft.toPlainText())
        self.page.status("Draft copied to the clipboard.")

    def toggle_sent(self) -> None:
        from companion.core.journal import save_thank_you

        if self.loop_id is None:
            return
        self._save_timer.stop()
        self.save()
        save_thank_you(
            self.page.ctx.db, self.loop_id, sent_at=None if self._sent else self.page.ctx.now()
        )
        self.page.bus.journal_changed.emit()


class JournalPage(QWidget):
    def __init__(self, ctx, bus, parent=None):
        super().__init__(parent)
        self.ctx = ctx
        self.bus = bus
        self.file_dialogs = FileDialogs()
        self.exporter = ExportRunner(ctx, self)
        self.exporter.finished.connect(self._export_done)
        self.current_loop_id: int | None = None
        self._loaded = False
        self.setAccessibleName("Journal")

        # top bar: search, new loop, exports
        self.search = QLineEdit()
        self.search.setPlaceholderText("Search the journal…  (Ctrl+F)")
        self.search.setAccessibleName("Search the journal")
        self.search.setClearButtonEnabled(True)
        self.search.textChanged.connect(self._search_soon)
        self._search_timer = QTimer(self)
        self._search_timer.setSingleShot(True)
        self._search_timer.setInterval(60)
        self._search_timer.timeout.connect(self.run_search)
        new_loop = QPushButton("&New loop…")
        new_loop.clicked.connect(self.new_loop)
        self.export_button = QToolButton()
        self.export_button.setText("&Export")
        self.export_button.setAccessibleName("Export or import")
        self.export_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        menu = QMenu(self.export_button)
        for fmt, title in STUDY_TITLES.items():
            menu.addAction(f"Study list as {title}", lambda f=fmt: self.export_study_list(f))
        menu.addSeparator()
        menu.addAction("Whole journal (JSON)…", self.export_journal)
        menu.addAction("Import a journal (JSON)…", self.import_journal)
        self.export_button.setMenu(menu)
        top = QHBoxLayout()
        top.addWidget(self.search, 1)
        top.addWidget(new_loop)
        top.addWidget(self.export_button)

        # left: loops or search results
        self.loops_model = LoopListModel(self)
        self.loops_view = QListView()
        self.loops_view.setModel(self.loops_model)
        self.loops_view.setAccessibleName("Loops")
        self.loops_view.setUniformItemSizes(True)
        self.loops_view.selectionModel().currentChanged.connect(self._loop_chosen)
        self.results_model = SearchResultsModel(self)
        self.results_view = QListView()
        self.results_view.setModel(self.results_model)
        self.results_view.setAccessibleName("Search results")
        self.results_view.setWordWrap(True)
        self.results_view.activated.connect(self._result_chosen)
        self.results_view.clicked.connect(self._result_chosen)
        self.results_empty = QLabel("No matches.")
        self.results_empty.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.left = QStackedWidget()
        self.left.addWidget(self.loops_view)
        self.left.addWidget(self.results_view)
        self.left.addWidget(self.results_empty)

        # right: one loop
        self.title = QLabel()
        self.title.setObjectName("pageTitle")
        self.title.setTextFormat(Qt.TextFormat.PlainText)
        self.title.setAccessibleName("Loop")
        self.rounds_model = RoundTreeModel(self)
        self.rounds_view = QTreeView()
        self.rounds_view.setModel(self.rounds_model)
        self.rounds_view.setAccessibleName("Rounds and what was written for each")
        self.rounds_view.setAlternatingRowColors(True)
        self.rounds_view.setUniformRowHeights(True)
        capture = QPushButton("&Capture…")
        capture.setAccessibleName("Capture what was asked for the selected round")
        capture.clicked.connect(self.capture_selected)
        self.thank_you = ThankYouBox(self)
        detail = QWidget()
        dl = QVBoxLayout(detail)
        dl.setContentsMargins(0, 0, 0, 0)
        head = QHBoxLayout()
        head.addWidget(self.title, 1)
        head.addWidget(capture)
        dl.addLayout(head)
        dl.addWidget(self.rounds_view, 1)
        dl.addWidget(self.thank_you)
        self.empty = QLabel(EMPTY_TEXT)
        self.empty.setWordWrap(True)
        self.empty.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.empty.setAccessibleName("The journal is empty")
        self.right = QStackedWidget()
        self.right.addWidget(detail)
        self.right.addWidget(self.empty)

        splitter = QSplitter()
        splitter.addWidget(self.left)
        splitter.addWidget(self.right)
        splitter.setStretchFactor(1, 3)
        splitter.setSizes([260, 640])
        self.message = QLabel()
        self.message.setAccessibleName("Journal status")
        self.message.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(splitter, 1)
        layout.addWidget(self.message)
        QShortcut(QKeySequence.StandardKey.Find, self, self.search.setFocus)
        QShortcut(QKeySequence("Escape"), self.search, lambda: self.search.clear())
        bus.journal_changed.connect(self.refresh)
        QTimer.singleShot(0, self._first_load)

    # --- loading ------------------------------------------------------------------------
    def _first_load(self) -> None:
        if not self._loaded:
            self.refresh()

    def on_shown(self) -> None:
        self.refresh()

    def refresh(self) -> None:
        from companion.core.loops import list_loops

        self._loaded = True
        keep = self.current_loop_id
        self.loops_model.set_loops(list_loops(self.ctx.db))
        if not self.loops_model.loops:
            self.right.setCurrentWidget(self.empty)
            self.current_loop_id = None
            return
        self.right.setCurrentIndex(0)
        row = self.loops_model.row_of(keep) if keep is not None else -1
        self.select_loop_row(max(row, 0))
        if self.search.text().strip():
            self.run_search()

    def select_loop_row(self, row: int) -> None:
        index = self.loops_model.index(row, 0)
        self.loops_view.setCurrentIndex(index)
        self.show_loop(self.loops_model.loops[row].id)

    def _loop_chosen(self, current: QModelIndex, _previous=None) -> None:
        if current.isValid():
            self.show_loop(current.data(OBJECT).id)

    def show_loop(self, loop_id: int) -> None:
        from companion.core.journal import loop_detail

        if self.current_loop_id is not None and self.current_loop_id != loop_id:
            self.thank_you._save_timer.stop()
            self.thank_you.save()
        detail = loop_detail(self.ctx.db, loop_id)
        if detail is None:
            return
        self.current_loop_id = loop_id
        loop = detail.loop
        dates = loop.starts_on or ""
        if loop.ends_on and loop.ends_on != loop.starts_on:
            dates += f" – {loop.ends_on}"
        self.title.setText(
            " · ".join(p for p in (loop.company, loop.role, dates, loop.status) if p)
        )
        self.rounds_model.set_detail(detail)
        self.rounds_view.expandAll()
        self.rounds_view.resizeColumnToContents(0)
        self.thank_you.show_loop(loop_id, detail.thank_you)

    # --- search --------------------------------------------------------------------------
    def _search_soon(self, _text: str) -> None:
        self._search_timer.start()

    def run_search(self) -> None:
        from companion.core.search import search

        text = self.search.text().strip()
        if not text:
            self.left.setCurrentWidget(self.loops_view)
            return
        hits = search(self.ctx.db, text)
        self.results_model.set_hits(hits)
        self.left.setCurrentWidget(self.results_view if hits else self.results_empty)

    def _result_chosen(self, index: QModelIndex) -> None:
        hit = index.data(OBJECT)
        if hit is None or hit.loop_id is None:
            return
        row = self.loops_model.row_of(hit.loop_id)
        if row >= 0:
            self.loops_view.setCurrentIndex(self.loops_model.index(row, 0))
            self.show_loop(hit.loop_id)

    # --- actions -------------------------------------------------------------------------
    def status(self, text: str) -> None:
        self.message.setText(text)

    def new_loop(self) -> None:
        from companion.core.loops import create_loop

        dialog = NewLoopDialog(self)
        if dialog.exec() != QDialog.DialogCode.Accepted:
            return
        day = dialog.day.text().strip() or None
        try:
            if day:
                import datetime as dt

                dt.date.fromisoformat(day)
            loop_id = create_loop(
                self.ctx.db, dialog.company.text(), dialog.role.text(), starts_on=day, ends_on=day
            )
        except ValueError as exc:
            self.status(
                f"Loop not added: {exc}"
                if "date" not in str(exc).lower()
                else f"Loop not added: {day!r} is not a date like 2026-12-01."
            )
            return
        self.current_loop_id = loop_id
        self.bus.journal_changed.emit()

    def capture_selected(self) -> None:
        index = self.rounds_view.currentIndex()
        rnd = None
        while index.isValid() and rnd is None:
            if index.parent().isValid():
                index = index.parent()
                continue
            rnd = index.data(OBJECT)
            break
        if rnd is None and self.rounds_model.groups:
            rnd = next((g.round for g in self.rounds_model.groups if g.round), None)
        self.bus.capture_round.emit(rnd.id if rnd is not None else 0)

    def _suggest(self, name: str) -> Path:
        return Path.home() / name

    def export_study_list(self, fmt: str) -> None:
        from companion.core.exports import SUFFIXES

        path = self.file_dialogs.save_path(
            self,
            "Export the study list",
            self._suggest(f"study-list{SUFFIXES[fmt]}"),
            STUDY_FILTERS[fmt],
        )
        if path is None:
            return
        start_study_export(self, fmt, path)

    def export_journal(self) -> None:
        path = self.file_dialogs.save_path(
            self, "Export the whole journal", self._suggest("journal.json"), "JSON (*.json)"
        )
        if path is None:
            return
        now = self.ctx.now()

        def work(db) -> str:
            from companion.core.journal_io import export_journal

            count = export_journal(db, path, now)
            return f"Wrote {count} loop(s) to {path}."

        if not self.exporter.start(work):
            self.status("An export is already running.")
        else:
            self.status(f"Exporting to {path}…")

    def import_journal(self) -> None:
        from companion.core.journal_io import JournalImportError, import_journal

        path = self.file_dialogs.open_path(self, "Import a journal", Path.home(), "JSON (*.json)")
        if path is None:
            return
        try:
            report = import_journal(self.ctx.db, path)
        except JournalImportError as exc:
            self.status(f"{exc} Nothing was imported.")
            return
        self.status(
            f"Imported {report.loops_added} loop(s); {report.loops_skipped} were already here."
        )
        self.bus.journal_changed.emit()

    def _export_done(self, ok: bool, message: str) -> None:
        self.status(message if ok else f"Export failed: {message}")


def start_study_export(page, fmt: str, path: Path) -> None:
    """Export the study list on the page's ExportRunner (shared with the Study page)."""
    from companion.core.studylist import GuideIndex

    now = page.ctx.now()
    guide = GuideIndex(page.ctx.content)  # built on the GUI thread; read-only afterwards

    def work(db) -> str:
        from companion.core.exports import export_study_list

        count = export_study_list(db, fmt, path, now, guide=guide)
        return f"Wrote {count} topic(s) to {path}."

    if not page.exporter.start(work):
        page.status("An export is already running.")
    else:
        page.status(f"Exporting to {path}…")
