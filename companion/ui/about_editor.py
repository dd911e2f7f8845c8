"""The one-pager's editor and its preview.

The editor cleans what is pasted (control characters and binary junk are dropped, and the
page is told how many), and can highlight a line range (the current rehearsal segment).
The preview is a QTextBrowser that never loads a resource and never follows a link.
"""

from __future__ import annotations

from PySide6.QtCore import QMimeData, Qt, QUrl, Signal
from PySide6.QtGui import QColor, QFont, QFontDatabase, QTextCursor, QTextFormat
from PySide6.QtWidgets import QPlainTextEdit, QTextBrowser, QTextEdit, QWidget


class PitchEditor(QPlainTextEdit):
    #: a message about something the editor changed in a paste (e.g. control characters)
    paste_cleaned = Signal(str)

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setAccessibleName("One-pager editor")
        self.setAccessibleDescription(
            "Markdown. Headings such as 'Who I am' or 'Why this role' tie text to pitch segments."
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

    def canInsertFromMimeData(self, source: QMimeData) -> bool:  # noqa: N802 (Qt API)
        return source.hasText()

    def insertFromMimeData(self, source: QMimeData) -> None:  # noqa: N802 (Qt API)
        if not source.hasText():
            return
        from companion.core.about_import import clean_text

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
        selection.format.setBackground(QColor(255, 236, 179))
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
        from companion.core.about_render import PAGE_CSS

        self.document().setDefaultStyleSheet(PAGE_CSS)

    def loadResource(self, type_: int, url: QUrl):  # noqa: N802 (Qt API)
        if len(self.blocked) < 100:
            self.blocked.append(url.toString())
        return None

    def show_html(self, body: str) -> None:
        """Replace the content, keeping the scroll position."""
        bar = self.verticalScrollBar()
        position = bar.value()
        self.setHtml(body)
        bar.setValue(min(position, bar.maximum()))
