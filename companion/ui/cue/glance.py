"""Glance mode's view: one line in large type (the current step, the nudge due now, or
the next question to ask) and a small caption. Interface: ``render(big, small)``."""

from __future__ import annotations

from PySide6.QtWidgets import QVBoxLayout, QWidget

from companion.ui.cue.fit_label import FitLabel
from companion.ui.cue.sections import label


class GlanceView(QWidget):
    def __init__(self, parent=None):
        super().__init__(parent)
        self.setObjectName("cueGlance")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(10, 6, 10, 6)
        self.text = FitLabel("", "glance")  # shrinks to fit, never clipped
        self.text.setAccessibleName("Glance text")
        self.caption = label("", "small")
        layout.addWidget(self.text, 1)
        layout.addWidget(self.caption)
        self.setVisible(False)

    def render(self, big: str, small: str) -> None:
        if self.text.text() != big:
            self.text.setText(big)
        if self.caption.text() != small:
            self.caption.setText(small)
