"""Blocks side by side when the page has room, one under the other when it has not.

A plain QHBoxLayout asks for the sum of its blocks' minimum widths, so a two-column page
forced the window wider than a 1600-pixel screen at 200 %. Columns asks only for the
widest block and stacks the blocks whenever its width is below what they need side by
side."""

from __future__ import annotations

from PySide6.QtCore import QSize
from PySide6.QtWidgets import QBoxLayout, QWidget

SIDE_BY_SIDE = QBoxLayout.Direction.LeftToRight
STACKED = QBoxLayout.Direction.TopToBottom


class Columns(QWidget):
    def __init__(self, *blocks: QWidget, parent: QWidget | None = None):
        super().__init__(parent)
        self.blocks = blocks
        self.box = QBoxLayout(SIDE_BY_SIDE, self)
        self.box.setContentsMargins(0, 0, 0, 0)
        for block in blocks:
            self.box.addWidget(block, 1)

    @property
    def stacked(self) -> bool:
        return self.box.direction() == STACKED

    def side_by_side_width(self) -> int:
        widths = [b.minimumSizeHint().width() for b in self.blocks if not b.isHidden()]
        return sum(widths) + self.box.spacing() * max(0, len(widths) - 1)

    def minimumSizeHint(self) -> QSize:  # noqa: N802 (Qt API)
        shown = [b for b in self.blocks if not b.isHidden()] or [self]
        width = max((b.minimumSizeHint().width() for b in shown if b is not self), default=0)
        return QSize(width, self.box.minimumSize().height())

    def resizeEvent(self, event) -> None:  # noqa: N802 (Qt API)
        wanted = SIDE_BY_SIDE if event.size().width() >= self.side_by_side_width() else STACKED
        if self.box.direction() != wanted:
            self.box.setDirection(wanted)
            self.updateGeometry()  # the height it needs changes with the direction
        super().resizeEvent(event)
