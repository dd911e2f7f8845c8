"""A widget's own style sheet keeps the application's colours through a palette change,
and a second sheet for the same widget replaces the first rather than adding a follower."""

from __future__ import annotations

import pytest
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QApplication, QLabel

from companion.ui.widgets.palette_sheet import palette_sheet

pytestmark = pytest.mark.gui


def _background(widget) -> QColor:
    widget.ensurePolished()
    return widget.palette().color(QPalette.ColorRole.Window)


def test_the_sheet_follows_a_palette_change_and_a_new_sheet_replaces_the_old(qtbot, qapp):
    label = QLabel("x")
    qtbot.addWidget(label)
    before = QApplication.palette()
    palette_sheet(label, "QLabel { background: palette(alternate-base); }")
    palette_sheet(label, "QLabel { background: palette(base); }")
    followers = [c for c in label.children() if type(c).__name__ == "_FollowPalette"]
    assert len(followers) == 1 and label.styleSheet() == "QLabel { background: palette(base); }"
    changed = QPalette(before)
    changed.setColor(QPalette.ColorRole.Base, QColor("#123456"))
    try:
        QApplication.setPalette(changed)
        qtbot.waitUntil(lambda: _background(label) == QColor("#123456"))
    finally:
        QApplication.setPalette(before)
