"""The Journal page: loops, each loop's rounds with what was asked, flubbed and went well,
the thank-you tracker, search as you type, exports and import."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QEvent, QModelIndex, QObject, Qt, QTimer
from PySide6.QtGui import QAction, QGuiApplication, QKeySequence, QShortcut, QUndoStack
from PySide6.QtWidgets import (
    QAbstractItemView,
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

from companion.core.loops import Round
from companion.ui.journal_edit import JournalDialogs, WeakTopicsDialog
from companion.ui.journal_files import STUDY_FILTERS, STUDY_TITLES, ExportRunner, FileDialogs
from companion.ui.journal_models import (
    OBJECT,
    LoopListModel,
    RoundNotes,
    RoundTreeModel,
    SearchResultsModel,
    loop_dates,
)
from companion.ui.journal_undo import JournalCommand
from companion.ui.journal_views import LoopDelegate

EMPTY_TEXT = (
    "No loops yet.\n\nAdd one with “New loop…”. After each round, the cue card's capture "
    "(or “Capture…” here) takes what was asked and what you flubbed in under a minute."
)
EMPTY_LOOP_TEXT = (
    "Nothing written down for this loop yet.\n\nAfter a round, press “Capture…” (or use "
    "the cue card) to note what was asked, what you flubbed and what went well."
)
EDIT_KEYS = (Qt.Key.Key_Return, Qt.Key.Key_Enter, Qt.Key.Key_F2)
ENTRY_NAMES = {
    "asked": "question",
    "flub": "flub",
    "went_well": "went-well note",
    "weak": "weak topic",
}


class _ViewKeys(QObject):
    """Enter / F2 edits the current row of a view and Delete deletes it."""

    def __init__(self, view, edit, delete=None):
        super().__init__(view)
        self.edit = edit
        self.delete = delete
        view.installEventFilter(self)

    def eventFilter(self, watched, event) -> bool:  # noqa: N802
        if event.type() == QEvent.Type.KeyPress and not event.modifiers() & ~(
            Qt.KeyboardModifier.KeypadModifier
        ):
            if event.key() in EDIT_KEYS:
                self.edit()
                return True
            if event.key() == Qt.Key.Key_Delete and self.delete is not None:
                self.delete()
                return True
        return False


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
        self.dialogs = JournalDialogs()
        self.exporter = ExportRunner(ctx, self)
        self.exporter.finished.connect(self._export_done)
        self.current_loop_id: int | None = None
        self._loaded = False
        self._selecting = False
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
        self.loops_view.setAccessibleDescription(
            "Arrow keys choose a loop; Enter or F2 edits it; Tab moves to its rounds."
        )
        self.loops_view.setItemDelegate(LoopDelegate(self.loops_view))
        self.loops_view.setUniformItemSizes(True)
        self.loops_view.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.loops_view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.loops_view.selectionModel().currentChanged.connect(self._loop_chosen)
        self.loops_view.doubleClicked.connect(lambda _index: self.edit_loop())
        self._loop_keys = _ViewKeys(self.loops_view, self.edit_loop)
        self.results_model = SearchResultsModel(self)
        self.results_view = QListView()
        self.results_view.setModel(self.results_model)
        self.results_view.setAccessibleName("Search results")
        self.results_view.setWordWrap(True)
        self.results_view.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.results_view.activated.connect(self._result_chosen)
        self.results_view.clicked.connect(self._result_chosen)
        self.results_empty = QLabel("No matches.")
        self.results_empty.setAccessibleName("No search matches")
        self.results_empty.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.loops_empty = QLabel("No loops yet.")
        self.loops_empty.setAccessibleName("No loops yet")
        self.loops_empty.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.left = QStackedWidget()
        self.left.addWidget(self.loops_view)
        self.left.addWidget(self.results_view)
        self.left.addWidget(self.results_empty)
        self.left.addWidget(self.loops_empty)

        # right: one loop
        self.title = QLabel()
        self.title.setObjectName("pageTitle")
        self.title.setTextFormat(Qt.TextFormat.PlainText)
        self.title.setAccessibleName("Loop")
        self.title.setWordWrap(True)
        self.loop_notes = QLabel()
        self.loop_notes.setTextFormat(Qt.TextFormat.PlainText)
        self.loop_notes.setAccessibleName("Loop notes")
        self.loop_notes.setWordWrap(True)
        self.rounds_model = RoundTreeModel(self)
        self.rounds_view = QTreeView()
        self.rounds_view.setModel(self.rounds_model)
        self.rounds_view.setAccessibleName("Rounds and what was written for each")
        self.rounds_view.setAccessibleDescription(
            "Enter or F2 edits the selected row; Delete deletes an entry; Ctrl+Z undoes."
        )
        self.rounds_view.setAlternatingRowColors(True)
        self.rounds_view.setUniformRowHeights(True)
        self.rounds_view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.rounds_view.doubleClicked.connect(lambda _index: self.edit_selected())
        self.rounds_view.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.rounds_view.customContextMenuRequested.connect(self._entry_menu)
        self.rounds_view.selectionModel().currentChanged.connect(self._update_buttons)
        self._entry_keys = _ViewKeys(self.rounds_view, self.edit_selected, self.delete_selected)
        self.rounds_empty = QLabel(EMPTY_LOOP_TEXT)
        self.rounds_empty.setWordWrap(True)
        self.rounds_empty.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.rounds_empty.setAccessibleName("Nothing written down for this loop yet")
        self.rounds_stack = QStackedWidget()
        self.rounds_stack.addWidget(self.rounds_view)
        self.rounds_stack.addWidget(self.rounds_empty)
        self.edit_loop_button = QPushButton("Edit l&oop…")
        self.edit_loop_button.setAccessibleName("Edit the loop's company, role, dates and status")
        self.edit_loop_button.clicked.connect(lambda: self.edit_loop())
        capture = QPushButton("&Capture…")
        capture.setAccessibleName("Capture what was asked for the selected round")
        capture.clicked.connect(self.capture_selected)
        self.edit_button = QPushButton("Ed&it…")
        self.edit_button.setAccessibleName("Edit the selected entry or round")
        self.edit_button.setToolTip("Edit the selected row (Enter, F2 or double-click)")
        self.edit_button.clicked.connect(self.edit_selected)
        self.delete_button = QPushButton("De&lete")
        self.delete_button.setAccessibleName("Delete the selected entry")
        self.delete_button.setToolTip("Delete the selected entry (Delete); Ctrl+Z brings it back")
        self.delete_button.clicked.connect(self.delete_selected)
        self.weak_button = QPushButton("Mark topic &weak")
        self.weak_button.setAccessibleName("Mark the selected entry's topic weak")
        self.weak_button.setToolTip("Put the selected entry's topic on the study list")
        self.weak_button.clicked.connect(self.mark_selected_weak)
        weak_list = QPushButton("Weak &topics…")
        weak_list.setAccessibleName("Show and unmark the topics marked weak")
        weak_list.clicked.connect(self.show_weak_topics)
        self.undo_stack = QUndoStack(self)
        self.undo_action = self._action("Undo", self.undo_stack.undo, QKeySequence.StandardKey.Undo)
        self.redo_action = self._action("Redo", self.undo_stack.redo, QKeySequence.StandardKey.Redo)
        self.undo_button = QPushButton("&Undo")
        self.undo_button.setAccessibleName("Undo the last edit or delete on this page")
        self.undo_button.clicked.connect(self.undo_stack.undo)
        # straight to the widgets: the stack also signals while the page is destroyed
        self.undo_stack.canUndoChanged.connect(self.undo_button.setEnabled)
        self.undo_stack.canUndoChanged.connect(self.undo_action.setEnabled)
        self.undo_stack.canRedoChanged.connect(self.redo_action.setEnabled)
        self.undo_stack.undoTextChanged.connect(self._undo_tip)
        self.thank_you = ThankYouBox(self)
        detail = QWidget()
        dl = QVBoxLayout(detail)
        dl.setContentsMargins(0, 0, 0, 0)
        head = QHBoxLayout()
        head.addWidget(self.title, 1)
        head.addWidget(self.edit_loop_button, 0, Qt.AlignmentFlag.AlignTop)
        head.addWidget(capture, 0, Qt.AlignmentFlag.AlignTop)
        dl.addLayout(head)
        dl.addWidget(self.loop_notes)
        dl.addWidget(self.rounds_stack, 1)
        actions = QHBoxLayout()
        for button in (self.edit_button, self.delete_button, self.weak_button, weak_list):
            actions.addWidget(button)
        actions.addStretch(1)
        actions.addWidget(self.undo_button)
        dl.addLayout(actions)
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
        splitter.setSizes([280, 640])
        splitter.setChildrenCollapsible(False)
        self.message = QLabel()
        self.message.setAccessibleName("Journal status")
        self.message.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(splitter, 1)
        layout.addWidget(self.message)
        QShortcut(QKeySequence.StandardKey.Find, self, self.search.setFocus)
        QShortcut(QKeySequence("Escape"), self.search, lambda: self.search.clear())
        for first, second in (
            (self.search, new_loop),
            (new_loop, self.export_button),
            (self.export_button, self.loops_view),
            (self.loops_view, self.results_view),
            (self.results_view, self.edit_loop_button),
            (self.edit_loop_button, capture),
            (capture, self.rounds_view),
            (self.rounds_view, self.edit_button),
        ):
            QWidget.setTabOrder(first, second)
        self.weak_dialog: WeakTopicsDialog | None = None
        self._reselect: tuple[str, int] | None = None
        bus.journal_changed.connect(self.refresh)
        self._update_buttons()
        self._update_undo()
        QTimer.singleShot(0, self._first_load)

    def _action(self, text: str, slot, keys) -> QAction:
        action = QAction(text, self)
        action.setShortcut(QKeySequence(keys))
        action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        action.triggered.connect(slot)
        self.addAction(action)
        return action

    # --- loading ------------------------------------------------------------------------
    def _first_load(self) -> None:
        if not self._loaded:
            self.refresh()

    def on_shown(self) -> None:
        self.refresh()

    def refresh(self) -> None:
        from companion.core.loops import list_loops

        self._loaded = True
        if self.thank_you._save_timer.isActive():  # keep a draft typed a moment ago
            self.thank_you._save_timer.stop()
            self.thank_you.save()
        keep = self.current_loop_id
        self.loops_model.set_loops(list_loops(self.ctx.db))
        if self.weak_dialog is not None and self.weak_dialog.isVisible():
            self.weak_dialog.reload()
        if not self.loops_model.loops:
            self.right.setCurrentWidget(self.empty)
            if not self.search.text().strip():
                self.left.setCurrentWidget(self.loops_empty)
            self.current_loop_id = None
            self.rounds_model.set_detail(None)
            self._update_buttons()
            return
        self.right.setCurrentIndex(0)
        if self.left.currentWidget() is self.loops_empty:
            self.left.setCurrentWidget(self.loops_view)
        row = self.loops_model.row_of(keep) if keep is not None else -1
        self.select_loop_row(max(row, 0))
        if self.search.text().strip():
            self.run_search()

    def select_loop_row(self, row: int) -> None:
        index = self.loops_model.index(row, 0)
        self._selecting = True  # show the loop once, below, not also from currentChanged
        try:
            self.loops_view.setCurrentIndex(index)
        finally:
            self._selecting = False
        self.loops_view.scrollTo(index)
        self.show_loop(self.loops_model.loops[row].id)

    def _loop_chosen(self, current: QModelIndex, _previous=None) -> None:
        if current.isValid() and not self._selecting:
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
        self.title.setText(
            " · ".join(p for p in (loop.company, loop.role, loop_dates(loop), loop.status) if p)
        )
        notes = " ".join(loop.notes.split())
        self.loop_notes.setText(f"Notes: {notes[:300]}{'…' if len(notes) > 300 else ''}")
        self.loop_notes.setToolTip(loop.notes[:2000])
        self.loop_notes.setVisible(bool(notes))
        self.rounds_model.set_detail(detail)
        self.rounds_view.expandAll()
        self.rounds_view.resizeColumnToContents(0)
        self.rounds_stack.setCurrentWidget(
            self.rounds_view if self.rounds_model.rowCount() else self.rounds_empty
        )
        self._restore_selection()
        self.thank_you.show_loop(loop_id, detail.thank_you)
        self._update_buttons()

    def _restore_selection(self) -> None:
        index = QModelIndex()
        if self._reselect is not None:
            index = self.rounds_model.index_of(*self._reselect)
            self._reselect = None
        if not index.isValid() and self.rounds_model.rowCount():
            index = self.rounds_model.index(0, 0)
        if index.isValid():
            self.rounds_view.setCurrentIndex(index)
            self.rounds_view.scrollTo(index)

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

    # --- editing -------------------------------------------------------------------------
    def selected_object(self):
        """What the current row of the rounds view stands for: an entry, a Round, a
        RoundNotes, or None."""
        index = self.rounds_view.currentIndex()
        if not index.isValid():
            return None
        return index.siblingAtColumn(0).data(OBJECT)

    def _update_buttons(self, *_args) -> None:
        from companion.core.journal import Flub, WeakTopic

        obj = self.selected_object()
        has_loop = self.current_loop_id is not None
        is_entry = obj is not None and not isinstance(obj, (Round, RoundNotes))
        self.edit_loop_button.setEnabled(has_loop)
        self.edit_button.setEnabled(obj is not None)
        self.delete_button.setEnabled(is_entry or isinstance(obj, RoundNotes))
        self.weak_button.setEnabled(has_loop and not isinstance(obj, WeakTopic))
        self.delete_button.setText("Clear &notes" if isinstance(obj, RoundNotes) else "De&lete")
        self.weak_button.setToolTip(
            f"Put “{obj.topic}” on the study list"
            if isinstance(obj, Flub) or (is_entry and getattr(obj, "topic", ""))
            else "Name a topic to put on the study list"
        )

    def _update_undo(self) -> None:
        self.undo_button.setEnabled(self.undo_stack.canUndo())
        self.undo_action.setEnabled(self.undo_stack.canUndo())
        self.redo_action.setEnabled(self.undo_stack.canRedo())
        self._undo_tip(self.undo_stack.undoText())

    def _undo_tip(self, what: str) -> None:
        try:
            self.undo_button.setToolTip(f"Undo {what} (Ctrl+Z)" if what else "Nothing to undo")
        except RuntimeError:  # the page is being destroyed
            pass

    def _entry_menu(self, pos) -> None:
        if not self.rounds_view.indexAt(pos).isValid():
            return
        menu = QMenu(self.rounds_view)
        for button in (self.edit_button, self.delete_button, self.weak_button):
            action = menu.addAction(button.text().replace("&", ""), button.click)
            action.setEnabled(button.isEnabled())
        menu.exec(self.rounds_view.viewport().mapToGlobal(pos))

    def _push(
        self, text: str, redo, undo, loop_id: int | None, select=None, first_select=None
    ) -> None:
        """Record a change already made and tell everyone. ``select`` ((kind, id), or a
        function giving it) is the row to select after an undo or redo, ``first_select``
        the one to select now (default: ``select``)."""

        def report(message: str) -> None:
            self._changed(message, loop_id, select)

        self.undo_stack.push(JournalCommand(text, redo, undo, report))
        now = first_select if first_select is not None else select
        self._changed(f"{text[:1].upper()}{text[1:]}. Ctrl+Z undoes it.", loop_id, now)

    def _changed(self, message: str, loop_id: int | None, select) -> None:
        if loop_id is not None:
            self.current_loop_id = loop_id
        self._reselect = select() if callable(select) else select
        self.bus.journal_changed.emit()  # refreshes this page too
        self._reselect = None
        self.status(message)

    def _failed(self, what: str, exc: Exception) -> None:
        self.status(f"{what}: {exc}")

    def edit_selected(self) -> None:
        obj = self.selected_object()
        if obj is None:
            if self.current_loop_id is not None and not self.rounds_model.rowCount():
                self.edit_loop()
            return
        if isinstance(obj, RoundNotes):
            self.edit_round(obj.round, focus_notes=True)
        elif isinstance(obj, Round):
            self.edit_round(obj)
        else:
            self.edit_entry(obj)

    def edit_entry(self, entry) -> None:
        from companion.core import journal

        kind = journal.entry_kind_of(entry)
        db = self.ctx.db
        topic = getattr(entry, "topic", "")
        weak_now = bool(topic) and kind != "weak" and journal.is_weak(db, topic)
        answer = self.dialogs.edit_entry(self, kind, entry, weak_now)
        if answer is None:
            return
        fields, want_weak = answer
        changed = {k: v for k, v in fields.items() if v != getattr(entry, k)}
        name = ENTRY_NAMES[kind]
        old = None
        if changed:
            try:
                old = journal.update_entry(db, kind, entry.id, **changed)
            except ValueError as exc:
                self._failed(f"The {name} was not saved", exc)
                return
        elif not want_weak:
            self.status("Nothing changed.")
            return
        both = old is not None and want_weak
        if both:  # one Ctrl+Z undoes the edit and the mark together
            self.undo_stack.beginMacro(f"edit the {name} and mark its topic weak")
        try:
            if old is not None:
                self._push(
                    f"edit the {name}",
                    lambda: journal.update_entry(db, kind, entry.id, **changed),
                    lambda: journal.update_entry(db, kind, entry.id, **old),
                    entry.loop_id,
                    (kind, entry.id),
                )
            if want_weak:
                new_topic = fields.get("topic", topic)
                self._mark_weak(new_topic, "", entry.loop_id, entry.round_id, (kind, entry.id))
        finally:
            if both:
                self.undo_stack.endMacro()

    def edit_round(self, rnd, focus_notes: bool = False) -> None:
        from companion.core.journal import edit_round

        types = [(t.id, t.title) for t in self.ctx.content.round_types()]
        fields = self.dialogs.edit_round(self, rnd, types, focus_notes)
        if fields is None:
            return
        changed = {k: v for k, v in fields.items() if v != getattr(rnd, k)}
        if not changed:
            self.status("Nothing changed.")
            return
        db = self.ctx.db
        try:
            old = edit_round(db, rnd.id, **changed)
        except ValueError as exc:
            self._failed("The round was not saved", exc)
            return
        self._push(
            "edit the round",
            lambda: edit_round(db, rnd.id, **changed),
            lambda: edit_round(db, rnd.id, **old),
            rnd.loop_id,
            ("notes" if focus_notes and changed.get("notes") else "round", rnd.id),
        )

    def edit_loop(self, loop_id: int | None = None) -> None:
        from companion.core.journal import edit_loop
        from companion.core.loops import get_loop

        loop_id = loop_id if loop_id is not None else self.current_loop_id
        index = self.loops_view.currentIndex()
        if loop_id is None and index.isValid():
            loop_id = index.data(OBJECT).id
        loop = get_loop(self.ctx.db, loop_id) if loop_id is not None else None
        if loop is None:
            return
        fields = self.dialogs.edit_loop(self, loop)
        if fields is None:
            return
        changed = {k: v for k, v in fields.items() if v != getattr(loop, k)}
        if not changed:
            self.status("Nothing changed.")
            return
        db = self.ctx.db
        try:
            old = edit_loop(db, loop.id, **changed)
        except ValueError as exc:
            self._failed("The loop was not saved", exc)
            return
        self._push(
            f"edit the {loop.company} loop",
            lambda: edit_loop(db, loop.id, **changed),
            lambda: edit_loop(db, loop.id, **old),
            loop.id,
        )

    def delete_selected(self) -> None:
        from companion.core import journal

        obj = self.selected_object()
        if isinstance(obj, RoundNotes):
            self._clear_round_notes(obj.round)
            return
        if obj is None or isinstance(obj, Round):
            self.status("Select an entry under a round to delete it.")
            return
        kind = journal.entry_kind_of(obj)
        name = ENTRY_NAMES[kind]
        text = getattr(obj, "question", None) or getattr(obj, "topic", None) or obj.text
        short = " ".join(text.split())
        short = short if len(short) <= 120 else short[:119] + "…"
        if not self.dialogs.confirm(
            self, f"Delete the {name}?", f"Delete the {name} “{short}”?", f"Delete {name}"
        ):
            return
        db = self.ctx.db
        row = journal.entry_row(db, kind, obj.id)
        if row is None:
            self.status(f"That {name} was already deleted.")
            self.refresh()
            return
        state = {"id": obj.id}
        neighbour = None  # the entry to select once this one is gone: below, else above
        current = self.rounds_view.currentIndex()
        for near in (self.rounds_view.indexBelow(current), self.rounds_view.indexAbove(current)):
            candidate = near.siblingAtColumn(0).data(OBJECT) if near.isValid() else None
            if candidate is not None and not isinstance(candidate, (Round, RoundNotes)):
                neighbour = candidate
                break
        journal.delete_entry(db, kind, obj.id)

        def redo() -> None:
            journal.delete_entry(db, kind, state["id"])

        def undo() -> None:
            state["id"] = journal.restore_entry(db, kind, row)

        select = None
        if neighbour is not None and not isinstance(neighbour, (Round, RoundNotes)):
            select = (journal.entry_kind_of(neighbour), neighbour.id)
        # now the next entry is selected; after an undo, the entry put back
        self._push(
            f"delete the {name}", redo, undo, obj.loop_id, lambda: (kind, state["id"]), select
        )

    def _clear_round_notes(self, rnd) -> None:
        from companion.core.journal import edit_round

        if not self.dialogs.confirm(
            self, "Clear the notes?", "Clear this round's notes?", "Clear notes"
        ):
            return
        db = self.ctx.db
        old = edit_round(db, rnd.id, notes="")
        self._push(
            "clear the round's notes",
            lambda: edit_round(db, rnd.id, notes=""),
            lambda: edit_round(db, rnd.id, **old),
            rnd.loop_id,
            ("round", rnd.id),
        )

    # --- weak topics -----------------------------------------------------------------------
    def mark_selected_weak(self) -> None:
        from companion.core.journal import Asked, Flub, WeakTopic, WentWell

        obj = self.selected_object()
        loop_id, round_id, topic, select = self.current_loop_id, None, "", None
        if isinstance(obj, WeakTopic):
            self.status(f"“{obj.topic}” is already marked weak.")
            return
        if isinstance(obj, (Asked, Flub, WentWell)):
            loop_id, round_id = obj.loop_id, obj.round_id
            topic = getattr(obj, "topic", "")
            kind = {Asked: "asked", Flub: "flub", WentWell: "went_well"}[type(obj)]
            select = (kind, obj.id)
        elif isinstance(obj, (Round, RoundNotes)):
            rnd = obj if isinstance(obj, Round) else obj.round
            round_id, select = rnd.id, ("round", rnd.id)
        note = ""
        if not topic:
            suggested = getattr(obj, "question", "") or getattr(obj, "text", "")
            answer = self.dialogs.weak_topic(self, " ".join(suggested.split())[:80])
            if answer is None:
                return
            topic, note = answer
        self._mark_weak(topic, note, loop_id, round_id, select)

    def _mark_weak(self, topic: str, note: str, loop_id, round_id, select) -> None:
        from companion.core import journal

        db = self.ctx.db
        try:
            weak_id = journal.mark_weak(
                db, topic, loop_id=loop_id, round_id=round_id, note=note, at=self.ctx.now()
            )
        except ValueError as exc:
            self._failed("Not marked weak", exc)
            return
        if weak_id is None:
            self.status(f"“{topic.strip()}” is already marked weak; it is on the study list.")
            return
        row = journal.entry_row(db, "weak", weak_id)
        state = {"id": weak_id}

        def redo() -> None:
            state["id"] = journal.restore_entry(db, "weak", row)

        def undo() -> None:
            journal.delete_entry(db, "weak", state["id"])

        self._push(f"mark “{topic.strip()}” weak", redo, undo, loop_id, select)

    def add_weak_topic(self) -> None:
        """Name a topic to mark weak (from the Weak topics window)."""
        parent = self.weak_dialog if self.weak_dialog is not None else self
        answer = self.dialogs.weak_topic(parent)
        if answer is not None:
            self._mark_weak(answer[0], answer[1], None, None, None)

    def unmark_weak(self, key: str) -> None:
        from companion.core import journal

        db = self.ctx.db
        rows = journal.unmark_weak(db, key)
        if not rows:
            self.status("That topic is no longer marked weak.")
            self.refresh()
            return
        topic = rows[-1]["topic"]
        state = {"rows": rows}

        def redo() -> None:
            state["rows"] = journal.unmark_weak(db, key)

        def undo() -> None:
            for row in state["rows"]:
                journal.restore_entry(db, "weak", row)

        self._push(f"unmark “{topic}” as weak", redo, undo, None)

    def show_weak_topics(self) -> None:
        if self.weak_dialog is None:
            self.weak_dialog = WeakTopicsDialog(self, self)
        self.weak_dialog.reload()
        if self.weak_dialog.isVisible():  # already open, maybe behind the main window
            self.weak_dialog.raise_()
        self.weak_dialog.show()
        self.weak_dialog.activateWindow()

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
        from PySide6.QtWidgets import QApplication

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
