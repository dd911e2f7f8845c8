"""The portable hotkeys: the same key combinations, seen inside the app only (while one
of its windows has the focus), through an event filter on the application. What every
desktop has; used where no global backend works (no X11 grab, no portal, a refusal)."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt, Signal
from PySide6.QtGui import QGuiApplication, QKeySequence

from companion.core import hotkeys as hk

_TO_QT_MOD = {"ctrl": "Ctrl", "alt": "Alt", "shift": "Shift", "super": "Meta"}
_TO_QT_KEY = {"PageUp": "PgUp", "PageDown": "PgDown", "BracketLeft": "[", "BracketRight": "]"}
_IGNORED = Qt.KeyboardModifier.KeypadModifier | Qt.KeyboardModifier.GroupSwitchModifier


def key_of(combo: hk.Combo) -> int:
    """The combination as Qt's int of a QKeyCombination (modifiers | key)."""
    mods = [_TO_QT_MOD[m] for m in hk.MODIFIERS if m in combo.modifiers]
    text = "+".join([*mods, _TO_QT_KEY.get(combo.key, combo.key)])
    sequence = QKeySequence.fromString(text, QKeySequence.SequenceFormat.PortableText)
    return sequence[0].toCombined()


class InAppHotkeys(QObject):
    activated = Signal(str)
    name = "keys inside the app"

    def __init__(self, parent=None, app: QGuiApplication | None = None):
        super().__init__(parent)
        self._app = app or QGuiApplication.instance()
        if self._app is None:
            raise RuntimeError("no application to watch the keys of")
        self._keys: dict[int, str] = {}
        self._app.installEventFilter(self)

    def bind(self, combos: dict[str, hk.Combo]) -> list[str]:
        """Watch for ``combos``; nothing can refuse a key inside the app."""
        self._keys = {key_of(combo): action for action, combo in combos.items()}
        return []

    def eventFilter(self, watched, event) -> bool:  # noqa: N802 (Qt API)
        # the window gets a key event first, then the widget with the focus (and its
        # parents): taken at the first, it is one press, and no widget types it
        if event.type() != QEvent.Type.KeyPress or event.isAutoRepeat() or not self._keys:
            return False
        pressed = event.keyCombination()
        mods = pressed.keyboardModifiers() & ~_IGNORED
        action = self._keys.get(int(mods.value) | int(pressed.key().value))
        if action is None:
            return False
        self.activated.emit(action)
        return True

    def release(self) -> None:
        self._keys = {}
        self._app.removeEventFilter(self)
