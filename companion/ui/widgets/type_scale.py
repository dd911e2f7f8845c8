"""The type scale: a widget's font by its role on the page.

Fonts only, apart from the colours (:mod:`companion.ui.theme`), which the first frame
needs and this does not: QFont's Python type is built on first use (~1 ms).
"""

from __future__ import annotations

from PySide6.QtGui import QFont, QGuiApplication

# Type scale: body 1.0, hint 0.9, section header 1.15 semibold, page title 1.4 semibold.
# Spacing: 4 / 8 / 12 / 16 px steps. Group box titles are the section headers (semibold,
# drawn by CompanionStyle). Colours come from the palette, so light and dark both hold.
TYPE_SCALE = {"pageTitle": 1.4, "sectionHeader": 1.15, "hint": 0.9}


def type_role(widget, role: str) -> None:
    """Give ``widget`` its place in the type scale ("pageTitle", "sectionHeader" or "hint"):
    the application's font at that size, semibold but for a hint. A font, not a style
    sheet: a sheet on the app made a light/dark switch restyle every widget."""
    font = QFont(QGuiApplication.font())
    scale = TYPE_SCALE[role]
    if font.pointSizeF() > 0:
        font.setPointSizeF(font.pointSizeF() * scale)
    else:
        font.setPixelSize(round(font.pixelSize() * scale))
    if role != "hint":
        font.setWeight(QFont.Weight.DemiBold)
    widget.setProperty("role", role)
    widget.setFont(font)
