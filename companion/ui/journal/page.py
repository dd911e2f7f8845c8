"""The Journal page: loops, each loop's rounds with what was asked, flubbed and went well,
the thank-you tracker, search as you type, exports and import."""

from __future__ import annotations

from dataclasses import replace

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QLabel,
    QSplitter,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from companion.core.changes import Change
from companion.core.day.actions import load_view
from companion.core.day.loops import create_loop, list_loops
from companion.core.journal.detail import loop_detail
from companion.core.journal.search import search
from companion.ui.journal.dialogs import WeakTopicsDialog
from companion.ui.journal.editor import JournalEditor
from companion.ui.journal.entry_actions import EntryActions
from companion.ui.journal.files import STUDY_TITLES
from companion.ui.journal.loop_header import LoopHeader
from companion.ui.journal.loop_list import LoopList
from companion.ui.journal.rounds_pane import RoundsPane
from companion.ui.journal.thankyou import ThankYouBox
from companion.ui.journal.top_bar import JournalTopBar
from companion.ui.journal.transfer import JournalTransfer
from companion.ui.stories.debrief import DebriefBox
from companion.ui.widgets.loop_dialogs import LoopDialog
from companion.ui.widgets.opening import open_dialog
from companion.ui.widgets.vertical_scroll import VerticalScroll

#: the change kinds this page shows
SHOWN = ("loop", "round", "capture", "thank-you", "plan", "study")
SPLITTER_KEY = "journal.splitter"  # the loop list's and the detail's widths, as left


def _saved_sizes(value) -> list[int] | None:
    """Two positive widths from the prefs, else None (a hand-edited file may hold anything)."""
    widths = value if isinstance(value, list) and len(value) == 2 else []
    fine = all(type(v) is int and 0 < v < 100_000 for v in widths)  # bool is not a width
    return widths if widths and fine else None


EMPTY_TEXT = (
    "No loops yet.\n\nAdd one with “New loop…”. After each round, the cue card's capture "
    "(or “Capture…” here) takes what was asked and what you flubbed in under a minute."
)


