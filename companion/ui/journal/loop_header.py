"""The head of the Journal page's loop: company · role · dates · status, the loop's
notes, and the buttons to edit the loop and capture a round."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from companion.ui.journal.models import loop_dates
from companion.ui.widgets.plain_text import plain_tip
from companion.ui.widgets.type_scale import type_role

NOTES_SHOWN = 300  # characters of the notes on the page; the tooltip holds more


def _plain_label(name: str) -> QLabel:
    label = QLabel()
    label.setTextFormat(Qt.TextFormat.PlainText)
    label.setAccessibleName(name)
    label.setWordWrap(True)
    return label


class LoopHeader(QWidget):
    """``title`` and ``notes``; the page connects ``edit_button`` and ``capture_button``."""

    def __init__(self):
        super().__init__()
        self.title = _plain_label("Loop")
        type_role(self.title, "pageTitle")
        self.notes = _plain_label("Loop notes")
        self.edit_button = QPushButton("Edit l&oop…")
        self.edit_button.setAccessibleName("Edit the loop's company, role, dates and status")
        self.capture_button = QPushButton("&Capture…")
        self.capture_button.setAccessibleName("Capture what was asked for the selected round")
        head = QHBoxLayout()
        head.addWidget(self.title, 1)
        head.addWidget(self.edit_button, 0, Qt.AlignmentFlag.AlignTop)
        head.addWidget(self.capture_button, 0, Qt.AlignmentFlag.AlignTop)
        column = QVBoxLayout(self)
        column.setContentsMargins(0, 0, 0, 0)
        column.addLayout(head)
        column.addWidget(self.notes)

    def show_loop(self, loop, status: str) -> None:
        """The loop's title line (with ``status``, as the loop list tells it) and notes."""
        self.title.setText(
            " · ".join(p for p in (loop.company, loop.role, loop_dates(loop), status) if p)
        )
        notes = " ".join(loop.notes.split())
        more = "…" if len(notes) > NOTES_SHOWN else ""
        self.notes.setText(f"Notes: {notes[:NOTES_SHOWN]}{more}")
        self.notes.setToolTip(plain_tip(loop.notes[:2000]))
        self.notes.setVisible(bool(notes))

    def set_has_loop(self, has_loop: bool) -> None:
        self.edit_button.setEnabled(has_loop)
