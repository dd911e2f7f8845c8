"""Global hotkeys on X11: a passive key grab on the root window, through libxcb by ctypes.

The grabber has its own X connection (companion/ui/x11/xcb.py: no new dependency,
independent of how Qt talks to the server) whose socket a QSocketNotifier watches. Each combination is grabbed four
times, with and without NumLock (Mod2) and CapsLock (Lock), so the keys work whatever
those locks are. A grab another client holds fails with BadAccess: that combination is
reported as a conflict, by name, and the others still work. Grabs end with
:meth:`X11Hotkeys.release` (on quit) and, at the latest, with the connection.
"""

from __future__ import annotations

import ctypes
import logging

from PySide6.QtCore import QObject, QSocketNotifier, Signal

from companion.core.hotkeys import TAKEN, Combo
from companion.ui.x11.xcb import Connection, XcbError

log = logging.getLogger(__name__)

SHIFT, LOCK, CONTROL, MOD1, MOD2, MOD4 = 1, 2, 4, 8, 16, 64
_MOD_MASKS = {"shift": SHIFT, "ctrl": CONTROL, "alt": MOD1, "super": MOD4}
_RELEVANT = SHIFT | CONTROL | MOD1 | MOD4
LOCK_VARIANTS = (0, LOCK, MOD2, LOCK | MOD2)  # NumLock is Mod2 on every common keymap
KEY_PRESS = 2
MAPPING_NOTIFY = 34  # the keyboard layout changed: keycodes must be looked up again
MAPPING_POINTER = 2
BAD_ACCESS = 10
GRAB_MODE_ASYNC = 1


class _KeyEvent(ctypes.Structure):
    _fields_ = [
        ("response_type", ctypes.c_uint8),
        ("detail", ctypes.c_uint8),
        ("sequence", ctypes.c_uint16),
        ("time", ctypes.c_uint32),
        ("root", ctypes.c_uint32),
        ("event", ctypes.c_uint32),
        ("child", ctypes.c_uint32),
        ("root_x", ctypes.c_int16),
        ("root_y", ctypes.c_int16),
        ("event_x", ctypes.c_int16),
        ("event_y", ctypes.c_int16),
        ("state", ctypes.c_uint16),
    ]