class JournalPage(QWidget):
    """Shows the journal through its parts (the top bar, the loop list, the loop's head,
    rounds and buttons, the thank-you and debrief boxes) and wires them: the editor
    writes, the page announces, and every part is redrawn from the database on a change."""

    def __init__(self, ctx, bus, parent=None, *, day):
        super().__init__(parent)
        self.ctx = ctx
        self.bus = bus
        self.day = day  # the session's day service: loop statuses, the thank-you time
        self.redraws = 0  # how often the page reloaded (benchmarks/bench_redraws.py)
        self.current_loop_id: int | None = None
        self._reselect: tuple[str, int] | None = None  # the row to select after an edit
        self.weak_dialog: WeakTopicsDialog | None = None
        self.setAccessibleName("Journal")
        self._make_workers()
        self.top = self._top_bar()
        self.loop_list = LoopList()
        self.loop_list.loop_chosen.connect(self.show_loop)
        self.loop_list.edit_requested.connect(self.edit_loop)
        self.right = self._loop_side()
        self.splitter = self._splitter(self.loop_list, self.right)
        self.message = QLabel()
        self.message.setAccessibleName("Journal status")
        self.message.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.addWidget(self.top)
        layout.addWidget(self.splitter, 1)
        layout.addWidget(self.message)
        QShortcut(QKeySequence.StandardKey.Find, self, self.top.search.setFocus)
        self._set_tab_order()
        bus.changed.connect(self._on_change)
        self._update_buttons()
        # the first load is on_shown's: the main window calls it once the page is built

    def _make_workers(self) -> None:
        """The parts without widgets: the editor (and its undo keys) and the transfer."""
        self.editor = JournalEditor(self.ctx, self)
        self.editor.edited.connect(self._edited)
        self.editor.said.connect(self.status)
        self.editor.stale.connect(self.refresh)
        self.transfer = JournalTransfer(self.ctx, self.bus, self)
        self.transfer.said.connect(self.status)
        stack = self.editor.undo_stack
        self.undo_action = self._action("Undo", stack.undo, QKeySequence.StandardKey.Undo)
        self.redo_action = self._action("Redo", stack.redo, QKeySequence.StandardKey.Redo)
        stack.canUndoChanged.connect(self.undo_action.setEnabled)
        stack.canRedoChanged.connect(self.redo_action.setEnabled)
        self.undo_action.setEnabled(stack.canUndo())
        self.redo_action.setEnabled(stack.canRedo())

    def _top_bar(self) -> JournalTopBar:
        transfer = self.transfer
        studies = [
            (f"Study list as {title}", lambda f=fmt: transfer.export_study_list(f))
            for fmt, title in STUDY_TITLES.items()
        ]
        top = JournalTopBar(
            [
                *studies,
                None,
                ("Whole journal (JSON)…", transfer.export_journal),
                ("Import a journal (JSON)…", transfer.import_journal),
            ]
        )
        top.search_due.connect(self.run_search)
        top.new_loop_button.clicked.connect(self.new_loop)
        return top

    def _loop_side(self) -> QStackedWidget:
        """One loop: its head, rounds, buttons, thank-you and debrief; or the empty text."""
        self.header = LoopHeader()
        self.header.edit_button.clicked.connect(lambda: self.edit_loop())
        self.header.capture_button.clicked.connect(self.capture_selected)
        self.rounds = RoundsPane()
        self.rounds.current_changed.connect(self._update_buttons)
        self.rounds.edit_requested.connect(self.edit_selected)
        self.rounds.delete_requested.connect(self.delete_selected)
        self.rounds.menu_requested.connect(self._entry_menu)
        self.entry_actions = EntryActions(self.editor.undo_stack)
        self.entry_actions.edit_button.clicked.connect(self.edit_selected)
        self.entry_actions.delete_button.clicked.connect(self.delete_selected)
        self.entry_actions.weak_button.clicked.connect(self.mark_selected_weak)
        self.entry_actions.weak_list_button.clicked.connect(self.show_weak_topics)
        self.thank_you = ThankYouBox(self.ctx, self.bus, self.status)
        self.debrief = DebriefBox(self.ctx)  # the loop's prep recall (ui/stories)
        detail = QWidget()
        column = QVBoxLayout(detail)
        column.setContentsMargins(0, 0, 0, 0)
        column.addWidget(self.header)
        column.addWidget(self.rounds, 1)
        for part in (self.entry_actions, self.thank_you, self.debrief):
            column.addWidget(part)
        self.empty = QLabel(EMPTY_TEXT)
        self.empty.setWordWrap(True)
        self.empty.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.empty.setAccessibleName("The journal is empty")
        side = QStackedWidget()
        # the loop's detail scrolls on a small screen (800 x 500 at 200 %) rather than
        # making the window taller than the screen: the thank-you and debrief sit below
        side.addWidget(
            VerticalScroll(detail, "The loop's rounds, thank-you and debrief, scrollable")
        )
        side.addWidget(self.empty)
        return side

    def _splitter(self, left: QWidget, right: QWidget) -> QSplitter:
        """The two sides, at the widths the user left them."""
        prefs = self.ctx.prefs
        splitter = QSplitter()
        splitter.addWidget(left)
        splitter.addWidget(right)
        splitter.setStretchFactor(1, 3)
        splitter.setSizes(_saved_sizes(prefs.get(SPLITTER_KEY)) or [280, 640])
        splitter.setChildrenCollapsible(False)
        splitter.splitterMoved.connect(
            lambda _pos, _index: prefs.set(SPLITTER_KEY, splitter.sizes())
        )
        return splitter

    def _set_tab_order(self) -> None:
        chain = [
            self.top.search,
            self.top.new_loop_button,
            self.top.export_button,
            self.loop_list.view,
            self.loop_list.results_view,
            self.header.edit_button,
            self.header.capture_button,
            self.rounds.view,
            self.entry_actions.edit_button,
        ]
        for first, second in zip(chain, chain[1:]):
            QWidget.setTabOrder(first, second)

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
        self.loop_list.set_loops(self.day.loops_as_shown(list_loops(self.ctx.db)))
        if self.weak_dialog is not None and self.weak_dialog.isVisible():
            self.weak_dialog.reload()
        if not self.loop_list.loops:
            self.right.setCurrentWidget(self.empty)
            if not self.top.text():
                self.loop_list.show_no_loops()
            self.current_loop_id = None
            self.rounds.clear()
            self._update_buttons()
            return
        self.right.setCurrentIndex(0)
        self.loop_list.leave_no_loops()
        row = self.loop_list.row_of(keep) if keep is not None else -1
        self.select_loop_row(max(row, 0))
        if self.top.text():
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
        self.show_loop(self.loop_list.select_row(row))  # once: the list does not signal it

    def open_loop(self, loop_id: int) -> None:
        """Select ``loop_id`` in the list and show it (a thank-you row on Today names
        its loop: the journal opens on that one, not the latest). The page's own refresh
        on showing comes after this and keeps the loop shown."""
        if self.loop_list.row_of(loop_id) < 0:
            self.refresh()  # not listed yet: the page was just built
        row = self.loop_list.row_of(loop_id)
        if row >= 0:
            self.select_loop_row(row)

    def show_loop(self, loop_id: int) -> None:
        if self.current_loop_id is not None and self.current_loop_id != loop_id:
            self.thank_you.save_now()
        detail = loop_detail(self.ctx.db, loop_id)
        if detail is None:
            return
        self.current_loop_id = loop_id
        loop = detail.loop
        status = self.loop_list.status_of(loop_id, loop.status)
        self.header.show_loop(loop, status)
        self.rounds.show_detail(detail, self.day.rules.titles)
        # after an edit here, its row (once); else Capture… means the round that just ended
        reselect, self._reselect = self._reselect, None
        self.rounds.select(reselect, ("round", self._capture_round_id(loop_id)))
        self.thank_you.show_loop(loop_id, self._with_due(detail.thank_you))
        self.debrief.show_loop(loop_id)
        self._update_buttons()

    def _with_due(self, note):
        """The note with the thank-you time the day service gives (the one Today shows)."""
        return replace(note, due_at=self.day.thank_you_due(note.loop_id))

    # --- search --------------------------------------------------------------------------
    def run_search(self) -> None:
        text = self.top.text()
        if not text:
            self.loop_list.show_loops()
            return
        self.loop_list.show_hits(search(self.ctx.db, text))

    # --- actions -------------------------------------------------------------------------
    def status(self, text: str) -> None:
        self.message.setText(text)

    def export_journal(self) -> None:
        self.transfer.export_journal()

    def import_journal(self) -> None:
        self.transfer.import_journal()

    def new_loop(self) -> None:
        def accepted() -> None:
            company, role, day = dialog.values()
            loop_id = create_loop(self.ctx.db, company, role, starts_on=day, ends_on=day)
            self.current_loop_id = loop_id
            self.bus.announce(Change.of("loop", ids=[loop_id], origin=self))

        dialog = LoopDialog(self.ctx.now().date(), self)
        self.loop_dialog = open_dialog(dialog, accepted)

    def capture_selected(self) -> None:
        rnd = self.rounds.selected_round()
        if rnd is None:  # nothing picked: the round that just ended, else the first
            just_ended = self._capture_round_id(self.current_loop_id)
            if just_ended:
                self.bus.capture_round.emit(just_ended)
                return
            rnd = self.rounds.first_round()
        self.bus.capture_round.emit(rnd.id if rnd is not None else 0)

    # --- editing (the editor part does the writing) ------------------------------------
    def _update_buttons(self) -> None:
        self.header.set_has_loop(self.current_loop_id is not None)
        self.entry_actions.show_for(self.rounds.selected_object(), self.current_loop_id is not None)

    def _entry_menu(self, pos) -> None:
        self.rounds.popup_menu(pos, self.entry_actions.menu_buttons())

    def _edited(self, kinds, loop_id: int | None, select) -> None:
        """Announce the editor's write; this page refreshes on it like on any other,
        showing ``loop_id`` and selecting ``select``."""
        if loop_id is not None:
            self.current_loop_id = loop_id
        self._reselect = select
        self.bus.announce(Change.of(*kinds, ids=[loop_id] if loop_id else (), origin=self))
        self._reselect = None

    def edit_selected(self) -> None:
        obj = self.rounds.selected_object()
        if obj is not None:
            self.editor.edit(obj)
        elif self.current_loop_id is not None and not self.rounds.has_rows():
            self.edit_loop()

    def edit_loop(self, loop_id: int | None = None) -> None:
        loop_id = loop_id if loop_id is not None else self.current_loop_id
        if loop_id is None:
            loop_id = self.loop_list.current_loop_id()
        self.editor.edit_loop(loop_id)

    def delete_selected(self) -> None:
        self.editor.delete(self.rounds.selected_object(), self.rounds.neighbour_entry())

    def mark_selected_weak(self) -> None:
        self.editor.mark_weak(self.rounds.selected_object(), self.current_loop_id)

    def add_weak_topic(self) -> None:
        """Name a topic to mark weak (from the Weak topics window)."""
        self.editor.add_weak_topic(self.weak_dialog if self.weak_dialog is not None else self)

    def show_weak_topics(self) -> None:
        if self.weak_dialog is None:
            self.weak_dialog = WeakTopicsDialog(self.ctx.db, self)
            self.weak_dialog.add_requested.connect(self.add_weak_topic)
            self.weak_dialog.unmark_requested.connect(self.editor.unmark_weak)
        self.weak_dialog.reload()
        if self.weak_dialog.isVisible():  # already open, maybe behind the main window
            self.weak_dialog.raise_()
        self.weak_dialog.show()
        self.weak_dialog.activateWindow()
