"""Tab order that follows what the eye sees: top to bottom, then left to right.

Qt chains Tab in creation order, so buttons a page adds later (the Now box's actions, a
phase's check boxes) were reached after everything below them. ``follow_layout`` chains
a container's focusable widgets by where they are drawn instead.
"""

from __future__ import annotations

from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QWidget


def tab_stops(container: QWidget) -> list[QWidget]:
    """The widgets Tab stops at inside ``container``, in reading order."""
    found = []
    for widget in container.findChildren(QWidget):
        if not widget.isVisibleTo(container) or widget.focusProxy() is not None:
            continue
        if not widget.focusPolicy() & Qt.FocusPolicy.TabFocus:
            continue
        top_left = widget.mapTo(container, QPoint(0, 0))
        found.append((top_left, widget))
    # a row: widgets whose middles lie within a few pixels (a check box beside a button)
    found.sort(key=lambda p: ((p[0].y() + p[1].height() // 2) // 12, p[0].x()))
    return [widget for _, widget in found]


def follow_layout(container: QWidget) -> list[QWidget]:
    """Chain Tab through ``container``'s focusable widgets in reading order."""
    stops = tab_stops(container)
    for before, after in zip(stops, stops[1:]):
        QWidget.setTabOrder(before, after)
    return stops
