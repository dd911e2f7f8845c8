"""The ranked study list as a flat table model."""

from __future__ import annotations

from PySide6.QtCore import QAbstractItemModel, QModelIndex, Qt

from companion.core.journal.entries import SEVERITIES
from companion.core.study.ranking import StudyItem
from companion.ui.widgets.itemdata import ACCESSIBLE, DISPLAY, OBJECT, TOOLTIP, one_line, when_text


class StudyModel(QAbstractItemModel):
    """The ranked study list as a flat table."""

    HEADERS = ("#", "Topic", "Times", "Worst", "Last seen", "Guide")

    def __init__(self, parent=None):
        super().__init__(parent)
        self.items: list[StudyItem] = []

    def set_items(self, items: list[StudyItem]) -> None:
        self.beginResetModel()
        self.items = list(items)
        self.endResetModel()

    def index(self, row, column, parent=QModelIndex()):  # noqa: B008
        if parent.isValid() or not self.hasIndex(row, column, parent):
            return QModelIndex()
        return self.createIndex(row, column)

    def parent(self, index=QModelIndex()):  # noqa: B008
        return QModelIndex()

    def rowCount(self, parent=QModelIndex()) -> int:  # noqa: B008, N802
        return 0 if parent.isValid() else len(self.items)

    def columnCount(self, parent=QModelIndex()) -> int:  # noqa: B008, N802
        return 0 if parent.isValid() else len(self.HEADERS)

    def headerData(self, section, orientation, role=DISPLAY):  # noqa: N802
        if orientation == Qt.Orientation.Horizontal and role == DISPLAY:
            return self.HEADERS[section]
        return None

    def data(self, index, role=DISPLAY):
        if not index.isValid() or not 0 <= index.row() < len(self.items):
            return None
        item = self.items[index.row()]
        col = index.column()
        if role in (DISPLAY, ACCESSIBLE):
            values = (
                str(index.row() + 1),
                one_line(item.topic, 120),
                f"{item.count}×",
                f"{item.worst}/3 {SEVERITIES[item.worst]}",
                when_text(item.last_seen)[:10] if item.last_seen else "",
                item.guide.section_title if item.guide else "",
            )
            if role == ACCESSIBLE and col == 1:
                return f"{item.topic}, {item.count} times, worst {item.worst} of 3"
            return values[col]
        if role == TOOLTIP:
            if col == 5 and item.guide:
                return item.guide.item or item.guide.section_title
            return item.topic[:2000]
        if role == Qt.ItemDataRole.TextAlignmentRole and col in (0, 2):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == OBJECT:
            return item
        return None
