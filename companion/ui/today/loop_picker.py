"""The loop chooser at the top of Today: "Loop:" (All loops, then each loop) and the
button that adds one. A part of the Today page; the page draws it from the loops."""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QPushButton, QWidget


class LoopPicker(QWidget):
    """``chosen``: the loop picked (0: all loops); ``add_wanted``: "Add a loop…" pressed."""

    chosen = Signal(int)
    add_wanted = Signal()

    def __init__(self, parent=None):
        super().__init__(parent)
        self._ids: list[int] = []
        self.label = QLabel("&Loop:")
        self.combo = QComboBox()
        self.combo.setAccessibleName("Interview loop")
        self.label.setBuddy(self.combo)
        self.combo.activated.connect(lambda i: self.chosen.emit(int(self.combo.itemData(i) or 0)))
        self.add_button = QPushButton("Add a l&oop…")
        self.add_button.clicked.connect(self.add_wanted)
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.label)
        row.addWidget(self.combo, 1)
        row.addWidget(self.add_button)
        row.addStretch(0)  # with no loop yet the button keeps its size, on the left

    def render(self, loops, picked: int) -> None:
        """List ``loops`` (redrawn only when they change), ``picked`` chosen."""
        ids = [lp.id for lp in loops]
        if ids != self._ids:
            self._ids = ids
            self.combo.blockSignals(True)
            self.combo.clear()
            self.combo.addItem("All loops", 0)  # the day: every loop in time order
            for loop in loops:
                self.combo.addItem(loop.label, loop.id)
            self.combo.blockSignals(False)
        self.combo.setCurrentIndex(max(0, self.combo.findData(picked)))
        for widget in (self.label, self.combo):
            widget.setVisible(bool(loops))
        # Alt+L: the loop list when there is one, else the button that adds the first
        self.add_button.setText("Add a l&oop…" if loops else "Add a &loop…")
