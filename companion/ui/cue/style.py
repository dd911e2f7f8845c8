"""The cue card's look: sizes scale with its text size (one sheet on the card, fonts and
spacing only), and the few coloured parts carry their own small sheets in the palette's
colours (:func:`companion.ui.widgets.palette_sheet.palette_sheet`), so a light/dark switch
restyles those parts alone, not the card's several hundred widgets."""

from __future__ import annotations

from PySide6.QtGui import QPainter
from PySide6.QtWidgets import QFrame

HEADER_MAX_PT = 14

#: the coloured parts, each set on that part by palette_sheet
HANDLE = (
    "#cueHandle { background: palette(button); border-bottom: 1px solid palette(mid); }"
    ' QLabel[role="clock"][phase="near-end"], QLabel[role="clock"][phase="over"] {'
    " color: palette(highlighted-text); background: palette(highlight); border-radius: 3px; }"
)
NUDGE = (
    'QLabel[role="nudge"][fresh="true"] { color: palette(highlighted-text);'
    " background: palette(highlight); padding: 2px 4px; border-radius: 3px; }"
)
RULE = (
    'QLabel[role="rule"] { padding: 5px 8px; border-top: 1px solid palette(mid);'
    " background: palette(alternate-base); }"
)
STRIPS = {
    "cueNudge": "#cueNudge { background: palette(highlight); }"
    " #cueNudge QLabel, #cueNudge QToolButton { color: palette(highlighted-text);"
    " font-weight: 600; }",
    "cueReminder": "#cueReminder { background: palette(alternate-base);"
    " border-bottom: 1px solid palette(mid); }",
}
ROUND_TABS = (
    "#cueStrip QToolButton { padding: 2px 4px; border: 1px solid palette(mid);"
    " border-radius: 3px; background: palette(button); color: palette(button-text); }"
    " #cueStrip QToolButton:hover { border-color: palette(highlight); }"
    " #cueStrip QToolButton:checked { background: palette(highlight);"
    " color: palette(highlighted-text); border-color: palette(highlight); font-weight: 600; }"
)


class CardFrame(QFrame):
    """The card's outline: one pixel in the palette's mid colour, drawn, not styled (a
    sheet here would restyle every widget of the card at each light/dark switch)."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setObjectName("cueFrame")

    def paintEvent(self, event) -> None:  # noqa: N802 (Qt API)
        super().paintEvent(event)
        painter = QPainter(self)
        painter.setPen(self.palette().mid().color())
        painter.drawRect(self.rect().adjusted(0, 0, -1, -1))
        painter.end()


def style_sheet(base_pt: int) -> str:
    """Font sizes and spacing, scaled with the card's text size; no colour (the coloured
    parts have their own sheets, above)."""

    def pt(factor: float) -> str:
        return f"{max(6, round(base_pt * factor))}pt"

    # the header's controls stop growing at HEADER_MAX_PT: at the largest text size they
    # still fit a narrow card (the page below takes the large type)
    head = min(base_pt, HEADER_MAX_PT)

    def hpt(factor: float) -> str:
        return f"{max(6, round(head * factor))}pt"

    return f"""
    QWidget {{ font-size: {pt(1)}; }}
    #cueHandle QToolButton, #cueHandle QLabel, #cueVoice QToolButton {{ font-size: {hpt(1)}; }}
    #cueHandle QLabel[role="small"] {{ font-size: {hpt(0.85)}; }}
    QLabel[role="title"] {{ font-size: {hpt(1.1)}; font-weight: 600; }}
    QLabel[role="clock"] {{ font-size: {hpt(1.1)}; font-weight: 600; padding: 0 4px; }}
    QLabel[role="large"], CountdownText[role="large"] {{ font-size: {pt(1.5)}; font-weight: 600; }}
    QLabel[role="glance"] {{ font-size: {pt(2.2)}; font-weight: 600; }}
    QLabel[role="small"], QLabel[role="hint"] {{ font-size: {pt(0.85)}; }}
    QLabel[role="say"] {{ font-style: italic; }}
    QLabel[role="nudge"] {{ font-weight: 600; }}
    QToolButton::menu-indicator {{ image: none; width: 0px; }}
    QLabel[role="rule"] {{ font-size: {pt(0.95)}; }}
    #cueStart[running="true"] {{ font-weight: 600; }}
    #cueSectionHeader {{ font-weight: 600; text-align: left; }}
    """
