"""Light and dark: follow the system, or force one with COMPANION_COLOR_SCHEME=dark|light."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QPalette


def apply_scheme(app, scheme: str) -> None:
    """Force a scheme. Fusion plus an explicit palette works on every platform, where
    ``QStyleHints.setColorScheme`` is only a request the platform theme may ignore."""
    app.setStyle("Fusion")
    app.styleHints().setColorScheme(
        Qt.ColorScheme.Dark if scheme == "dark" else Qt.ColorScheme.Light
    )
    app.setPalette(dark_palette() if scheme == "dark" else app.style().standardPalette())


def dark_palette() -> QPalette:
    p = QPalette()
    base, window, text = QColor(30, 32, 36), QColor(40, 43, 48), QColor(228, 230, 235)
    roles = {
        QPalette.ColorRole.Window: window,
        QPalette.ColorRole.WindowText: text,
        QPalette.ColorRole.Base: base,
        QPalette.ColorRole.AlternateBase: QColor(46, 49, 55),
        QPalette.ColorRole.ToolTipBase: QColor(52, 55, 61),
        QPalette.ColorRole.ToolTipText: text,
        QPalette.ColorRole.PlaceholderText: QColor(140, 145, 155),
        QPalette.ColorRole.Text: text,
        QPalette.ColorRole.Button: QColor(50, 53, 59),
        QPalette.ColorRole.ButtonText: text,
        QPalette.ColorRole.BrightText: QColor(255, 110, 110),
        QPalette.ColorRole.Light: QColor(70, 74, 82),
        QPalette.ColorRole.Midlight: QColor(60, 64, 71),
        QPalette.ColorRole.Mid: QColor(62, 66, 73),
        QPalette.ColorRole.Dark: QColor(20, 21, 24),
        QPalette.ColorRole.Shadow: QColor(0, 0, 0),
        QPalette.ColorRole.Highlight: QColor(58, 130, 210),
        QPalette.ColorRole.HighlightedText: QColor(255, 255, 255),
        QPalette.ColorRole.Link: QColor(110, 170, 255),
        QPalette.ColorRole.LinkVisited: QColor(170, 140, 255),
    }
    for role, color in roles.items():
        p.setColor(role, color)
    for role in (
        QPalette.ColorRole.Text,
        QPalette.ColorRole.WindowText,
        QPalette.ColorRole.ButtonText,
    ):
        p.setColor(QPalette.ColorGroup.Disabled, role, QColor(120, 124, 132))
    return p


def is_dark(palette: QPalette) -> bool:
    return palette.color(QPalette.ColorRole.Window).lightness() < 128
