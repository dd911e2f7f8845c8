"""What Today shows before the first loop: the steps to start, and a button to the
About me one-pager. A part of the Today page."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

EMPTY_TEXT = (  # {target}: the pack's whole-pitch target
    "<p>No interview loop yet. Start here:</p><ol>"
    "<li><b>Add a loop</b>: the company and the first interview day.</li>"
    "<li><b>Add its rounds</b> with their start times, or import the calendar "
    "invitation (.ics).</li></ol>"
    "<p>Then this page counts down to each round and brings up the right list at the right "
    "time: the evening before, the morning of, and before each round.</p>"
    "<p>Tonight, write your one-page <b>About me</b>: the {target} second answer and three "
    "projects with numbers; the warm-up before the first round reads it aloud once.</p>"
)


class StartHere(QWidget):
    """``about_wanted``: "Write your About me…" pressed."""

    about_wanted = Signal()

    def __init__(self, target: str, parent=None):
        super().__init__(parent)
        self.label = QLabel(EMPTY_TEXT.format(target=target))
        self.label.setWordWrap(True)
        self.label.setAccessibleName("How to start")
        self.label.setTextFormat(Qt.TextFormat.RichText)
        self.about_button = QPushButton("Write your &About me…")
        self.about_button.setAccessibleName("Write your About me one-pager")
        self.about_button.clicked.connect(self.about_wanted)
        about_row = QHBoxLayout()
        about_row.addWidget(self.about_button)
        about_row.addStretch(1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.label)
        layout.addLayout(about_row)
