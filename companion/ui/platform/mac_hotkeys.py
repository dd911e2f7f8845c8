"""Global hotkeys on macOS: Carbon's ``RegisterEventHotKey`` (no Accessibility
permission, unlike an event tap; still the API macOS offers for this), with a handler on
the application's event target for ``kEventHotKeyPressed``, which Cocoa's run loop (Qt's)
dispatches on the main thread. ``carbon`` is the library object (the Carbon framework by
default), so the logic runs against a stand-in anywhere."""

from __future__ import annotations

import ctypes
import sys

from PySide6.QtCore import QObject, Signal

from companion.core.hotkeys import TAKEN, Combo
from companion.core.platform.keycodes import mac_hotkey

CARBON = "/System/Library/Frameworks/Carbon.framework/Carbon"
NO_ERR = 0
EVENT_NOT_HANDLED = -9874  # eventNotHandledErr: let other handlers see it
HOTKEY_EXISTS = -9878  # eventHotKeyExistsErr: another program registered it


def fourcc(text: str) -> int:
    return int.from_bytes(text.encode("ascii"), "big")


K_EVENT_CLASS_KEYBOARD = fourcc("keyb")
K_EVENT_HOTKEY_PRESSED = 5
K_EVENT_PARAM_DIRECT_OBJECT = fourcc("----")
TYPE_EVENT_HOTKEY_ID = fourcc("hkid")
SIGNATURE = fourcc("IvCo")  # ours, among the process's hotkeys


class EventTypeSpec(ctypes.Structure):
    _fields_ = [("eventClass", ctypes.c_uint32), ("eventKind", ctypes.c_uint32)]


class EventHotKeyID(ctypes.Structure):
    _fields_ = [("signature", ctypes.c_uint32), ("id", ctypes.c_uint32)]


# OSStatus (*EventHandlerProcPtr)(EventHandlerCallRef, EventRef, void *userData)
HANDLER = ctypes.CFUNCTYPE(ctypes.c_int32, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p)


def load_carbon():
    if sys.platform != "darwin":
        raise OSError("RegisterEventHotKey is macOS's")
    carbon = ctypes.CDLL(CARBON)
    ptr, u32, i32 = ctypes.c_void_p, ctypes.c_uint32, ctypes.c_int32
    carbon.GetApplicationEventTarget.restype = ptr
    carbon.InstallEventHandler.argtypes = [ptr, HANDLER, u32, ptr, ptr, ptr]
    carbon.InstallEventHandler.restype = i32
    carbon.RemoveEventHandler.argtypes = [ptr]
    carbon.RegisterEventHotKey.argtypes = [u32, u32, EventHotKeyID, ptr, u32, ptr]
    carbon.RegisterEventHotKey.restype = i32
    carbon.UnregisterEventHotKey.argtypes = [ptr]
    carbon.GetEventParameter.argtypes = [ptr, u32, u32, ptr, ctypes.c_size_t, ptr, ptr]
    carbon.GetEventParameter.restype = i32
    return carbon


class MacHotkeys(QObject):
    activated = Signal(str)
    name = "macOS hotkeys (RegisterEventHotKey)"

    def __init__(self, parent=None, carbon=None):
        super().__init__(parent)
        self._carbon = carbon if carbon is not None else load_carbon()
        self._target = self._carbon.GetApplicationEventTarget()
        self._refs: dict[int, tuple[ctypes.c_void_p, str]] = {}  # id -> (ref, action)
        self._handler = HANDLER(self._on_event)  # kept alive: Carbon holds only its address
        self._handler_ref = ctypes.c_void_p()
        spec = EventTypeSpec(K_EVENT_CLASS_KEYBOARD, K_EVENT_HOTKEY_PRESSED)
        status = self._carbon.InstallEventHandler(
            self._target, self._handler, 1, ctypes.byref(spec), None,
            ctypes.byref(self._handler_ref),
        )  # fmt: skip
        if status != NO_ERR:
            raise OSError(f"Carbon refused the hotkey handler (status {status})")

    def bind(self, combos: dict[str, Combo]) -> list[str]:
        """Register ``combos``; one line per combination macOS refused."""
        self._unregister()
        problems = []
        for number, (action, combo) in enumerate(combos.items(), start=1):
            codes = mac_hotkey(combo)
            if codes is None:
                problems.append(f"{combo} ({action}): macOS has no such key")
                continue
            mods, key = codes
            ref = ctypes.c_void_p()
            status = self._carbon.RegisterEventHotKey(
                key, mods, EventHotKeyID(SIGNATURE, number), self._target, 0, ctypes.byref(ref)
            )
            if status == NO_ERR:
                self._refs[number] = (ref, action)
            elif status == HOTKEY_EXISTS:
                problems.append(f"{combo} ({action}){TAKEN}")
            else:
                problems.append(f"{combo} ({action}): macOS refused it (status {status})")
        return problems

    def _on_event(self, _call, event, _data) -> int:
        hotkey = EventHotKeyID()
        status = self._carbon.GetEventParameter(
            event, K_EVENT_PARAM_DIRECT_OBJECT, TYPE_EVENT_HOTKEY_ID, None,
            ctypes.sizeof(hotkey), None, ctypes.byref(hotkey),
        )  # fmt: skip
        if status != NO_ERR or hotkey.signature != SIGNATURE or hotkey.id not in self._refs:
            return EVENT_NOT_HANDLED
        self.activated.emit(self._refs[hotkey.id][1])
        return NO_ERR

    def _unregister(self) -> None:
        for ref, _action in self._refs.values():
            self._carbon.UnregisterEventHotKey(ref)
        self._refs = {}

    def release(self) -> None:
        self._unregister()
        if self._handler_ref:
            self._carbon.RemoveEventHandler(self._handler_ref)
            self._handler_ref = ctypes.c_void_p()
