"""The Journal page: loops, each loop's rounds with what was asked, flubbed and went well,
the thank-you tracker, search as you type, exports and import."""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, Qt, QTimer
from PySide6.QtGui import QAction, QKeySequence, QShortcut, QUndoStack
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListView,
    QMenu,
    QPushButton,
    QSplitter,
    QStackedWidget,
    QToolButton,
    QTreeView,
    QVBoxLayout,
    QWidget,
)

from companion.core.changes import Change
from companion.core.day.actions import load_view
from companion.core.day.loops import create_loop, list_loops
from companion.core.journal.detail import loop_detail
from companion.core.journal.search import search
from companion.ui.journal.dialogs import JournalDialogs, WeakTopicsDialog
from companion.ui.journal.editing import JournalEditing
from companion.ui.journal.files import STUDY_TITLES, ExportRunner, FileDialogs
from companion.ui.journal.models import (
    OBJECT,
    LoopListModel,
    RoundTreeModel,
    SearchResultsModel,
    loop_dates,
)
from companion.ui.journal.thankyou import ThankYouBox
from companion.ui.journal.transfer import JournalTransfer
from companion.ui.journal.views import LoopDelegate, ViewKeys
from companion.ui.stories.debrief import DebriefBox
from companion.ui.widgets.loop_dialogs import LoopDialog
from companion.ui.widgets.opening import open_dialog
from companion.ui.widgets.plain_text import plain_tip
from companion.ui.widgets.type_scale import type_role
from companion.ui.widgets.vertical_scroll import VerticalScroll

#: the change kinds this page shows
SHOWN = ("loop", "round", "capture", "thank-you", "plan", "study")
SPLITTER_KEY = "journal.splitter"  # the loop list's and the detail's widths, as left
# the loop list's least width, in average characters: a company's name, and no more than
# lets the window fit 800 x 500 (1600 x 1000 at 200 %, tests/ui/test_accessibility.py)
LIST_CHARS = 16


def _saved_sizes(value) -> list[int] | None:
    """Two positive widths from the prefs, else None (a hand-edited file may hold anything)."""
    widths = value if isinstance(value, list) and len(value) == 2 else []
    fine = all(type(v) is int and 0 < v < 100_000 for v in widths)  # bool is not a width
    return widths if widths and fine else None


EMPTY_TEXT = (
    "No loops yet.\n\nAdd one with “New loop…”. After each round, the cue card's capture "
    "(or “Capture…” here) takes what was asked and what you flubbed in under a minute."
)
EMPTY_LOOP_TEXT = (
    "Nothing written down for this loop yet.\n\nAfter a round, press “Capture…” (or use "
    "the cue card) to note what was asked, what you flubbed and what went well."
)


