"""Text that always fits its box: wrapped at word boundaries and, when that is not
enough, drawn in a smaller size, down to a floor; never clipped at the top or bottom.

The glance text (one step or nudge in large type) uses it. The style sheet's font size is
the largest size; the label draws itself at the largest size that fits its contents rect,
so a long nudge at 200% stays whole. The floor is the body font of the label's parent (the
card's normal text): a text that does not fit even there is cut at a word and ends in
"…", and the tooltip holds it all. Large type never ends up smaller than the small type.
"""

from __future__ import annotations

import re

from PySide6.QtCore import QRect, QSize, Qt
from PySide6.QtGui import QFont, QFontMetrics, QPainter
from PySide6.QtWidgets import QLabel, QSizePolicy

MIN_POINT_SIZE = 7.0  # the floor of a label with no parent
ELLIPSIS = "\u2026"


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
            floor = self.floor_point_size()
            if size <= floor:
                return font, False
            size = max(floor, size - 0.5)

    def floor_point_size(self) -> float:
        """The smallest size drawn: the parent's body font, never above the styled size."""
        parent = self.parentWidget()
        body = parent.font().pointSizeF() if parent is not None else MIN_POINT_SIZE
        styled = self.font().pointSizeF()
        floor = max(MIN_POINT_SIZE, body if body > 0 else MIN_POINT_SIZE)
        return min(floor, styled) if styled > 0 else floor

    def elided(self, font: QFont, rect: QRect) -> str:
        """A text too long even at the floor size, cut so that it fits and ending in '…'
        (one line: at a character; wrapped: at a word)."""
        metrics = QFontMetrics(font)
        text = self.text()
        if not self.wrap:
            return metrics.elidedText(text, Qt.TextElideMode.ElideRight, rect.width())

        def fits(candidate: str) -> bool:
            bounds = metrics.boundingRect(rect, self._flags(), candidate)
            return bounds.height() <= rect.height() and bounds.width() <= rect.width()

        words = re.findall(r"\S+\s*", text)  # each word with the space (or line break) after it
        low, high = 0, len(words)  # the most words that fit with the ellipsis
        while low < high:
            mid = (low + high + 1) // 2
            if fits("".join(words[:mid]).rstrip() + ELLIPSIS):
                low = mid
            else:
                high = mid - 1
        if low:
            return "".join(words[:low]).rstrip() + ELLIPSIS
        return metrics.elidedText(text, Qt.TextElideMode.ElideRight, rect.width())

    def shown_text(self) -> str:
        """The text as drawn now: whole, or cut with '…'."""
        rect = self.contentsRect()
        font, fits = self.fitted_font(rect)
        return self.text() if fits else self.elided(font, rect)

    def paintEvent(self, _event) -> None:  # noqa: N802 (Qt API)
        rect = self.contentsRect()
        font, fits = self.fitted_font(rect)
        text = self.text() if fits else self.elided(font, rect)
        tip = "" if fits else self.text()
        if self.toolTip() != tip:
            self.setToolTip(tip)
        painter = QPainter(self)
        painter.setFont(font)
        painter.setPen(self.palette().color(self.foregroundRole()))
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
        font.setPointSizeF(self.floor_point_size())
        return font
