"""The card's options menu (opacity, text size, folds, frame, ghost mode, hotkeys) and its
key map.

Interface: ``CardMenu(parent)`` is a QMenu whose actions emit the menu's signals and
whose ``render(opacity, frameless)`` checks the current choices.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QAction, QActionGroup
from PySide6.QtWidgets import QMenu

from companion.core.cue import state as cue_state

SHORTCUTS = (
    "1-9: switch round · \u2190/\u2192 or Space: step · G: glance · Esc: leave glance"
    " · Ctrl+Enter: start/end · +/-: text size · [ ]: opacity"
    " · Y: stories, next question type · U: story told"
)


class CardMenu(QMenu):
    opacity_chosen = Signal(int)
    font_step = Signal(int)
    collapse_all = Signal(bool)
    frame_toggled = Signal(bool)  # True: with a window frame
    hotkeys = Signal()
    preflight = Signal()  # the checks before a round
    ghost = Signal()  # ghost mode on (clicks pass through; the hotkey ends it)

    def __init__(self, parent=None):
        super().__init__(parent)
        opacity = self.addMenu("Opacity")
        self.opacity_group = QActionGroup(self)
        for pct in range(100, cue_state.OPACITY_MIN - 1, -10):
            action = QAction(f"{pct}%", self, checkable=True)
            action.setData(pct)
            action.triggered.connect(lambda _=False, p=pct: self.opacity_chosen.emit(p))
            self.opacity_group.addAction(action)
            opacity.addAction(action)
        self.addAction("Larger text  (+)", lambda: self.font_step.emit(1))
        self.addAction("Smaller text  (-)", lambda: self.font_step.emit(-1))
        self.addSeparator()
        self.addAction("Collapse all sections", lambda: self.collapse_all.emit(True))
        self.addAction("Expand all sections", lambda: self.collapse_all.emit(False))
        self.addSeparator()
        self.frame_action = QAction("Window frame", self, checkable=True)
        self.frame_action.toggled.connect(self.frame_toggled)
        self.addAction(self.frame_action)
        ghost = self.addAction("Ghost mode: clicks pass through", self.ghost.emit)
        ghost.setToolTip("The card lets clicks through to the window beneath; its hotkey ends it")
        self.addAction("Global hotkeys\u2026", self.hotkeys.emit)
        self.addAction("Pre&flight\u2026", self.preflight.emit)
        self.addSeparator()
        help_action = self.addAction("Shortcuts: " + SHORTCUTS.split(" · ")[0] + " \u2026")
        help_action.setToolTip(SHORTCUTS)
        help_action.setEnabled(False)
        self.setToolTipsVisible(True)

    def render(self, opacity: int, frameless: bool) -> None:
        for action in self.opacity_group.actions():
            action.setChecked(action.data() == round(opacity, -1))
        if self.frame_action.isChecked() == frameless:
            self.frame_action.blockSignals(True)
            self.frame_action.setChecked(not frameless)
            self.frame_action.blockSignals(False)


def card_key(key: int, modifiers) -> tuple[str, int] | None:
    """What a key pressed on the card does, as (action, value); None: not the card's."""
    mods = modifiers & ~Qt.KeyboardModifier.KeypadModifier
    ctrl = bool(mods & Qt.KeyboardModifier.ControlModifier)
    if ctrl and key in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
        return "press", 0
    if ctrl:
        return None
    if mods == Qt.KeyboardModifier.NoModifier and Qt.Key.Key_1 <= key <= Qt.Key.Key_9:
        return "round", key - Qt.Key.Key_0
    table = {
        Qt.Key.Key_Right: ("step", 1),
        Qt.Key.Key_Space: ("step", 1),
        Qt.Key.Key_Left: ("step", -1),
        Qt.Key.Key_G: ("glance", 0),
        Qt.Key.Key_Escape: ("leave-glance", 0),
        Qt.Key.Key_Plus: ("font", 1),
        Qt.Key.Key_Equal: ("font", 1),
        Qt.Key.Key_Minus: ("font", -1),
        Qt.Key.Key_BracketLeft: ("opacity", -10),
        Qt.Key.Key_BracketRight: ("opacity", 10),
        Qt.Key.Key_U: ("story-told", 0),  # the Stories fold (ui/cue/stories.py)
        Qt.Key.Key_Y: ("stories", 0),
    }
    return table.get(Qt.Key(key))
