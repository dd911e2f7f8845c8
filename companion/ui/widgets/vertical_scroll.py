"""A scroll area that scrolls up and down only and is as wide as its content needs: a
side of a splitter that must not be squeezed below its content's width."""

from __future__ import annotations

from PySide6.QtCore import QSize, Qt
from PySide6.QtWidgets import QScrollArea, QWidget


class VerticalScroll(QScrollArea):
    def __init__(self, content: QWidget, accessible_name: str):
        super().__init__()
        self.setWidget(content)
        self.setWidgetResizable(True)
        self.setFrameShape(QScrollArea.Shape.NoFrame)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # Tab moves through its fields
        self.setAccessibleName(accessible_name)

    def minimumSizeHint(self) -> QSize:  # noqa: N802 (Qt API)
        hint = super().minimumSizeHint()
        content = self.widget()
        if content is not None:
            bar = self.verticalScrollBar().sizeHint().width()
            hint.setWidth(max(hint.width(), content.minimumSizeHint().width() + bar))
        return hint
