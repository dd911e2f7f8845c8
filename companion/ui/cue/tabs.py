"""The round-type tabs under the header: one button per type, two columns.

Interface: ``render(page_id)`` checks the shown type's tab; ``picked(type_id)`` is
emitted on a click. The tabs look like buttons (a frame on every one, the shown one
filled), so an unselected type does not read as plain text.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QGridLayout, QSizePolicy, QToolButton, QWidget

from companion.core.cue.rounds import RoundInfo
from companion.ui.cue.sections import tool_button
from companion.ui.cue.style import ROUND_TABS
from companion.ui.widgets.palette_sheet import palette_sheet


class RoundTabs(QWidget):
    picked = Signal(str)

    def __init__(self, infos: Sequence[RoundInfo], parent=None):
        super().__init__(parent)
        self.setObjectName("cueStrip")
        palette_sheet(self, ROUND_TABS)
        grid = QGridLayout(self)
        grid.setContentsMargins(4, 3, 4, 3)
        grid.setSpacing(3)
        self.buttons: dict[str, QToolButton] = {}
        for n, info in enumerate(infos):
            text = f"{info.key} {info.short}" if info.key else info.short
            button = tool_button(
                text,
                f"Round type {info.title}",
                f"{info.title} ({info.key})" if info.key else info.title,
                checkable=True,
            )
            button.setAutoRaise(False)  # a frame on every tab: they read as buttons
            button.setProperty("role", "roundButton")
            button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
            button.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
            button.setMinimumWidth(24)
            button.clicked.connect(lambda _=False, rid=info.id: self._clicked(rid))
            grid.addWidget(button, n // 2, n % 2)  # two columns keep the card narrow
            self.buttons[info.id] = button

    def _clicked(self, round_id: str) -> None:
        self.render(round_id)
        self.picked.emit(round_id)

    def render(self, page_id: str) -> None:
        for rid, button in self.buttons.items():
            if button.isChecked() != (rid == page_id):
                button.setChecked(rid == page_id)
