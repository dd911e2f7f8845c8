"""A tree whose items wrap to its width and are never cut with "...": the row heights
are laid out again whenever the width changes (QTreeView keeps the heights it first
measured, so a wrapped row stayed one line high)."""

from __future__ import annotations

from PySide6.QtCore import QSize, Qt
from PySide6.QtWidgets import QHeaderView, QStyledItemDelegate, QTreeWidget


class _WrapDelegate(QStyledItemDelegate):
    """Row heights measured at the column's width (Qt measures them unwrapped)."""

    PADDING = 12  # the item's margins, focus frame and a little air

    def sizeHint(self, option, index) -> QSize:  # noqa: N802 (Qt API)
        base = super().sizeHint(option, index)
        tree = self.parent()
        depth = 0
        parent = index.parent()
        while parent.isValid():
            depth += 1
            parent = parent.parent()
        indent = tree.indentation() * (depth + (1 if tree.rootIsDecorated() else 0))
        width = tree.header().sectionSize(index.column()) - (indent if index.column() == 0 else 0)
        width = max(40, width - self.PADDING)
        text = str(index.data() or "")
        height = option.fontMetrics.boundingRect(
            0, 0, width, 100_000, int(Qt.TextFlag.TextWordWrap), text
        ).height()
        return QSize(base.width(), max(base.height(), height + 6))


class WrappingTree(QTreeWidget):
    def __init__(self, parent=None):
        super().__init__(parent)
        self.setWordWrap(True)
        self.setUniformRowHeights(False)
        self.setTextElideMode(Qt.TextElideMode.ElideNone)
        self.header().setStretchLastSection(True)
        self.header().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setItemDelegate(_WrapDelegate(self))
        self._width = -1

    def resizeEvent(self, event) -> None:  # noqa: N802 (Qt API)
        super().resizeEvent(event)
        if self.viewport().width() != self._width:
            self._width = self.viewport().width()
            self.doItemsLayout()

    def showEvent(self, event) -> None:  # noqa: N802 (Qt API)
        super().showEvent(event)
        self.doItemsLayout()
