"""Text that always fits its box: wrapped at word boundaries and, when that is not
enough, drawn in a smaller size, down to a floor; never clipped at the top or bottom.

The glance text (one step or nudge in large type) and the card's title use it. The style
sheet's font size is the largest size; the label draws itself at the largest size that
fits its contents rect, so a long nudge at 200% stays whole.
"""

from __future__ import annotations

from PySide6.QtCore import QRect, QSize, Qt
from PySide6.QtGui import QFont, QFontMetrics, QPainter
from PySide6.QtWidgets import QLabel, QSizePolicy

MIN_POINT_SIZE = 7.0


class FitLabel(QLabel):
    def __init__(self, text: str = "", role: str = "", *, wrap: bool = True, parent=None):
        super().__init__(text, parent)
        self.wrap = wrap
        self.setWordWrap(wrap)
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.setTextInteractionFlags(Qt.TextInteractionFlag.NoTextInteraction)
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Ignored)
        if role:
            self.setProperty("role", role)

    def _flags(self) -> int:
        wrap = Qt.TextFlag.TextWordWrap if self.wrap else Qt.TextFlag(0)
        return int(self.alignment()) | int(wrap)

    def fitted_font(self, rect: QRect | None = None) -> tuple[QFont, bool]:
        """The largest font, at most the styled one, whose text fits ``rect`` (the
        contents rect); and whether even the floor size fits."""
        rect = rect or self.contentsRect()
        font = QFont(self.font())
        size = font.pointSizeF() if font.pointSizeF() > 0 else 10.0
        text = self.text()
        while True:
            font.setPointSizeF(size)
            bounds = QFontMetrics(font).boundingRect(rect, self._flags(), text)
            if bounds.height() <= rect.height() and bounds.width() <= rect.width():
                return font, True
            if size <= MIN_POINT_SIZE:
                return font, False
            size = max(MIN_POINT_SIZE, size - 0.5)

    def elided(self, font: QFont, rect: QRect) -> str:
        """A one-line text too long even at the floor size ends in '…' (its tooltip has it all)."""
        if self.wrap:
            return self.text()
        return QFontMetrics(font).elidedText(self.text(), Qt.TextElideMode.ElideRight, rect.width())

    def paintEvent(self, _event) -> None:  # noqa: N802 (Qt API)
        rect = self.contentsRect()
        font, fits = self.fitted_font(rect)
        painter = QPainter(self)
        painter.setFont(font)
        painter.setPen(self.palette().color(self.foregroundRole()))
        text = self.text() if fits else self.elided(font, rect)
        painter.drawText(rect, self._flags(), text)
        painter.end()

    def minimumSizeHint(self) -> QSize:  # noqa: N802 (Qt API)
        metrics = QFontMetrics(self.font())
        return QSize(metrics.averageCharWidth() * 4, QFontMetrics(self._floor()).height())

    def sizeHint(self) -> QSize:  # noqa: N802 (Qt API)
        metrics = QFontMetrics(self.font())
        return QSize(metrics.horizontalAdvance(self.text()[:40]) + 4, metrics.height() + 2)

    def hasHeightForWidth(self) -> bool:  # noqa: N802 (Qt API)
        return False

    def _floor(self) -> QFont:
        font = QFont(self.font())
        font.setPointSizeF(MIN_POINT_SIZE)
        return font
