"""Whether a palette is dark: asked by the scheme (companion.ui.theme) and the drawing
style (companion.ui.style), which theme installs only after the first paint."""

from __future__ import annotations

from PySide6.QtGui import QPalette


def is_dark(palette: QPalette) -> bool:
    return palette.color(QPalette.ColorRole.Window).lightness() < 128
