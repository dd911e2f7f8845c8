"""libxcb through ctypes (no extra package): the library, and an X connection of the
app's own beside Qt's (independent of how Qt talks to the server), with its screen's
root window and a socket a QSocketNotifier can watch. The X key grab
(hotkeys/x11.py) and the card's stay-on-top request (cue/on_top.py) each open one.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import struct
from collections.abc import Iterator

CLIENT_MESSAGE = 33
PROPERTY_NOTIFY = 28
EVENT_MASK_PROPERTY_CHANGE = 1 << 22
EVENT_MASK_SUBSTRUCTURE_NOTIFY = 1 << 19
EVENT_MASK_SUBSTRUCTURE_REDIRECT = 1 << 20
_CW_EVENT_MASK = 1 << 11
_ANY_PROPERTY_TYPE = 0


class Cookie(ctypes.Structure):
    _fields_ = [("sequence", ctypes.c_uint)]


class ScreenIterator(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("rem", ctypes.c_int), ("index", ctypes.c_int)]


class GenericError(ctypes.Structure):
    _fields_ = [("response_type", ctypes.c_uint8), ("error_code", ctypes.c_uint8)]


class XcbError(RuntimeError):
    pass


def _declare(lib, name: str, restype, *argtypes) -> None:
    function = getattr(lib, name)
    function.restype = restype
    function.argtypes = list(argtypes)


def load():
    """(libxcb, libc), their functions' types declared."""
    name = ctypes.util.find_library("xcb") or "libxcb.so.1"
    try:
        xcb = ctypes.CDLL(name)
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
    except OSError as exc:
        raise XcbError(f"cannot load libxcb: {exc}") from None
    void_p, u8, u16, u32 = ctypes.c_void_p, ctypes.c_uint8, ctypes.c_uint16, ctypes.c_uint32
    _declare(xcb, "xcb_connect", void_p, ctypes.c_char_p, ctypes.POINTER(ctypes.c_int))
    for fn in ("xcb_connection_has_error", "xcb_get_file_descriptor", "xcb_flush"):
        _declare(xcb, fn, ctypes.c_int, void_p)
    _declare(xcb, "xcb_disconnect", None, void_p)
    _declare(xcb, "xcb_get_setup", void_p, void_p)
    _declare(xcb, "xcb_setup_roots_iterator", ScreenIterator, void_p)
    _declare(xcb, "xcb_screen_next", None, ctypes.POINTER(ScreenIterator))
    _declare(xcb, "xcb_get_keyboard_mapping", Cookie, void_p, u8, u8)
    _declare(xcb, "xcb_get_keyboard_mapping_reply", void_p, void_p, Cookie, void_p)
    _declare(xcb, "xcb_grab_key_checked", Cookie, void_p, u8, u32, u16, u8, u8, u8)
    _declare(xcb, "xcb_ungrab_key_checked", Cookie, void_p, u8, u32, u16)
    _declare(xcb, "xcb_request_check", ctypes.POINTER(GenericError), void_p, Cookie)
    _declare(xcb, "xcb_poll_for_event", void_p, void_p)
    _declare(xcb, "xcb_intern_atom", Cookie, void_p, u8, u16, ctypes.c_char_p)
    _declare(xcb, "xcb_intern_atom_reply", void_p, void_p, Cookie, void_p)
    _declare(xcb, "xcb_get_property", Cookie, void_p, u8, u32, u32, u32, u32, u32)
    _declare(xcb, "xcb_get_property_reply", void_p, void_p, Cookie, void_p)
    _declare(xcb, "xcb_change_window_attributes", Cookie, void_p, u32, u32, void_p)
    _declare(xcb, "xcb_send_event", Cookie, void_p, u8, u32, u32, ctypes.c_char_p)
    _declare(libc, "free", None, void_p)
    return xcb, libc


