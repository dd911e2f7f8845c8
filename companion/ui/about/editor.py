"""The one-pager's editor and its preview.

The editor cleans what is pasted (control characters and binary junk are dropped, and the
page is told how many), and can highlight a line range (the current rehearsal segment).
The preview is a QTextBrowser that never loads a resource and never follows a link.
"""

from __future__ import annotations

from PySide6.QtCore import QMimeData, Qt, QUrl, Signal
from PySide6.QtGui import (
    QFont,
    QFontDatabase,
    QTextBlockFormat,
    QTextCharFormat,
    QTextCursor,
    QTextFormat,
    QTextFrameFormat,
)
from PySide6.QtWidgets import QPlainTextEdit, QTextBrowser, QTextEdit, QWidget

# Sections kept in frames of their own (only the edited one is laid out again); past this
# many, inserting a frame grew with the frames already there (1,500 sections: 15 s)
MAX_FRAMES = 64


class PitchEditor(QPlainTextEdit):
    #: a message about something the editor changed in a paste (e.g. control characters)
    paste_cleaned = Signal(str)

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setAccessibleName("One-pager editor")
        self.setAccessibleDescription(
            "Markdown. Headings such as 'Who I am' or 'Why this role' tie text to pitch segments."
            " Tab types a tab; Ctrl+Tab moves to the next control, Ctrl+Shift+Tab back."
        )
        self.setPlaceholderText(
            'Your one-pager is empty.\n\nStart typing Markdown, or use "Start from template" '
            "for the five pitch segments and the three projects."
        )
        font = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
        font.setStyleHint(QFont.StyleHint.Monospace)
        self.setFont(font)
        self.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        self.setTabChangesFocus(False)

    def keyPressEvent(self, event) -> None:  # noqa: N802 (Qt API)
        # Tab is text here, so Ctrl+Tab and Ctrl+Shift+Tab leave the editor: the
        # keyboard must never be trapped in it
        if event.key() in (Qt.Key.Key_Tab, Qt.Key.Key_Backtab) and (
            event.modifiers() & Qt.KeyboardModifier.ControlModifier
        ):
            backwards = event.key() == Qt.Key.Key_Backtab or bool(
                event.modifiers() & Qt.KeyboardModifier.ShiftModifier
            )
            # QWidget's, not QPlainTextEdit's: that one refuses while Tab is text
            QWidget.focusNextPrevChild(self, not backwards)
            return
        super().keyPressEvent(event)

    def canInsertFromMimeData(self, source: QMimeData) -> bool:  # noqa: N802 (Qt API)
        return source.hasText()

    def insertFromMimeData(self, source: QMimeData) -> None:  # noqa: N802 (Qt API)
        if not source.hasText():
            return
        from companion.core.about.importing import clean_text

        text, removed = clean_text(source.text())
        if removed:
            self.paste_cleaned.emit(
                f"Removed {removed} control character(s) from the pasted text "
                "(binary data cannot be part of a one-pager)."
            )
        self.textCursor().insertText(text)
        self.ensureCursorVisible()

    def replace_all(self, text: str) -> None:
        """Replace the whole text as one undoable edit (Ctrl+Z brings the old text back)."""
        cursor = QTextCursor(self.document())
        cursor.beginEditBlock()
        cursor.select(QTextCursor.SelectionType.Document)
        cursor.insertText(text)
        cursor.endEditBlock()

    def highlight_lines(self, first: int | None, end: int | None) -> None:
        """Shade lines [first, end) (0-based), or clear the shading when first is None."""
        if first is None:
            self.setExtraSelections([])
            return
        doc = self.document()
        start_block = doc.findBlockByNumber(first)
        end_block = doc.findBlockByNumber(max(first, (end or first + 1) - 1))
        if not start_block.isValid():
            self.setExtraSelections([])
            return
        cursor = QTextCursor(start_block)
        if end_block.isValid():
            cursor.setPosition(
                end_block.position() + max(0, end_block.length() - 1),
                QTextCursor.MoveMode.KeepAnchor,
            )
        selection = QTextEdit.ExtraSelection()
        selection.cursor = cursor
        from companion.ui.theme import soft_background

        selection.format.setBackground(soft_background(self.palette()))
        selection.format.setProperty(QTextFormat.Property.FullWidthSelection, True)
        self.setExtraSelections([selection])
        view = QTextCursor(start_block)
        self.setTextCursor(view)
        self.centerCursor()

    def go_to_line(self, line: int) -> None:
        block = self.document().findBlockByNumber(line)
        if block.isValid():
            self.setTextCursor(QTextCursor(block))
            self.centerCursor()
            self.setFocus(Qt.FocusReason.OtherFocusReason)


