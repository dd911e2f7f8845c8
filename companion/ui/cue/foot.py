"""The card's foot: the keys hint (its tooltip lists them all) and the resize grip.
``hint`` hides in glance mode; the grip stays."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QHBoxLayout, QSizeGrip, QWidget

from companion.ui.cue.look import SHORTCUTS
from companion.ui.cue.sections import label


class CardFoot(QWidget):
    def __init__(self, window, parent=None):
        super().__init__(parent)
        row = QHBoxLayout(self)
        row.setContentsMargins(6, 0, 0, 0)
        self.hint = label("Keys: 1-9 round · \u2190\u2192 step · G glance", "hint", wrap=True)
        self.hint.setToolTip(SHORTCUTS)
        row.addWidget(self.hint, 1)
        self.size_grip = QSizeGrip(window)  # resizes the card (the grip's top-level window)
        self.size_grip.setToolTip("Drag to resize the card")
        self.size_grip.setAccessibleName("Resize the card")
        row.addWidget(self.size_grip, 0, Qt.AlignmentFlag.AlignBottom | Qt.AlignmentFlag.AlignRight)
