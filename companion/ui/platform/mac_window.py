"""The card over a full-screen call on macOS: a floating window (Qt's on-top flag gives
NSFloatingWindowLevel) still stays in its own Space and vanishes when the call goes full
screen, unless its NSWindow's collection behaviour has FullScreenAuxiliary (and
CanJoinAllSpaces, so it follows the user to that Space). Qt has no flag for it: set
through the Objective-C runtime on the window of the card's NSView (``winId()``)."""

from __future__ import annotations

import ctypes
import ctypes.util
import sys

CAN_JOIN_ALL_SPACES = 1 << 0  # NSWindowCollectionBehaviorCanJoinAllSpaces
MOVE_TO_ACTIVE_SPACE = 1 << 1  # excludes CanJoinAllSpaces: cleared
FULL_SCREEN_AUXILIARY = 1 << 8  # NSWindowCollectionBehaviorFullScreenAuxiliary


class ObjC:
    """The three messages this needs, through ``objc_msgSend`` cast to each signature
    (arm64 requires the exact prototype)."""

    def __init__(self, lib):
        self._lib = lib
        send = ctypes.cast(lib.objc_msgSend, ctypes.c_void_p).value
        ptr, ulong = ctypes.c_void_p, ctypes.c_ulong
        self._ptr = ctypes.CFUNCTYPE(ptr, ptr, ptr)(send)
        self._ulong = ctypes.CFUNCTYPE(ulong, ptr, ptr)(send)
        self._set_ulong = ctypes.CFUNCTYPE(None, ptr, ptr, ulong)(send)

    def _sel(self, name: str) -> int:
        return self._lib.sel_registerName(name.encode())

    def send_ptr(self, receiver: int, selector: str) -> int | None:
        return self._ptr(receiver, self._sel(selector))

    def send_ulong(self, receiver: int, selector: str) -> int:
        return self._ulong(receiver, self._sel(selector))

    def send_set_ulong(self, receiver: int, selector: str, value: int) -> None:
        self._set_ulong(receiver, self._sel(selector), value)


def load_objc() -> ObjC:
    if sys.platform != "darwin":
        raise OSError("the Objective-C runtime is macOS's here")
    lib = ctypes.CDLL(ctypes.util.find_library("objc") or "libobjc.dylib")
    lib.sel_registerName.restype = ctypes.c_void_p
    lib.sel_registerName.argtypes = [ctypes.c_char_p]
    return ObjC(lib)


def join_full_screen_spaces(view: int, objc=None) -> bool:
    """Let the window of the NSView ``view`` show over full-screen apps, on every Space;
    False when the view has no window yet (call again once it is shown)."""
    objc = objc if objc is not None else load_objc()
    window = objc.send_ptr(view, "window")
    if not window:
        return False
    behaviour = objc.send_ulong(window, "collectionBehavior")
    wanted = (behaviour & ~MOVE_TO_ACTIVE_SPACE) | CAN_JOIN_ALL_SPACES | FULL_SCREEN_AUXILIARY
    if wanted != behaviour:
        objc.send_set_ulong(window, "setCollectionBehavior:", wanted)
    return True
