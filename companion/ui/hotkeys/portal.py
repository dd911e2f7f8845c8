"""Global hotkeys through the XDG desktop portal (``org.freedesktop.portal.GlobalShortcuts``:
KDE Plasma 6, GNOME 48+, Hyprland), the way Wayland allows them.

The flow the portal documents: ``CreateSession`` and ``BindShortcuts`` each return a
Request object whose ``Response`` signal carries the answer (0 approved, 1 the user
cancelled, 2 other). We subscribe to the Response path before each call (it is known
from our ``handle_token``). Binding may show the desktop's approval dialog; the desktop
may also pick other keys than the preferred triggers we suggest. ``Activated`` on the
portal object names the shortcut id (our action names) when its keys are pressed.

Everything goes through QtDBus except BindShortcuts's ``a(sa{sv})`` argument, which
PySide6 cannot marshal: that one call is built with libdbus and sent on Qt's own
connection (see :mod:`companion.ui.hotkeys.libdbus`).
"""

from __future__ import annotations

import logging
import secrets

from PySide6.QtCore import SLOT, QObject, Signal, Slot
from PySide6.QtDBus import QDBus, QDBusConnection, QDBusMessage, QDBusObjectPath

from companion import APP_ID
from companion.core.hotkeys import Combo, describe
from companion.ui.hotkeys import libdbus

log = logging.getLogger(__name__)

PORTAL = "org.freedesktop.portal.Desktop"
PATH = "/org/freedesktop/portal/desktop"
IFACE = "org.freedesktop.portal.GlobalShortcuts"
REQUEST = "org.freedesktop.portal.Request"
SESSION = "org.freedesktop.portal.Session"
REGISTRY = "org.freedesktop.host.portal.Registry"
ANSWERS = {
    1: "You did not approve the hotkeys in the desktop's dialog; open Global hotkeys to ask again.",
    2: "The desktop could not set up the hotkeys.",
}


CALL_TIMEOUT_MS = 5000  # the portal answers at once; approval comes later by Response
ACTIVATED_SLOT = "_on_activated(QDBusObjectPath,QString,qulonglong,QVariantMap)"
RESPONSE_SLOT = "response(uint,QVariantMap)"


class PortalError(RuntimeError):
    pass


class _Request(QObject):
    """One pending portal request: waits for its Response signal, then calls back."""

    def __init__(self, bus: QDBusConnection, path: str, handler, owner):
        super().__init__(owner)
        self.bus = bus
        self.path = path
        self.handler = handler
        self.owner = owner
        bus.connect(PORTAL, path, REQUEST, "Response", self, SLOT(RESPONSE_SLOT))

    @Slot("uint", "QVariantMap")
    def response(self, code: int, results: dict) -> None:
        self.cancel()
        self.handler(int(code), dict(results or {}))

    def cancel(self) -> None:
        self.bus.disconnect(PORTAL, self.path, REQUEST, "Response", self, SLOT(RESPONSE_SLOT))
        self.owner._pending.pop(self.path, None)
        self.deleteLater()


def _text(value) -> str:
    return value.path() if hasattr(value, "path") else str(value)


