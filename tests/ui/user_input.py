"""Typing as a user does, for the GUI tests: the window shown and active, the field
focused, its text selected, the keys sent to the field itself, then Enter, Tab or none."""

from __future__ import annotations

from PySide6.QtCore import Qt


def type_into(
    qtbot,
    field,
    text: str,
    key=Qt.Key.Key_Return,
    modifier=Qt.KeyboardModifier.NoModifier,
) -> None:
    window = field.window()
    window.show()
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    field.setFocus()
    qtbot.waitUntil(field.hasFocus)
    field.selectAll()
    qtbot.keyClicks(field, text)
    if key is not None:
        qtbot.keyClick(field, key, modifier)