class JournalPage(JournalTransfer, JournalEditing, QWidget):
    def __init__(self, ctx, bus, parent=None, *, day):
        super().__init__(parent)
        self.ctx = ctx
        self.bus = bus
        self.day = day  # the session's day service: loop statuses, the thank-you time
        self.redraws = 0  # how often the page reloaded (benchmarks/bench_redraws.py)
        self.file_dialogs = FileDialogs(ctx)
        self.dialogs = JournalDialogs()
        self.exporter = ExportRunner(ctx, self)
        self.exporter.finished.connect(self._export_done)
        self.current_loop_id: int | None = None
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
        self._loop_keys = ViewKeys(self.loops_view, self.edit_loop)
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
        # the pane beside says "No loops yet." and what to do: not the same line twice
        self.loops_empty = QLabel("The loops you add are listed here.")
        self.loops_empty.setWordWrap(True)
        self.loops_empty.setAccessibleName("No loops yet")
        self.loops_empty.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.left = QStackedWidget()
        self.left.addWidget(self.loops_view)
        self.left.addWidget(self.results_view)
        self.left.addWidget(self.results_empty)
        self.left.addWidget(self.loops_empty)

        # right: one loop
        self.title = QLabel()
        type_role(self.title, "pageTitle")
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
        self._entry_keys = ViewKeys(self.rounds_view, self.edit_selected, self.delete_selected)
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
        self.thank_you = ThankYouBox(self.ctx, self.bus, self.status)
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

        self.debrief = DebriefBox(self.ctx)  # the loop's prep recall (ui/stories)
        dl.addWidget(self.thank_you)
        dl.addWidget(self.debrief)
        self.empty = QLabel(EMPTY_TEXT)
        self.empty.setWordWrap(True)
        self.empty.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.empty.setAccessibleName("The journal is empty")
        # the loop's detail scrolls on a small screen (800 x 500 at 200 %) rather than
        # making the window taller than the screen: the thank-you and debrief sit below
        detail_scroll = VerticalScroll(
            detail, "The loop's rounds, thank-you and debrief, scrollable"
        )
        self.right = QStackedWidget()
        self.right.addWidget(detail_scroll)
        self.right.addWidget(self.empty)

        # the loop list keeps room for a company's name: at 200 % the detail's minimum
        # width left it about nine characters ("Northw…")
        self.left.setMinimumWidth(self.fontMetrics().averageCharWidth() * LIST_CHARS)
        splitter = self.splitter = QSplitter()
        splitter.addWidget(self.left)
        splitter.addWidget(self.right)
        splitter.setStretchFactor(1, 3)
        splitter.setSizes(_saved_sizes(ctx.prefs.get(SPLITTER_KEY)) or [280, 640])
        splitter.setChildrenCollapsible(False)
        splitter.splitterMoved.connect(
            lambda _pos, _index: ctx.prefs.set(SPLITTER_KEY, splitter.sizes())
        )
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
        bus.changed.connect(self._on_change)
        self._update_buttons()
        self._update_undo()
        # the first load is on_shown's: the main window calls it once the page is built

    def _action(self, text: str, slot, keys) -> QAction:
        action = QAction(text, self)
        action.setShortcut(QKeySequence(keys))
        action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        action.triggered.connect(slot)
        self.addAction(action)
        return action

    # --- loading ------------------------------------------------------------------------
    def on_shown(self) -> None:
        self.refresh()

    def _on_change(self, change) -> None:
        """Loops, rounds, what was written, thank-yous, planned and studied marks: what
        this page lists (an edit made here too: it reselects the row it changed)."""
        if change.touches(*SHOWN):
            self.refresh()

    def refresh(self) -> None:
        self.redraws += 1

        self.thank_you.save_pending()  # keep a draft typed a moment ago
        # the first time, the loop the day is about (today's), not the newest-dated one
        keep = self.current_loop_id if self.current_loop_id is not None else self._day_loop_id()
        self.loops_model.set_loops(self.day.loops_as_shown(list_loops(self.ctx.db)))
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

    def _day_view(self):
        """The day service's last view (None before the day has been computed)."""
        return self.day.view

    def _day_loop_id(self) -> int | None:
        """The loop the day is about: the day service's view (read now when the day has
        not been computed yet)."""

        view = self._day_view() or load_view(self.ctx.db, self.day.rules, self.ctx.now())
        return view.loop.id if view.loop is not None else None

    def _capture_round_id(self, loop_id: int | None) -> int:
        """The round that just ended (the day's capture round) when it is this loop's."""
        view = self._day_view()
        if view is None or not view.capture_round_id:
            return 0
        rnd = view.round(view.capture_round_id)
        if rnd is None or rnd.round.loop_id not in (loop_id, None):
            return 0
        return rnd.id

    def select_loop_row(self, row: int) -> None:
        index = self.loops_model.index(row, 0)
        self._selecting = True  # show the loop once, below, not also from currentChanged
        try:
            self.loops_view.setCurrentIndex(index)
        finally:
            self._selecting = False
        self.loops_view.scrollTo(index)
        self.show_loop(self.loops_model.loops[row].id)

    def open_loop(self, loop_id: int) -> None:
        """Select ``loop_id`` in the list and show it (a thank-you row on Today names
        its loop: the journal opens on that one, not the latest). The page's own refresh
        on showing comes after this and keeps the loop shown."""
        if self.loops_model.row_of(loop_id) < 0:
            self.refresh()  # not listed yet: the page was just built
        row = self.loops_model.row_of(loop_id)
        if row >= 0:
            self.select_loop_row(row)

    def _loop_chosen(self, current: QModelIndex, _previous=None) -> None:
        if current.isValid() and not self._selecting:
            self.show_loop(current.data(OBJECT).id)

    def show_loop(self, loop_id: int) -> None:
        if self.current_loop_id is not None and self.current_loop_id != loop_id:
            self.thank_you.save_now()
        detail = loop_detail(self.ctx.db, loop_id)
        if detail is None:
            return
        self.current_loop_id = loop_id
        loop = detail.loop
        row = self.loops_model.row_of(loop_id)  # its status as its rounds tell it
        status = self.loops_model.loops[row].status if row >= 0 else loop.status
        self.title.setText(
            " · ".join(p for p in (loop.company, loop.role, loop_dates(loop), status) if p)
        )
        notes = " ".join(loop.notes.split())
        self.loop_notes.setText(f"Notes: {notes[:300]}{'…' if len(notes) > 300 else ''}")
        self.loop_notes.setToolTip(plain_tip(loop.notes[:2000]))
        self.loop_notes.setVisible(bool(notes))
        self.rounds_model.set_detail(detail, self.day.rules.titles)
        self.rounds_view.expandAll()
        self.rounds_view.resizeColumnToContents(0)
        self.rounds_stack.setCurrentWidget(
            self.rounds_view if self.rounds_model.rowCount() else self.rounds_empty
        )
        self._restore_selection()
        self.thank_you.show_loop(loop_id, self._with_due(detail.thank_you))
        self.debrief.show_loop(loop_id)
        self._update_buttons()

    def _with_due(self, note):
        """The note with the thank-you time the day service gives (the one Today shows)."""
        from dataclasses import replace

        return replace(note, due_at=self.day.thank_you_due(note.loop_id))

    def _restore_selection(self) -> None:
        index = QModelIndex()
        if self._reselect is not None:
            index = self.rounds_model.index_of(*self._reselect)
            self._reselect = None
        if not index.isValid():  # Capture… then means the round that just ended
            index = self.rounds_model.index_of(
                "round", self._capture_round_id(self.current_loop_id)
            )
        if not index.isValid() and self.rounds_model.rowCount():
            index = self.rounds_model.index(0, 0)
        if index.isValid():
            self.rounds_view.setCurrentIndex(index)
            self.rounds_view.scrollTo(index)

    # --- search --------------------------------------------------------------------------
    def _search_soon(self, _text: str) -> None:
        self._search_timer.start()

    def run_search(self) -> None:
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
        def accepted() -> None:
            company, role, day = dialog.values()
            loop_id = create_loop(self.ctx.db, company, role, starts_on=day, ends_on=day)
            self.current_loop_id = loop_id
            self.bus.announce(Change.of("loop", ids=[loop_id], origin=self))

        dialog = LoopDialog(self.ctx.now().date(), self)
        self.loop_dialog = open_dialog(dialog, accepted)

    def capture_selected(self) -> None:
        index = self.rounds_view.currentIndex()
        rnd = None
        while index.isValid() and rnd is None:
            if index.parent().isValid():
                index = index.parent()
                continue
            rnd = index.data(OBJECT)
            break
        if rnd is None:  # nothing picked: the round that just ended, else the first
            just_ended = self._capture_round_id(self.current_loop_id)
            if just_ended:
                self.bus.capture_round.emit(just_ended)
                return
            rnd = next((g.round for g in self.rounds_model.groups if g.round), None)
        self.bus.capture_round.emit(rnd.id if rnd is not None else 0)
