"""The drawing half of the visual system: Fusion with check boxes, focus frames and section
headers that stand out. Colours, the scheme and the type scale are in companion.ui.theme,
which installs this after the first paint (importing it builds QStyle's enums)."""

from __future__ import annotations

from PySide6.QtGui import QBrush, QColor, QFont, QFontMetrics, QPalette, QPen
from PySide6.QtWidgets import QAbstractItemView, QProxyStyle, QStyle, QStyleFactory

from companion.ui.theme import is_dark


class CompanionStyle(QProxyStyle):
    """Fusion, with a check box outline at least 3:1 against the window (Fusion draws it
    from the window colour darkened, nearly invisible in dark mode) and semibold section
    headers (group box titles), so a page reads as a few labelled blocks."""

    def __init__(self):
        super().__init__(QStyleFactory.create("Fusion"))

    def drawComplexControl(self, control, option, painter, widget=None):  # noqa: N802 (Qt API)
        if control != QStyle.ComplexControl.CC_GroupBox:
            super().drawComplexControl(control, option, painter, widget)
            if control in _RINGED and option.state & QStyle.StateFlag.State_HasFocus:
                draw_focus_ring(painter, option.rect, option.palette)
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
        if element == QStyle.PrimitiveElement.PE_FrameFocusRect:
            # buttons, check boxes, tabs: Fusion's 1 px highlight line was easy to lose.
            # Like Fusion, only when the focus came from the keyboard.
            if option.state & QStyle.StateFlag.State_KeyboardFocusChange:
                draw_focus_ring(painter, option.rect, option.palette)
            return
        super().drawPrimitive(element, option, painter, widget)
        focus = option.state & QStyle.StateFlag.State_HasFocus
        if focus and element == QStyle.PrimitiveElement.PE_FrameLineEdit:
            draw_focus_ring(painter, option.rect, option.palette)
        elif (
            focus
            and element == QStyle.PrimitiveElement.PE_PanelButtonCommand
            and option.state & QStyle.StateFlag.State_KeyboardFocusChange
        ):  # Fusion marks a focused push button by its 1 px outline alone
            draw_focus_ring(painter, option.rect, option.palette)
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


# what a ring sits on: the window, a field's base, a button's face
_GROUNDS = (QPalette.ColorRole.Window, QPalette.ColorRole.Base, QPalette.ColorRole.Button)
_RINGED = (QStyle.ComplexControl.CC_ComboBox, QStyle.ComplexControl.CC_SpinBox)
RING_WIDTH = 2


def focus_colour(palette: QPalette) -> QColor:
    """The highlight, darkened (light scheme) or lightened (dark) until it stands 3:1
    against the window, a field and a button: the focus ring must be seen at a glance."""
    roles = (
        QPalette.ColorRole.Highlight,
        QPalette.ColorRole.Window,
        QPalette.ColorRole.Base,
        QPalette.ColorRole.Button,
    )
    key = tuple(palette.color(r).rgba() for r in roles)
    if key not in _FOCUS_COLOURS:
        _FOCUS_COLOURS[key] = _strong_highlight(palette).rgba()
    return QColor.fromRgba(_FOCUS_COLOURS[key])


_FOCUS_COLOURS: dict[tuple[int, ...], int] = {}  # per scheme: computed once, not per paint


def _strong_highlight(palette: QPalette) -> QColor:
    from companion.ui.theme import contrast_ratio

    colour = QColor(palette.color(QPalette.ColorRole.Highlight))
    grounds = [palette.color(r) for r in _GROUNDS]
    grounds.append(palette.color(QPalette.ColorRole.Button).lighter(140))  # Fusion's face
    dark = is_dark(palette)
    for _ in range(20):
        if min(contrast_ratio(colour, g) for g in grounds) >= 3.2:
            break
        colour = colour.lighter(115) if dark else colour.darker(115)
    return colour


def draw_focus_ring(painter, rect, palette: QPalette) -> None:
    """A solid ring of RING_WIDTH px just inside ``rect``."""
    painter.save()
    pen = QPen(focus_colour(palette), RING_WIDTH)
    painter.setPen(pen)
    painter.setBrush(QBrush())  # no fill
    half = RING_WIDTH // 2
    painter.drawRect(rect.adjusted(half, half, -half, -half))
    painter.restore()
