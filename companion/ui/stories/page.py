"""About me → Stories: the story bank in the one-pager's editor, live preview, autosave
and History (:mod:`companion.ui.about`), with a side panel that times each story against
the pack's budget and maps the pack's questions to the stories (gaps and warnings)."""

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
from companion.core.about.store import words_per_minute
from companion.core.changes import Change
from companion.core.content.stories import story_pack
from companion.core.stories import DatabaseError
from companion.core.stories.check import analyze_bank
from companion.core.stories.document import STORIES, starter
from companion.core.stories.projects import stories_from_projects
from companion.core.stories.render import StoryRenderer
from companion.ui.about.actions import page_action
from companion.ui.about.autosaving import AutosaveCycle, Document
from companion.ui.about.documents import DocumentActions
from companion.ui.about.editor import PitchEditor, SafePreview
from companion.ui.stories.panel import StoriesPanel
from companion.ui.widgets.page_top import NoticeRow, action_bar

# STAR lines as their own paragraphs in the preview and the PDF
STORY_BANK = Document(STORIES, "story bank", "stories.pdf", StoryRenderer)


class StoriesPage(QWidget):
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
        self.analysis = None
        self.pack = story_pack(ctx.content)
        self.setAccessibleName("Stories")
        self.editor = PitchEditor()
        self.editor.setAccessibleName("Story bank editor")
        self.preview = SafePreview()
        self.panel = StoriesPanel()
        self.panel.show_intro(self.pack.intro)
        self._build_editing(monotonic)
        self._build()
        self._load()
        self._connect()

    def _connect(self) -> None:
        """After the first load: from here an edit is the user's."""
        self.editing.status_changed.connect(self.status.setText)
        self.editor.textChanged.connect(self.editing.typed)
        self.editor.paste_cleaned.connect(self.show_notice)
        self.panel.jump_to_line.connect(self.editor.go_to_line)

    def _build_editing(self, monotonic: Callable[[], float]) -> None:
        """The autosave cycle and the document actions over the editor."""
        parts = dict(editor=self.editor, render=self.refresh, notice=self.show_notice)
        self.editing = AutosaveCycle(
            self, self.ctx, STORY_BANK, preview=self.preview, monotonic=monotonic, **parts
        )
        self.editing.saved.connect(self._saved)
        self.documents = DocumentActions(self, self.ctx, STORY_BANK, editing=self.editing, **parts)

    def _build(self) -> None:
        documents = self.documents
        self.save_action = page_action(
            self,
            "Save now",
            lambda: self.editing.save_now("save"),
            "Ctrl+S",
            "Save and keep a revision",
        )
        self.projects_action = page_action(
            self,
            "From projects",
            self.from_projects,
            tip="Turn the one-pager's projects into stories",
        )
        self.history_action = page_action(
            self, "History…", documents.open_history, tip="Earlier versions"
        )
        self.import_action = page_action(
            self, "Import…", documents.import_dialog, tip="Replace with a file"
        )
        self.export_action = page_action(
            self, "Export…", documents.export_dialog, "Ctrl+E", "Export as PDF, HTML or Markdown"
        )
        for action, words in (
            (self.projects_action, "From &projects"),
            (self.history_action, "&History"),
            (self.import_action, "&Import"),
        ):
            action.setIconText(words)
        top, self.toolbar_buttons, self.status = action_bar(
            "Stories actions",
            (
                self.save_action,
                self.projects_action,
                self.history_action,
                self.import_action,
                self.export_action,
            ),
        )
        self.notice_row = NoticeRow()
        self.notice = self.notice_row.label
        side = QScrollArea()
        side.setAccessibleName("Story timing, scrollable")
        side.setWidgetResizable(True)
        side.setWidget(self.panel)
        side.setMinimumWidth(300)
        splitter = QSplitter(Qt.Orientation.Horizontal)
        for widget, stretch in ((self.editor, 3), (self.preview, 3), (side, 2)):
            splitter.addWidget(widget)
            splitter.setStretchFactor(splitter.count() - 1, stretch)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(top)
        layout.addWidget(self.notice_row)
        layout.addWidget(splitter, 1)
        order = [
            *self.toolbar_buttons,
            self.notice_row.dismiss,
            self.editor,
            self.preview,
            *self.panel.tab_order(),
        ]
        for first, second in pairwise(order):
            QWidget.setTabOrder(first, second)

    def _load(self) -> None:
        try:
            text = STORIES.load_document(self.ctx.db)
        except DatabaseError as exc:
            text = None
            self.show_notice(f"Your story bank cannot be read this session: {exc}")
        self.is_new = text is None
        self.editor.setPlainText(starter(self.ctx.content) if text is None else text)
        self.status.setText("Template: edit to start" if self.is_new else "Saved")
        self.refresh()

    def refresh(self) -> None:
        self.editing.rendering()
        if self.editor.document().characterCount() > LIVE_LIMIT_CHARS:
            message = f"Preview and timing pause above {LIVE_LIMIT_CHARS:,} characters."
            self.analysis = None
            self.panel.show_paused(message)
            self.editing.pause_preview(message)
            return
        text = self.editor.toPlainText()
        self.analysis = analyze_bank(text, self.pack, words_per_minute(self.ctx.db))
        self.editing.show_preview(text)
        self.panel.show_analysis(self.analysis, self.pack)

    def from_projects(self) -> None:
        """Add a story for each of the one-pager's projects that has none yet."""

        current = self.editor.toPlainText()
        base = "" if self.is_new else current
        text, added = stories_from_projects(about_store.load_text(self.ctx.db), base)
        if not added:
            self.show_notice(
                "No project to add: each project of your one-pager already has a story, or "
                "the one-pager has no Three projects section."
            )
            return
        self.documents.replace_text(text, "import")
        self.show_notice(
            f"Added {added} stories from your projects. Undo (Ctrl+Z) takes them back."
        )

    def _saved(self) -> None:
        self.is_new = False
        self.bus.announce(Change.of("stories", origin=self))  # the editor shows it

    def show_notice(self, text: str) -> None:
        self.notice_row.show_text(text)

    def on_shown(self) -> None:
        self.editor.setFocus()

    def shutdown(self) -> None:
        self.editing.stop()
