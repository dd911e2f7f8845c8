"""A countdown line that changes every second without relaying out the card.

A QLabel asks its layout for a new geometry on every ``setText`` (even when its size
would not change), and on the cue card that re-measures every wrapped line of the round
page: about 10 ms a second. This widget keeps one size (the widest text it will show)
and only repaints itself when its text changes.
"""

from __future__ import annotations

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QPainter
from PySide6.QtWidgets import QSizePolicy, QWidget


class CountdownText(QWidget):
    def __init__(self, role: str, widest: str = "Over by 88:88", parent=None):
        super().__init__(parent)
        self.setProperty("role", role)  # styled like the labels of that role
        self._text = ""
        self._widest = widest
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)
        self.setAttribute(Qt.WidgetAttribute.WA_StyledBackground, False)

    def text(self) -> str:
        return self._text

    def setText(self, text: str) -> None:  # noqa: N802 - the QLabel name, so callers match
        if text == self._text:
            return
        self._text = text
        self.setAccessibleDescription(text)
        self.update()  # a repaint of this line only: no geometry change, no relayout

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt's name
        metrics = self.fontMetrics()
        return QSize(metrics.horizontalAdvance(self._widest) + 8, metrics.height() + 4)

    def minimumSizeHint(self) -> QSize:  # noqa: N802 - Qt's name
        metrics = self.fontMetrics()
        return QSize(metrics.horizontalAdvance("88:88") + 8, metrics.height() + 4)

    def paintEvent(self, _event) -> None:  # noqa: N802 - Qt's name
        painter = QPainter(self)
        painter.setPen(self.palette().color(self.foregroundRole()))
        painter.setFont(self.font())
        painter.drawText(
            self.rect().adjusted(2, 0, -2, 0),
            int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter),
            self.fontMetrics().elidedText(
                self._text, Qt.TextElideMode.ElideRight, self.width() - 4
            ),
        )
