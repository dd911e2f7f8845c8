"""A page's toolbar action, shared by the one-pager and the story bank."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QWidget


def page_action(page: QWidget, text: str, slot, shortcut=None, tip: str = "") -> QAction:
    """An action added to ``page``; with a shortcut, one that works only while the page has
    focus, its key said in the tooltip."""
    action = QAction(text, page)
    if shortcut is not None:
        action.setShortcut(QKeySequence(shortcut))
        action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        keys = QKeySequence(shortcut).toString(QKeySequence.SequenceFormat.NativeText)
        tip = f"{tip} ({keys})"
    action.setToolTip(tip.strip())
    action.triggered.connect(slot)
    page.addAction(action)
    return action