class Connection:
    """One X connection: its root window, atoms by name, a window's 32-bit property,
    a client message to the root window, the events queued for it."""

    def __init__(self, display: str | None = None):
        display = display if display is not None else os.environ.get("DISPLAY", "")
        if not display:
            raise XcbError("no X display (DISPLAY is not set)")
        self.xcb, self.libc = load()
        screen = ctypes.c_int(0)
        self.conn = self.xcb.xcb_connect(display.encode(), ctypes.byref(screen))
        if not self.conn or self.xcb.xcb_connection_has_error(self.conn):
            conn, self.conn = self.conn, None
            if conn:
                self.xcb.xcb_disconnect(conn)
            raise XcbError(f"cannot open the X display {display}")
        self.setup = self.xcb.xcb_get_setup(self.conn)
        iterator = self.xcb.xcb_setup_roots_iterator(self.setup)
        for _ in range(screen.value):
            self.xcb.xcb_screen_next(ctypes.byref(iterator))
        self.root = ctypes.c_uint32.from_address(iterator.data).value  # xcb_screen_t.root
        self._atoms: dict[str, int] = {}

    @property
    def fd(self) -> int:
        return self.xcb.xcb_get_file_descriptor(self.conn)

    @property
    def broken(self) -> bool:
        return self.conn is None or bool(self.xcb.xcb_connection_has_error(self.conn))

    def flush(self) -> None:
        if self.conn is not None:
            self.xcb.xcb_flush(self.conn)

    def atom(self, name: str) -> int:
        if name not in self._atoms:
            raw = name.encode()
            cookie = self.xcb.xcb_intern_atom(self.conn, 0, len(raw), raw)
            reply = self.xcb.xcb_intern_atom_reply(self.conn, cookie, None)
            if not reply:
                raise XcbError(f"the X server did not intern {name}")
            try:
                self._atoms[name] = ctypes.c_uint32.from_address(reply + 8).value
            finally:
                self.libc.free(reply)
        return self._atoms[name]

    def values(self, window: int, name: str, length: int = 64) -> list[int] | None:
        """The 32-bit values of ``window``'s property ``name``; None if it has none (or
        the window is gone)."""
        cookie = self.xcb.xcb_get_property(
            self.conn, 0, window, self.atom(name), _ANY_PROPERTY_TYPE, 0, length
        )
        reply = self.xcb.xcb_get_property_reply(self.conn, cookie, None)
        if not reply:
            return None
        try:
            # xcb_get_property_reply_t: format at byte 1, value_len at 16, the value at 32
            if ctypes.c_uint8.from_address(reply + 1).value != 32:
                return None
            count = ctypes.c_uint32.from_address(reply + 16).value
            return list((ctypes.c_uint32 * count).from_address(reply + 32))
        finally:
            self.libc.free(reply)

    def watch_properties(self, window: int) -> None:
        """PropertyNotify events for ``window``, to this connection (each client has its
        own event mask on a window: Qt's is untouched)."""
        mask = ctypes.c_uint32(EVENT_MASK_PROPERTY_CHANGE)
        self.xcb.xcb_change_window_attributes(self.conn, window, _CW_EVENT_MASK, ctypes.byref(mask))

    def ask_root(self, window: int, message: str, data: list[int]) -> None:
        """A client message about ``window`` to the root window, where the window manager
        listens (EWMH: SubstructureNotify and SubstructureRedirect)."""
        # xcb_client_message_event_t: type, format 32, sequence, window, message type, data
        words = [*data, 0, 0, 0, 0, 0][:5]
        event = struct.pack("=BBHII5I", CLIENT_MESSAGE, 32, 0, window, self.atom(message), *words)
        mask = EVENT_MASK_SUBSTRUCTURE_NOTIFY | EVENT_MASK_SUBSTRUCTURE_REDIRECT
        self.xcb.xcb_send_event(self.conn, 0, self.root, mask, event)

    def events(self) -> Iterator[int]:
        """The address of each event queued, freed once the next is asked for."""
        while self.conn is not None:
            event = self.xcb.xcb_poll_for_event(self.conn)
            if not event:
                return
            try:
                yield event
            finally:
                self.libc.free(event)

    @staticmethod
    def property_notify(event: int) -> tuple[int, int] | None:
        """(window, atom) of a PropertyNotify event, None for another event."""
        if ctypes.c_uint8.from_address(event).value & 0x7F != PROPERTY_NOTIFY:
            return None
        # xcb_property_notify_event_t: the window at byte 4, the atom at 8
        window = ctypes.c_uint32.from_address(event + 4).value
        return window, ctypes.c_uint32.from_address(event + 8).value

    def close(self) -> None:
        if self.conn is not None:
            self.xcb.xcb_disconnect(self.conn)
            self.conn = None