class SafePreview(QTextBrowser):
    """A preview that fetches nothing: every resource request (images by URL, style
    sheets) returns no data, and links are not followed."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setOpenLinks(False)
        self.setOpenExternalLinks(False)
        self.setAccessibleName("Preview")
        self.setAccessibleDescription("The one-pager as it will look when exported")
        self.blocked: list[str] = []  # URLs refused, newest last (for the curious and tests)
        self._sections: list[str] = []
        self._frames: list = []
        # read-only and rebuilt on every pause in typing: an undo history would only grow
        self.document().setUndoRedoEnabled(False)
        from companion.core.about.render import PAGE_CSS

        self.document().setDefaultStyleSheet(PAGE_CSS)

    def loadResource(self, type_: int, url: QUrl):  # noqa: N802 (Qt API)
        if len(self.blocked) < 100:
            self.blocked.append(url.toString())
        return None

    def show_html(self, body: str) -> None:
        """Replace the content, keeping the scroll position."""
        self._sections = []
        self._frames = []
        bar = self.verticalScrollBar()
        position = bar.value()
        self.setHtml(body)
        bar.setValue(min(position, bar.maximum()))

    def show_message(self, text: str) -> None:
        self._sections = []
        self._frames = []
        self.setPlainText(text)

    def show_render(self, result) -> None:
        """A render's result, as PreviewRender hands it: its sections, or the guard's
        refusal (too deep or too heavy: the reason shows)."""
        from companion.core.about.guard import RenderRefused

        if isinstance(result, RenderRefused):
            self.show_message(f"Preview paused: {result}")
        else:
            self.show_sections(result)

    def show_sections(self, sections: list[str]) -> None:
        """Show the rendered sections, re-laying out only those that changed.

        Each section sits in its own frame. After an edit, the sections the old and new
        lists share at both ends stay as they are; the few in between are replaced, and
        frames are added or removed when a heading was added or removed. Anything larger
        rebuilds the whole document."""
        old = self._sections
        if not old or not sections or not self._frames_intact():
            self._rebuild(sections)
            return
        prefix = 0
        limit = min(len(old), len(sections))
        while prefix < limit and old[prefix] == sections[prefix]:
            prefix += 1
        suffix = 0
        while suffix < limit - prefix and old[len(old) - 1 - suffix] == sections[-1 - suffix]:
            suffix += 1
        old_count = len(old) - suffix - prefix
        new_middle = sections[prefix : len(sections) - suffix]
        paired = min(old_count, len(new_middle))
        if old_count > 4 or len(new_middle) > 4 or (paired == 0 and prefix == 0):
            self._rebuild(sections)
            return
        frames = self._frames
        for offset in range(paired):
            frame = frames[prefix + offset]
            cursor = frame.firstCursorPosition()
            cursor.setPosition(frame.lastPosition(), QTextCursor.MoveMode.KeepAnchor)
            _clear_into(cursor)
            cursor.insertHtml(new_middle[offset])
        added = []
        after = frames[prefix + paired - 1]
        for html in new_middle[paired:]:
            cursor = QTextCursor(self.document())
            cursor.setPosition(after.lastPosition() + 1)
            after = cursor.insertFrame(self._frame_format())
            cursor.insertHtml(html)
            added.append(after)
        for frame in frames[prefix + paired : prefix + old_count]:
            cursor = QTextCursor(self.document())
            cursor.setPosition(frame.firstPosition() - 1)
            cursor.setPosition(frame.lastPosition() + 1, QTextCursor.MoveMode.KeepAnchor)
            cursor.removeSelectedText()
        self._frames = frames[: prefix + paired] + added + frames[prefix + old_count :]
        self._sections = list(sections)
        if not self._frames_intact():  # Qt merged or split something: start over
            self._rebuild(sections)

    @staticmethod
    def _frame_format() -> QTextFrameFormat:
        frame_format = QTextFrameFormat()
        frame_format.setMargin(0)
        frame_format.setPadding(0)
        frame_format.setBorder(0)
        return frame_format

    def _rebuild(self, sections: list[str]) -> None:
        bar = self.verticalScrollBar()
        position = bar.value()
        if len(sections) > MAX_FRAMES:  # one frame each costs more the more there are
            self.document().setHtml("\n".join(sections))
            self._frames, self._sections = [], []  # the next text is shown whole again
            bar.setValue(min(position, bar.maximum()))
            return
        doc = self.document()
        doc.clear()
        cursor = QTextCursor(doc)
        frames = []
        for html in sections:
            cursor.movePosition(QTextCursor.MoveOperation.End)
            frames.append(cursor.insertFrame(self._frame_format()))
            cursor.insertHtml(html)
        self._frames = frames
        self._sections = list(sections)
        bar.setValue(min(position, bar.maximum()))

    def _frames_intact(self) -> bool:
        """False when something else replaced the document's content since the last build."""
        return len(self.document().rootFrame().childFrames()) == len(self._frames)


def _clear_into(cursor: QTextCursor) -> None:
    """Remove the selection and leave a plain block behind: the block that remains takes
    the format of the removed text's last block, so a section ending in a list turned the
    heading inserted after it into a bullet."""
    cursor.removeSelectedText()
    text_list = cursor.currentList()
    if text_list is not None:
        text_list.remove(cursor.block())
    cursor.setBlockFormat(QTextBlockFormat())
    cursor.setBlockCharFormat(QTextCharFormat())
    cursor.setCharFormat(QTextCharFormat())
