"""Global hotkeys on Windows: ``RegisterHotKey`` on the GUI thread (no hook, no
permission), and a native event filter that reads the ``WM_HOTKEY`` messages Qt's event
dispatcher passes it. ``user32`` is the library object (``ctypes.WinDLL("user32")`` by
default), so the logic runs against a stand-in anywhere."""

from __future__ import annotations

import ctypes
import sys

from PySide6.QtCore import QAbstractNativeEventFilter, QCoreApplication, QObject, Signal

from companion.core.hotkeys import TAKEN, Combo
from companion.core.platform.keycodes import windows_hotkey

WM_HOTKEY = 0x0312
NATIVE_MSG = b"windows_generic_MSG"


class MSG(ctypes.Structure):
    """winuser.h MSG (ctypes.wintypes is Windows-only before 3.12)."""

    _fields_ = [
        ("hwnd", ctypes.c_void_p),
        ("message", ctypes.c_uint),
        ("wParam", ctypes.c_size_t),
        ("lParam", ctypes.c_ssize_t),
        ("time", ctypes.c_uint32),
        ("pt_x", ctypes.c_long),
        ("pt_y", ctypes.c_long),
    ]


def load_user32():
    if sys.platform != "win32":
        raise OSError("RegisterHotKey is Windows's")
    user32 = ctypes.WinDLL("user32", use_last_error=True)
    user32.RegisterHotKey.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_uint, ctypes.c_uint]
    user32.UnregisterHotKey.argtypes = [ctypes.c_void_p, ctypes.c_int]
    return user32


class _Filter(QAbstractNativeEventFilter):
    def __init__(self, on_hotkey):
        super().__init__()
        self._on_hotkey = on_hotkey

    def nativeEventFilter(self, event_type, message):  # noqa: N802 (Qt API)
        if bytes(event_type) == NATIVE_MSG and message:
            msg = MSG.from_address(int(message))
            if msg.message == WM_HOTKEY and self._on_hotkey(int(msg.wParam)):
                return True, 0
        return False, 0


class WindowsHotkeys(QObject):
    activated = Signal(str)
    name = "Windows hotkeys (RegisterHotKey)"

    def __init__(self, parent=None, user32=None):
        super().__init__(parent)
        self._user32 = user32 if user32 is not None else load_user32()
        self._actions: dict[int, str] = {}  # hotkey id -> action
        self._filter = _Filter(self._fire)
        QCoreApplication.instance().installNativeEventFilter(self._filter)

    def bind(self, combos: dict[str, Combo]) -> list[str]:
        """Register ``combos``; one line per combination Windows refused (another program
        registered it first) or has no key for."""
        self._unregister()
        problems = []
        for number, (action, combo) in enumerate(combos.items(), start=1):
            codes = windows_hotkey(combo)
            if codes is None:
                problems.append(f"{combo} ({action}): Windows has no such key")
            elif self._user32.RegisterHotKey(None, number, *codes):
                self._actions[number] = action
            else:
                problems.append(f"{combo} ({action}){TAKEN}")
        return problems

    def _fire(self, number: int) -> bool:
        action = self._actions.get(number)
        if action is None:
            return False  # another part of the process registered it
        self.activated.emit(action)
        return True

    def _unregister(self) -> None:
        for number in self._actions:
            self._user32.UnregisterHotKey(None, number)
        self._actions = {}

    def release(self) -> None:
        self._unregister()
        app = QCoreApplication.instance()
        if app is not None:
            app.removeNativeEventFilter(self._filter)
