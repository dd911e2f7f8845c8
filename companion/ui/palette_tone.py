"""Whether a palette is dark, and the WCAG contrast of two colours: asked by the scheme
(companion.ui.theme) and the drawing style (companion.ui.style), which theme installs
only after the first paint (so neither imports the other)."""

from __future__ import annotations

from PySide6.QtGui import QColor, QPalette


def is_dark(palette: QPalette) -> bool:
    return palette.color(QPalette.ColorRole.Window).lightness() < 128


def _channel(value: int) -> float:
    v = value / 255
    return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4


def luminance(color: QColor) -> float:
    return (
        0.2126 * _channel(color.red())
        + 0.7152 * _channel(color.green())
        + 0.0722 * _channel(color.blue())
    )


def contrast_ratio(a: QColor, b: QColor) -> float:
    """WCAG 2.1 contrast ratio, 1 to 21 (text needs 4.5, indicators 3)."""
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)
