"""The preview follows the rehearsal: the segment being rehearsed is scrolled to the top."""

from __future__ import annotations

import re

from PySide6.QtGui import QTextCursor
from PySide6.QtWidgets import QTextBrowser


def heading_text(markdown_line: str) -> str:
    """'## Present: what I do now ##' -> 'Present: what I do now'."""
    text = re.sub(r"^\s{0,3}#{1,6}\s*", "", markdown_line)
    return re.sub(r"\s#+\s*$", "", text).strip()


def _words(text: str) -> str:
    return " ".join(re.sub(r"[*_`]", "", text).split()).casefold()


def scroll_to_heading(preview: QTextBrowser, heading: str) -> bool:
    """Scroll ``preview`` so the heading reading ``heading`` is at its top; whether found."""
    wanted = _words(heading)
    if not wanted:
        return False
    block = preview.document().begin()
    while block.isValid():
        if _words(block.text()) == wanted:  # the first block that reads as the heading
            bar = preview.verticalScrollBar()
            top = preview.document().documentLayout().blockBoundingRect(block).top()
            bar.setValue(min(bar.maximum(), int(top)))
            cursor = QTextCursor(block)
            preview.setTextCursor(cursor)
            return True
        block = block.next()
    return False
