"""About me: the one-pager editor with live preview, pitch timing, rehearsal and export.

Typing, preview and autosave as the story bank does them (an :class:`AutosaveCycle`), and
the preview re-renders at least every ~0.6 s during long bursts of typing; import, history,
export and print are a :class:`DocumentActions`.
Replacing the whole text (import, restore, template) is one undoable edit and first keeps
the old text as a revision.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from itertools import pairwise

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QScrollArea,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from companion.core.about import store as about_store
from companion.core.about.importing import LIVE_LIMIT_CHARS
from companion.core.about.pitch import analyze
from companion.core.changes import Change
from companion.ui.about.actions import page_action
from companion.ui.about.autosaving import AutosaveCycle, Document
from companion.ui.about.documents import DocumentActions, template_text
from companion.ui.about.editor import PitchEditor, SafePreview
from companion.ui.about.panel import AnalysisPanel, fit_side
from companion.ui.about.rehearse import RehearseBar
from companion.ui.about.rehearsing import PitchRehearsal
from companion.ui.about.tabs import AboutTabs
from companion.ui.about.takes import KeptTakes
from companion.ui.stories.page import StoriesPage
from companion.ui.voice.take_recorder import TakeRecorder  # the mic opens lazily
from companion.ui.widgets.page_top import NoticeRow, action_bar

RENDER_MAX_SECONDS = 0.6  # a re-render at least this often while typing goes on
ONE_PAGER = Document(about_store, "one-pager", "about-me.pdf")


class AboutPage(QWidget):
    def __init__(
        self,
        ctx,
        bus,
        parent: QWidget | None = None,
        *,
        monotonic: Callable[[], float] = time.monotonic,
    ):
        super().__init__(parent)

        self.ctx = ctx
        self.bus = bus
        self.redraws = 0  # analysis + preview runs (benchmarks/bench_redraws.py)
        self.monotonic = monotonic
        self.analysis = None
        self.setAccessibleName("About me")
        self._build_widgets()
        self._build_editing()
        self._build_actions()
        self._build_layout()
        self._load()
        self._connect()

    # building ----------------------------------------------------------------------

    def _build_widgets(self) -> None:
        self.editor = PitchEditor()
        self.preview = SafePreview()
        self.preview.setPlaceholderText("The preview appears here as you write.")
        self.panel = AnalysisPanel()
        self.rehearse_bar = RehearseBar(monotonic=self.monotonic)
        self.take_recorder = TakeRecorder(
            self.ctx, self.rehearse_bar, lambda: self.editor.toPlainText(), self.set_rate
        )
        self.takes = KeptTakes(self, self.ctx, self.panel.takes)
        self.take_recorder.keep_button.clicked.connect(self.takes.show)  # after its own keep

    def _connect(self) -> None:
        """After the first load: from here an edit is the user's."""
        self.editing.status_changed.connect(self.status.setText)
        self.editor.textChanged.connect(self.editing.typed)
        self.bus.changed.connect(self._on_change)
        self.editor.paste_cleaned.connect(self.show_notice)
        self.editor.undoAvailable.connect(self.undo_action.setEnabled)
        self.editor.redoAvailable.connect(self.redo_action.setEnabled)
        self.panel.jump_to_line.connect(self.editor.go_to_line)
        self.panel.rate_changed.connect(self.set_rate)
        self.panel.calibrate_requested.connect(self.rehearsal.open_calibrate)

    def _build_editing(self) -> None:
        """The autosave cycle and the document actions over the editor."""
        parts = dict(editor=self.editor, render=self.refresh, notice=self.show_notice)
        self.editing = AutosaveCycle(
            self,
            self.ctx,
            ONE_PAGER,
            preview=self.preview,
            render_max_seconds=RENDER_MAX_SECONDS,
            monotonic=self.monotonic,
            **parts,
        )
        self.editing.saved.connect(self._saved)
        self.documents = DocumentActions(self, self.ctx, ONE_PAGER, editing=self.editing, **parts)

    def _build_actions(self) -> None:
        documents = self.documents
        self.save_action = page_action(
            self,
            "Save now",
            lambda: self.editing.save_now("save"),
            "Ctrl+S",
            "Save and keep a revision",
        )
        self.undo_action = page_action(self, "Undo", self.editor.undo, tip="Undo (Ctrl+Z)")
        self.redo_action = page_action(self, "Redo", self.editor.redo, tip="Redo (Ctrl+Shift+Z)")
        self.undo_action.setEnabled(False)
        self.redo_action.setEnabled(False)
        self._build_rehearsal()  # its Rehearse and Stop actions come here in the toolbar
        self.history_action = page_action(
            self, "History…", documents.open_history, tip="Browse and restore earlier versions"
        )
        self.template_action = page_action(
            self, "Start from template", self.use_template, tip="Replace the text with the template"
        )
        self.import_action = page_action(
            self, "Import…", documents.import_dialog, tip="Replace the text with a Markdown file"
        )
        self.export_action = page_action(
            self, "Export…", documents.export_dialog, "Ctrl+E", "Export as PDF, HTML or Markdown"
        )
        self.print_action = page_action(self, "Print…", documents.print_dialog, "Ctrl+P", "Print")
        # the three without a shortcut get an Alt+letter: a toolbar button shows the
        # action's icon text, which keeps its "&" only when set on its own (the text
        # it derives drops the "…" as well)
        for action, words in (
            (self.history_action, "&History"),
            (self.template_action, "Start from &template"),
            (self.import_action, "&Import"),
        ):
            action.setIconText(words)

    def _build_rehearsal(self) -> None:
        self.rehearsal = PitchRehearsal(
            self,
            self.ctx,
            bar=self.rehearse_bar,
            editor=self.editor,
            preview=self.preview,
            panel=self.panel,
            analysis=lambda: self.analysis,
            refresh=self.refresh,
            set_rate=self.set_rate,
            notice=self.show_notice,
            monotonic=self.monotonic,
        )

    def _build_layout(self) -> None:
        top, self.toolbar_buttons, self.status = action_bar(
            "About me actions",
            (
                self.save_action,
                self.undo_action,
                self.redo_action,
                self.rehearsal.rehearse_action,
                self.history_action,
                self.template_action,
                self.import_action,
                self.export_action,
                self.print_action,
            ),
        )
        self.notice_row = NoticeRow()
        self.notice = self.notice_row.label

        side = self.side = QScrollArea()
        side.setAccessibleName("Pitch timing, scrollable")  # a Tab stop: the keys scroll it
        side.setWidgetResizable(True)
        side.setWidget(self.panel)
        side.setMinimumWidth(300)
        splitter = QSplitter(Qt.Orientation.Horizontal)
        splitter.addWidget(self.editor)
        splitter.addWidget(self.preview)
        splitter.addWidget(side)
        splitter.setStretchFactor(0, 3)
        splitter.setStretchFactor(1, 3)
        splitter.setStretchFactor(2, 2)
        splitter.setChildrenCollapsible(True)

        one_pager = QWidget()
        layout = QVBoxLayout(one_pager)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(top)
        layout.addWidget(self.notice_row)
        layout.addWidget(self.rehearse_bar)
        layout.addWidget(self.take_recorder)
        layout.addWidget(splitter, 1)
        self.tabs = AboutTabs(
            one_pager,
            lambda: StoriesPage(self.ctx, self.bus, monotonic=self.monotonic),
            actions=self.actions,
            leaving_one_pager=self._leaving_one_pager,
            back_to_one_pager=self.editor.setFocus,
        )
        outer = QVBoxLayout(self)
        outer.addWidget(self.tabs)

        # Tab in reading order: the toolbar, the notice and rehearsal strips, then the
        # editor, the preview and the timing panel (creation order put the toolbar last)
        reading_order = [
            *self.toolbar_buttons,
            self.notice_row.dismiss,
            *self.rehearse_bar.tab_order(),
            *self.take_recorder.tab_order(),
            self.editor,
            self.preview,
            *self.panel.tab_order(),
        ]
        for first, second in pairwise(reading_order):
            QWidget.setTabOrder(first, second)

    def _load(self) -> None:
        if self.ctx.storage_problem:
            self.show_notice(
                f"Your one-pager cannot be saved this session: {self.ctx.storage_problem}"
            )
        text = about_store.load_document(self.ctx.db)
        self.is_new = text is None
        self.editor.setPlainText(
            template_text(self.ctx.content.pitch_plan()) if text is None else text
        )
        self.panel.set_rate(about_store.words_per_minute(self.ctx.db))
        self.panel.show_rehearsal(about_store.last_rehearsal(self.ctx.db))
        self.takes.show()
        self.status.setText("Template: edit to start" if self.is_new else "Saved")
        self.refresh()

    # typing, rendering, saving -----------------------------------------------------

    def refresh(self) -> None:
        """Re-run the analysis and the preview for the current text."""

        self.editing.rendering()  # called directly too (a replaced text, a new rate, Rehearse)
        self.redraws += 1
        size = self.editor.document().characterCount()
        if size > LIVE_LIMIT_CHARS:
            message = (
                f"The text is {size / 1e6:.1f} million characters; a one-pager is a few "
                f"thousand. Live preview and timing pause above {LIVE_LIMIT_CHARS:,} characters "
                "and resume when you trim it. Your text is still saved."
            )
            self.analysis = None
            self.panel.show_paused(message)
            self.editing.pause_preview("Preview paused: " + message)
            return
        text = self.editor.toPlainText()
        rate = self.panel.words_per_minute()
        self.analysis = analyze(text, rate, self.ctx.content.pitch_plan())
        self.editing.show_preview(text)
        self.panel.show_analysis(self.analysis)
        fit_side(self.side)

    def _on_change(self, change) -> None:
        """The one-pager written elsewhere (a restored backup): shown when nothing typed
        here is unsaved; new content: the segments and budgets it is timed against."""
        if change.is_from(self):
            return
        if change.touches("about") and not self.editing.dirty:
            self.editor.blockSignals(True)  # shown as stored: nothing new to save
            try:
                self._load()
            finally:
                self.editor.blockSignals(False)
        elif change.touches("content"):
            self.refresh()

    def set_rate(self, wpm: float) -> None:
        try:
            about_store.set_words_per_minute(self.ctx.db, wpm)
        except ValueError as exc:
            self.show_notice(str(exc))
            return
        self.panel.set_rate(wpm)
        self.refresh()

    def _saved(self) -> None:
        self.is_new = False
        self.bus.announce(Change.of("about", origin=self))  # the editor shows it

    def use_template(self) -> None:
        self.documents.replace_text(template_text(self.ctx.content.pitch_plan()), "template")
        self.show_notice(
            "Started from the template. Undo (Ctrl+Z) or History brings back your text."
        )

    def show_notice(self, text: str) -> None:
        self.notice_row.show_text(text)

    # page hooks --------------------------------------------------------------------

    def _leaving_one_pager(self) -> None:
        """To the Stories tab: what is typed here is saved first."""
        if self.editing.dirty:
            self.editing.save_now("autosave")

    def show_stories(self) -> None:
        self.tabs.show_stories()

    def on_shown(self) -> None:
        self.tabs.on_shown()

    def shutdown(self) -> None:
        """Save what is unsaved (the main window calls this on close)."""
        self.tabs.shutdown()
        if self.rehearse_bar.running:
            self.rehearse_bar.stop()
        self.take_recorder.shutdown()
        self.editing.stop()
