"""What the questions-to-ask tab shows before any loop: where to add one. A part of the
planner tab."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget


class NoLoopsNotice(QWidget):
    """``journal_wanted``: "Open the Journal" pressed."""

    journal_wanted = Signal()

    def __init__(self, count_text: str, parent=None):
        super().__init__(parent)
        self.label = QLabel(
            "<h3>No interview loops yet</h3><p>Add your loop in the Journal first (the "
            "company, the dates and its rounds). Then come back here to plan "
            f"{count_text} questions to ask, each for the person "
            "who can answer it.</p>"
        )
        self.label.setWordWrap(True)
        self.label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.label.setAccessibleName("No loops yet")
        self.journal_button = QPushButton("Open the &Journal")
        self.journal_button.setAccessibleName("Open the Journal to add a loop")
        self.journal_button.clicked.connect(self.journal_wanted)
        layout = QVBoxLayout(self)
        layout.addStretch(1)
        layout.addWidget(self.label)
        row = QHBoxLayout()
        row.addStretch(1)
        row.addWidget(self.journal_button)
        row.addStretch(1)
        layout.addLayout(row)
        layout.addStretch(2)
