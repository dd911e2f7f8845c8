"""The card stays on top under X11 after a quick hide and show.

Qt asks for on-top (WindowStaysOnTopHint) by writing _NET_WM_STATE_ABOVE on the window
just before it maps it, as EWMH has a client do for a withdrawn window. The window
manager deletes that property when it handles a withdrawal. When the card is hidden and
shown again before the manager has handled the hide (a busy GNOME shell, the show-card
hotkey pressed twice), its deletion lands after Qt's write: the card is managed again,
but not above (mutter and openbox alike). Shown and hidden before the manager has
handled the map, the same: the manager maps it, withdraws it on the hide and takes the
still mapped window on again, without the state; the next show maps nothing.

So once after each show, and each time the manager takes the shown card on (it sets
WM_STATE to Normal), the card asks again the way a managed window asks: a _NET_WM_STATE
client message (add ABOVE and STAYS_ON_TOP) to the root window. For a window already
above it changes nothing, and it never activates the card nor gives it the focus. The
property cannot tell whether the manager holds the state (Qt writes it too), so the card
asks without reading it, a few times per show at most.

Under Qt's xcb platform only (Wayland has no such request), and not while ghost mode
bypasses the window manager nor with the portable services (``COMPANION_PORTABLE=1``:
Qt's WindowStaysOnTopHint alone, what every desktop honours). Its own X connection
(companion/ui/x11/xcb.py), whose PropertyNotify events a QSocketNotifier reads. On macOS
the card also joins full-screen Spaces (companion/ui/platform/mac_window.py).
"""

from __future__ import annotations

import logging

from PySide6.QtCore import QEvent, QObject, QSocketNotifier, Qt, QTimer
from PySide6.QtGui import QGuiApplication

from companion.core.platform import portable_forced
from companion.ui.platform.mac_window import join_full_screen_spaces
from companion.ui.weak_calls import WeakAttribute
from companion.ui.x11.xcb import Connection, XcbError

log = logging.getLogger(__name__)

NORMAL_STATE = 1  # ICCCM WM_STATE: the window manager manages the window, shown
NET_WM_STATE_ADD = 1
SOURCE_APPLICATION = 1  # EWMH source indication
MAX_ASKS = 4  # per show: a manager that keeps rewriting WM_STATE gets no flood


class KeepAbove(QObject):
    """Asks the X window manager again for the card's on-top state (see the module)."""

    card = WeakAttribute()

    def __init__(self, card):
        super().__init__(card)
        self.card = card
        self.asks = 0  # since the last show
        self._x: Connection | None = None
        self._notifier: QSocketNotifier | None = None
        self._window = 0  # the X window watched (ghost mode's bypass makes a new one)
        platform = QGuiApplication.platformName()
        portable = portable_forced()  # Qt's own on-top flag, nothing more
        self._off = platform != "xcb" or portable
        self._cocoa = platform == "cocoa" and not portable
        card.installEventFilter(self)

    def eventFilter(self, watched, event) -> bool:  # noqa: N802 (Qt API)
        if event.type() == QEvent.Type.Show and not self._off:
            self.asks = 0
            # the Show event comes before Qt maps the window: ask after it did
            QTimer.singleShot(0, self, self._shown)
        elif event.type() == QEvent.Type.Show and self._cocoa:
            QTimer.singleShot(0, self, self._join_full_screen_spaces)
        return False

    def _join_full_screen_spaces(self) -> None:
        """macOS: over a full-screen call too (see companion/ui/platform/mac_window.py)."""
        card = self.card
        if card is None or not card.isVisible():
            return
        try:
            join_full_screen_spaces(int(card.winId()))
        except OSError as exc:
            log.warning("the card cannot show over full-screen apps: %s", exc)
            self._cocoa = False

    def _open(self) -> bool:
        if self._x is None and not self._off:
            try:
                self._x = Connection()
            except XcbError as exc:
                log.warning("the card cannot ask to stay on top again: %s", exc)
                self._off = True
                return False
            self._notifier = QSocketNotifier(self._x.fd, QSocketNotifier.Type.Read, self)
            self._notifier.activated.connect(self._drain)
            self.destroyed.connect(self._x.close)
        return self._x is not None and not self._x.broken

    def _shown(self) -> None:
        card = self.card
        if card is None or not card.isVisible() or not self._open():
            return
        window = int(card.winId())
        if window != self._window:
            self._window = window
            self._x.watch_properties(window)
        self._ask()
        self._drain()

    def _wanted(self) -> bool:
        card = self.card
        if card is None or not card.isVisible() or self.asks >= MAX_ASKS:
            return False
        flags = card.windowFlags()
        on_top = bool(flags & Qt.WindowType.WindowStaysOnTopHint)
        return on_top and not flags & Qt.WindowType.X11BypassWindowManagerHint

    def _ask(self) -> None:
        """Ask for ABOVE if the manager manages the shown card (before that, the
        property Qt wrote before the map is what it reads)."""
        if not self._wanted() or int(self.card.winId()) != self._window:
            return
        state = self._x.values(self._window, "WM_STATE", 1)
        if not state or state[0] != NORMAL_STATE:
            return
        self.asks += 1
        above, on_top = (
            self._x.atom("_NET_WM_STATE_ABOVE"),
            self._x.atom("_NET_WM_STATE_STAYS_ON_TOP"),
        )
        self._x.ask_root(
            self._window, "_NET_WM_STATE", [NET_WM_STATE_ADD, above, on_top, SOURCE_APPLICATION]
        )
        self._x.flush()

    def _drain(self, *_args) -> None:
        # a reply waited for in _ask may have read events off the socket, which the
        # notifier then never reports: poll again until no WM_STATE change is queued
        if self._x.broken:
            if self._notifier is not None:
                self._notifier.setEnabled(False)
            return
        wm_state = self._x.atom("WM_STATE")
        while True:
            changed = False
            for event in self._x.events():
                changed = changed or self._x.property_notify(event) == (self._window, wm_state)
            if not changed:
                break
            self._ask()