class XcbGrabber:
    """The Qt-free part: one X connection, keycode lookup, grab/ungrab, event polling."""

    def __init__(self, display: str | None = None):
        self._x = Connection(display)
        self._xcb, self._libc, self._conn = self._x.xcb, self._x.libc, self._x.conn
        self.root = self._x.root
        setup = self._x.setup
        # xcb_setup_t: min_keycode and max_keycode at bytes 34 and 35
        self._min_keycode = ctypes.c_uint8.from_address(setup + 34).value
        self._max_keycode = ctypes.c_uint8.from_address(setup + 35).value
        self._keymap: dict[int, int] | None = None
        self.grabbed: dict[tuple[int, int], str] = {}  # (keycode, modifiers) -> action
        self.mapping_changed = False

    @property
    def fd(self) -> int:
        return self._x.fd

    def _load_keymap(self) -> dict[int, int]:
        first = self._min_keycode
        count = self._max_keycode - first + 1
        cookie = self._xcb.xcb_get_keyboard_mapping(self._conn, first, count)
        reply = self._xcb.xcb_get_keyboard_mapping_reply(self._conn, cookie, None)
        if not reply:
            raise XcbError("the X server did not send its keyboard mapping")
        try:
            per_code = ctypes.c_uint8.from_address(reply + 1).value
            syms = (ctypes.c_uint32 * (count * per_code)).from_address(reply + 32)
            keymap: dict[int, int] = {}
            for index in range(count):
                for column in range(min(per_code, 2)):  # plain and shifted
                    keymap.setdefault(syms[index * per_code + column], first + index)
        finally:
            self._libc.free(reply)
        return keymap

    def keycode(self, keysym: int) -> int | None:
        if self._keymap is None:
            self._keymap = self._load_keymap()
        return self._keymap.get(keysym)

    def key_for(self, combo: Combo) -> tuple[int, int] | None:
        """(keycode, modifier mask) of ``combo`` in the current layout, None if it has no key."""
        code = self.keycode(combo.keysym)
        if code is None:
            return None
        return code, combo.mask(_MOD_MASKS)

    def grab(self, action: str, combo: Combo) -> str | None:
        """Grab ``combo`` for ``action``; None, or a one-line reason it failed. Grabbing a
        key this connection already holds takes it over at once (no gap)."""
        key = self.key_for(combo)
        if key is None:
            return f"{combo} ({action}): the keyboard layout has no {combo.key} key"
        code, mods = key
        done: list[int] = []
        for extra in LOCK_VARIANTS:
            cookie = self._xcb.xcb_grab_key_checked(
                self._conn, 0, self.root, mods | extra, code, GRAB_MODE_ASYNC, GRAB_MODE_ASYNC
            )
            error = self._xcb.xcb_request_check(self._conn, cookie)
            if error:
                error_code = error.contents.error_code
                self._libc.free(error)
                for m in done:
                    self._ungrab(code, m)
                if error_code == BAD_ACCESS:
                    return f"{combo} ({action}){TAKEN}"
                return f"{combo} ({action}): the X server refused the grab (error {error_code})"
            done.append(mods | extra)
        self.grabbed[(code, mods)] = action
        return None

    def _ungrab(self, code: int, mods: int) -> None:
        cookie = self._xcb.xcb_ungrab_key_checked(self._conn, code, self.root, mods)
        error = self._xcb.xcb_request_check(self._conn, cookie)
        if error:
            self._libc.free(error)

    def release(self, key: tuple[int, int]) -> None:
        code, mods = key
        for extra in LOCK_VARIANTS:
            self._ungrab(code, mods | extra)
        self.grabbed.pop(key, None)

    def regrab(self, combos: dict[str, Combo]) -> list[str]:
        """Hold exactly ``combos`` (a rebind, or the same ones after a keymap change): grab
        anew only what is not held already, then let go of what is no longer wanted. The
        rest keep their grabs throughout: under XWayland every key an XTEST client presses
        comes with two mapping changes, and letting go of every grab to take it again lost
        a key pressed in between. One line per combination that could not be grabbed."""
        problems: list[str] = []
        kept: set[tuple[int, int]] = set()
        for action, combo in combos.items():
            key = self.key_for(combo)
            if key is not None and self.grabbed.get(key) == action:
                kept.add(key)
                continue
            problem = self.grab(action, combo)
            if problem:
                problems.append(problem)
            else:
                kept.add(key)
        for key in [k for k in self.grabbed if k not in kept]:
            self.release(key)
        self._xcb.xcb_flush(self._conn)
        return problems

    def ungrab_all(self) -> None:
        if self._conn is None:
            return
        for key in list(self.grabbed):
            self.release(key)
        self._xcb.xcb_flush(self._conn)

    def poll(self) -> list[str]:
        """The actions whose keys were pressed since the last poll."""
        actions: list[str] = []
        if self._conn is None:
            return actions
        while True:
            event = self._xcb.xcb_poll_for_event(self._conn)
            if not event:
                break
            try:
                key = _KeyEvent.from_address(event)
                if key.response_type & 0x7F == MAPPING_NOTIFY:
                    # xcb_mapping_notify_event_t.request, byte 4: a pointer change moves no key
                    if ctypes.c_uint8.from_address(event + 4).value != MAPPING_POINTER:
                        self.mapping_changed = True
                        self._keymap = None
                elif key.response_type & 0x7F == KEY_PRESS:
                    action = self.grabbed.get((key.detail, key.state & _RELEVANT))
                    if action is not None:
                        actions.append(action)
            finally:
                self._libc.free(event)
        return actions

    @property
    def broken(self) -> bool:
        return self._x.broken

    def close(self) -> None:
        if self._conn is not None:
            self.ungrab_all()
            self._x.close()
            self._conn = None


class X11Hotkeys(QObject):
    """Qt side: bind combinations, emit ``activated(action)`` as keys are pressed."""

    activated = Signal(str)
    #: problems found after bind() returned (a regrab after a keyboard layout change)
    problems_found = Signal(list)
    name = "X11 key grab"

    def __init__(self, parent=None, display: str | None = None):
        super().__init__(parent)
        self._grabber = XcbGrabber(display)
        self._combos: dict[str, Combo] = {}
        self._notifier = QSocketNotifier(self._grabber.fd, QSocketNotifier.Type.Read, self)
        self._notifier.activated.connect(self._drain)

    def bind(self, combos: dict[str, Combo]) -> list[str]:
        """Replace the grabs; returns one line per combination that could not be grabbed."""
        self._combos = dict(combos)
        problems = self._grabber.regrab(self._combos)
        self._drain()
        return problems

    def _drain(self, *_args) -> None:
        # the replies waited for in regrab may have read events off the socket,
        # which the notifier then never reports: poll again until none is queued
        while True:
            for action in self._grabber.poll():
                self.activated.emit(action)
            if not self._grabber.mapping_changed:
                break
            self._grabber.mapping_changed = False
            problems = self._grabber.regrab(self._combos)  # poll() forgot the keymap
            if problems:
                self.problems_found.emit(problems)
        if self._grabber.broken:
            self._notifier.setEnabled(False)

    def release(self) -> None:
        self._notifier.setEnabled(False)
        self._grabber.close()
