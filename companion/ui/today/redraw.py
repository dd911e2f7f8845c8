"""Emptying a layout to draw it again (the Now box's buttons and list, the reminders)."""

from __future__ import annotations


def clear(layout) -> None:
    while layout.count():
        item = layout.takeAt(0)
        widget = item.widget()
        if widget is not None:
            widget.setParent(None)
            widget.deleteLater()
        elif item.layout() is not None:
            clear(item.layout())
