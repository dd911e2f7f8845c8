"""The hotkey service: picks the backend for the platform Qt runs on (the X11 key grab
under xcb, the desktop portal under Wayland), binds the keys in force from the
preferences, and emits ``activated(action)``. What an action does to the card is in
:func:`drive_card`, called from the application factory."""

from __future__ import annotations

import logging
import os
from collections.abc import Callable

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QGuiApplication

from companion.core import hotkeys as hk
from companion.core.platform import portable_forced
from companion.core.preflight import proofs
from companion.core.timeutil import local_now
from companion.ui.platform.inapp_hotkeys import InAppHotkeys
from companion.ui.platform.mac_hotkeys import MacHotkeys
from companion.ui.platform.windows_hotkeys import WindowsHotkeys

log = logging.getLogger(__name__)


def _x11_backend(parent):
    from companion.ui.hotkeys.x11 import X11Hotkeys  # seam: desktop adapters

    return X11Hotkeys(parent)


def _portal_backend(parent):
    from companion.ui.hotkeys.portal import PortalHotkeys  # seam: desktop adapters

    return PortalHotkeys(parent)


# the one factory of hotkey backends, by Qt platform: a backend's module (the X key
# grab's ctypes, the portal's QtDBus, user32, Carbon) loads only on the platform that
# uses it; "inapp" (keys seen inside the app only) is what every desktop falls back to
BACKENDS: dict[str, Callable] = {
    "xcb": _x11_backend,
    "wayland": _portal_backend,
    # these two load their library (user32, Carbon) when made, not when imported
    "windows": WindowsHotkeys,
    "cocoa": MacHotkeys,
    "inapp": InAppHotkeys,
}
#: COMPANION_HOTKEYS=portal, =x11 or =inapp picks a backend whatever the platform (KDE's
#: X11 session has the portal too; the portal tests run offscreen); the portable
#: services (COMPANION_PORTABLE=1) mean inapp
FORCED = {"portal": "wayland", "x11": "xcb", "inapp": "inapp"}
INSIDE = "the keys work inside the app, while one of its windows has the focus"


class HotkeyService(QObject):
    activated = Signal(str)
    #: the problems changed (conflicts, a missing portal...): read ``problems``
    status_changed = Signal()

    def __init__(self, prefs, parent=None, *, platform: str | None = None, proofs_to=None):
        super().__init__(parent)
        self.prefs = prefs
        #: () -> the database's settings, where a key that worked is kept for preflight
        self.proofs_to = proofs_to
        self.platform = platform or QGuiApplication.platformName()
        self.backend = None
        self.problems: list[str] = []
        #: why there is no backend (shown in the dialog, not as a notice at every start)
        self.unavailable: str | None = None
        self._reported: set[str] = set()
        #: a limit worth knowing (shown in the dialog)
        self.note: str | None = None
        self.bindings = hk.bindings_in_force(prefs)
        self.activated.connect(self._proved)

    @property
    def backend_name(self) -> str:
        return getattr(self.backend, "name", "none")

    def start(self) -> None:
        """(Re)bind the keys in force; safe to call again after the preferences changed."""
        self.bindings = hk.bindings_in_force(self.prefs)
        self.problems = list(self.bindings.problems)
        combos = {a: hk.parse_combo(k) for a, k in self.bindings.in_force().items()}
        if not combos:
            self._release()
            self.status_changed.emit()
            return
        if self.backend is None and self.unavailable is None:
            self._make_backend()
        elif self.backend is None:  # turned off and on again: no global one to retry
            self._inside_app()
        if self.backend is not None:
            self.problems += self.backend.bind(combos)
        self.status_changed.emit()

    def candidates(self, env=None) -> list[str]:
        """Backends to try, best first. In a Wayland session the portal comes first even
        under XWayland: an X grab there only sees keys while an X11 window has the focus."""
        env = os.environ if env is None else env
        forced = env.get("COMPANION_HOTKEYS", "").strip().lower()
        if forced in FORCED:
            return [FORCED[forced]]
        if portable_forced(env):
            return ["inapp"]
        wayland = bool(env.get("WAYLAND_DISPLAY")) or env.get("XDG_SESSION_TYPE") == "wayland"
        if wayland and self.platform == "xcb":
            return ["wayland", "xcb"]
        return [self.platform]

    def _make_backend(self) -> None:
        reasons: list[str] = []
        chosen = None
        for key in self.candidates():
            factory = BACKENDS.get(key)
            if factory is None:
                reasons.append(f"not available on this platform ({self.platform})")
                continue
            try:
                self.backend = factory(self)
            except Exception as exc:  # no X server, no libxcb, no portal...
                reasons.append(str(exc))
                continue
            chosen = key
            break
        if chosen in (None, "inapp"):  # one line says why; the keys still work inside
            why = "; ".join(reasons) or "the portable services were asked for"
            self.unavailable = f"Global hotkeys are off: {why}; {INSIDE}."
            log.info("%s", self.unavailable)
            if chosen is None:
                self._inside_app()
            else:
                self.backend.activated.connect(self.activated)
            return
        if reasons:  # XWayland without the portal
            self.note = (
                f"Using the X11 key grab ({reasons[0]}): it sees the keys only while an "
                "X11 window has the focus."
            )
        self.backend.activated.connect(self.activated)
        late = getattr(self.backend, "problems_found", None)
        if late is not None:  # the portal answers later
            late.connect(self._late_problems)

    def _inside_app(self) -> None:
        """The portable backend, when no global one works (there is always an app)."""
        if QGuiApplication.instance() is not None:
            self.backend = InAppHotkeys(self)
            self.backend.activated.connect(self.activated)

    def _late_problems(self, problems: list[str]) -> None:
        self.problems += [p for p in problems if p not in self.problems]
        self.status_changed.emit()

    def _proved(self, action: str) -> None:
        """A key worked on this desktop: preflight's proof (companion.core.preflight.proofs)."""
        if self.proofs_to is None:
            return
        keys = self.bindings.in_force().get(action, action)
        proofs.record_hotkey(self.proofs_to(), keys, self.backend_name, local_now())

    def unreported(self) -> list[str]:
        """The problems not handed out before (each notice shows once)."""
        fresh = [p for p in self.problems if p not in self._reported]
        self._reported.update(fresh)
        return fresh

    def _release(self) -> None:
        if self.backend is not None:
            self.backend.release()
            self.backend.deleteLater()
            self.backend = None

    def stop(self) -> None:
        """Release every grab (on quit)."""
        self._release()


def drive_card(action: str, card, open_card: Callable[[], object]):
    """Do ``action`` on the cue card, opening it first if needed; returns the card.
    ``show-card`` toggles it; nothing here gives the card the focus."""
    alive = card is not None
    if alive:
        try:
            visible = card.isVisible()
        except RuntimeError:  # Qt deleted it
            alive = visible = False
    if action == "show-card" and alive and visible:
        card.hide()
        return card
    if not alive or not visible:
        card = open_card()
    if action == "next-step":
        card.move_step(1)
    elif action == "previous-step":
        card.move_step(-1)
    elif action == "start-end-round":
        card.toggle_round()
    elif action == "glance":
        card.toggle_glance()
    elif action == "recovery":
        card.show_recovery()
    elif action == "ghost":
        card.ghost.toggle()
    elif action in ("opacity-up", "opacity-down"):
        card.ghost.step_opacity(1 if action == "opacity-up" else -1)
    elif action == "stories":
        card.show_stories()
    return card
