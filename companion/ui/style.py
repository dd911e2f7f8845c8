"""The drawing half of the visual system: Fusion with check boxes, focus frames and section
headers that stand out. Colours, the scheme and the type scale are in companion.ui.theme,
which installs this after the first paint (importing it builds QStyle's enums)."""

from __future__ import annotations

from PySide6.QtGui import QBrush, QColor, QFont, QFontMetrics, QPalette, QPen
from PySide6.QtWidgets import QAbstractItemView, QProxyStyle, QStyle, QStyleFactory

from companion.ui.palette_tone import is_dark


class CompanionStyle(QProxyStyle):
    """Fusion, with a check box outline at least 3:1 against the window (Fusion draws it
    from the window colour darkened, nearly invisible in dark mode) and semibold section
    headers (group box titles), so a page reads as a few labelled blocks."""

    def __init__(self):
        super().__init__(QStyleFactory.create("Fusion"))

    def drawComplexControl(self, control, option, painter, widget=None):  # noqa: N802 (Qt API)
        if control != QStyle.ComplexControl.CC_GroupBox:
            super().drawComplexControl(control, option, painter, widget)
            return
        painter.save()
        font = QFont(painter.font())
        font.setWeight(QFont.Weight.DemiBold)
        painter.setFont(font)
        super().drawComplexControl(control, option, painter, widget)
        painter.restore()

    def subControlRect(self, control, option, sub, widget=None):  # noqa: N802 (Qt API)
        rect = super().subControlRect(control, option, sub, widget)
        if (
            control == QStyle.ComplexControl.CC_GroupBox
            and sub == QStyle.SubControl.SC_GroupBoxLabel
        ):
            # room for the title in semibold: the style measured it in the regular weight
            # (DejaVu Sans Bold runs ~14 % wider; a fixed margin cut "round" to "rounc")
            font = QFont(widget.font()) if widget is not None else QFont()
            regular = QFontMetrics(font).horizontalAdvance(option.text)
            font.setWeight(QFont.Weight.DemiBold)
            semibold = QFontMetrics(font).horizontalAdvance(option.text)
            rect.setWidth(rect.width() + max(0, semibold - regular) + 1)
        return rect

    def drawPrimitive(self, element, option, painter, widget=None):  # noqa: N802 (Qt API)
        if element == QStyle.PrimitiveElement.PE_FrameFocusRect and isinstance(
            widget, QAbstractItemView
        ):
            # Fusion fills the current item with a paler highlight, under the text: white
            # on it fell to 3.7:1 in dark. A dotted outline, no fill, keeps the text 4.5:1.
            selected = option.state & QStyle.StateFlag.State_Selected
            role = QPalette.ColorRole.HighlightedText if selected else QPalette.ColorRole.Highlight
            pen = QPen(option.palette.color(role), 1)
            pen.setDashPattern([1.0, 2.0])  # dotted (Qt.PenStyle would import Qt: ~20 ms)
            painter.save()
            painter.setPen(pen)
            painter.setBrush(QBrush())  # no fill
            painter.drawRect(option.rect.adjusted(0, 0, -1, -1))
            painter.restore()
            return
        super().drawPrimitive(element, option, painter, widget)
        if element in (
            QStyle.PrimitiveElement.PE_IndicatorCheckBox,
            QStyle.PrimitiveElement.PE_IndicatorItemViewItemCheck,
        ):
            painter.save()
            painter.setPen(QPen(indicator_outline(option.palette), 1))
            painter.setBrush(QBrush())  # no fill
            painter.drawRect(option.rect.adjusted(0, 0, -1, -1))
            painter.restore()


def indicator_outline(palette: QPalette) -> QColor:
    # 3:1 or more against the window and the base in either scheme
    return QColor(140, 146, 156) if is_dark(palette) else QColor(118, 118, 118)