class PortalHotkeys(QObject):
    activated = Signal(str)
    #: one-line problems that arrive after bind() returned (the portal answers later)
    problems_found = Signal(list)
    #: the portal approved the binding
    bound = Signal()
    name = "desktop portal (GlobalShortcuts)"

    def __init__(self, parent=None, bus: QDBusConnection | None = None):
        super().__init__(parent)
        self.bus = bus or QDBusConnection.sessionBus()
        if not self.bus.isConnected():
            raise PortalError("no D-Bus session bus")
        # host (unsandboxed) apps name themselves first, or newer portals cannot tell
        # which app asks (xdg-desktop-portal 1.19+); older ones lack the Registry: ignored
        self._call(QDBusMessage.createMethodCall(PORTAL, PATH, REGISTRY, "Register"), [APP_ID, {}])
        version = self._call(
            QDBusMessage.createMethodCall(PORTAL, PATH, "org.freedesktop.DBus.Properties", "Get"),
            [IFACE, "version"],
        )
        if isinstance(version, str):
            raise PortalError(
                "the desktop portal has no GlobalShortcuts (KDE Plasma 6, GNOME 48+ and "
                f"Hyprland have it): {version}"
            )
        sender = self.bus.baseService().lstrip(":").replace(".", "_")
        self._request_base = f"{PATH}/request/{sender}/"
        self._pending: dict[str, _Request] = {}
        self._combos: dict[str, Combo] = {}
        self.session: str | None = None
        self.approved = False
        self.bus.connect(PORTAL, PATH, IFACE, "Activated", self, SLOT(ACTIVATED_SLOT))

    def _call(self, message: QDBusMessage, args: list):
        """The reply's first value, or the error text as a str."""
        message.setArguments(args)
        reply = self.bus.call(message, QDBus.CallMode.Block, CALL_TIMEOUT_MS)
        if reply.type() == QDBusMessage.MessageType.ErrorMessage:
            return f"{reply.errorName()}: {reply.errorMessage()}"
        values = reply.arguments()
        return values[0] if values else None

    def bind(self, combos: dict[str, Combo]) -> list[str]:
        """Start (again): a fresh session, then BindShortcuts. Problems come later
        through ``problems_found``."""
        self._close_session()
        self._combos = dict(combos)
        self.approved = False
        token = self._expect(self._session_created)
        answer = self._call(
            QDBusMessage.createMethodCall(PORTAL, PATH, IFACE, "CreateSession"),
            [{"handle_token": token, "session_handle_token": "companion_" + secrets.token_hex(6)}],
        )
        if isinstance(answer, str):
            self._pending.pop(self._request_base + token).cancel()
            return [f"The desktop portal refused a hotkey session: {answer}"]
        return []

    def _expect(self, handler) -> str:
        token = "companion_" + secrets.token_hex(6)
        request = _Request(self.bus, self._request_base + token, handler, self)
        self._pending[request.path] = request
        return token

    def _session_created(self, code: int, results: dict) -> None:
        if code != 0:
            self.problems_found.emit([ANSWERS.get(code, ANSWERS[2])])
            return
        self.session = _text(results.get("session_handle", ""))
        if not self.session.startswith("/"):
            self.problems_found.emit(["The desktop portal sent no hotkey session."])
            self.session = None
            return
        token = self._expect(self._shortcuts_bound)
        shortcuts = [
            (
                action,
                {
                    "description": ("s", describe(action)),
                    "preferred_trigger": ("s", combo.portal_trigger()),
                },
            )
            for action, combo in self._combos.items()
        ]
        try:
            libdbus.send(
                int(self.bus.internalPointer()),
                PORTAL,
                PATH,
                IFACE,
                "BindShortcuts",
                "oa(sa{sv})sa{sv}",
                [self.session, shortcuts, "", {"handle_token": ("s", token)}],
            )
        except libdbus.LibDBusError as exc:
            self._pending.pop(self._request_base + token).cancel()
            self.problems_found.emit([f"The desktop portal refused the hotkeys: {exc}"])

    def _shortcuts_bound(self, code: int, results: dict) -> None:
        if code != 0:
            self.problems_found.emit([ANSWERS.get(code, ANSWERS[2])])
            return
        self.approved = True
        self.bound.emit()

    # typed slots: QtDBus demarshals a{sv} into a dict only for a QVariantMap parameter
    @Slot(QDBusObjectPath, str, "qulonglong", "QVariantMap")
    def _on_activated(self, session: QDBusObjectPath, action: str, _time, _options) -> None:
        if self.session is not None and session.path() == self.session and action in self._combos:
            self.activated.emit(action)

    def _close_session(self) -> None:
        if self.session is None:
            return
        message = QDBusMessage.createMethodCall(PORTAL, self.session, SESSION, "Close")
        self.bus.call(message, QDBus.CallMode.Block, CALL_TIMEOUT_MS)
        self.session = None

    def release(self) -> None:
        self._close_session()
        for request in list(self._pending.values()):
            request.cancel()
        self.bus.disconnect(PORTAL, PATH, IFACE, "Activated", self, SLOT(ACTIVATED_SLOT))
