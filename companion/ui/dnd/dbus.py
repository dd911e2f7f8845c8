"""Do-not-disturb through the freedesktop notification server (KDE Plasma and others):
``org.freedesktop.Notifications.Inhibit`` / ``UnInhibit`` over QtDBus.

The server keeps the pause only while this process holds its cookie: it ends when the
app quits or crashes, so there is nothing to restore after a crash, and the command
line (a process that exits at once) cannot use this adapter.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from companion import APP_ID
from companion.core.dnd.base import Adapter, DndError

SERVICE = "org.freedesktop.Notifications"
PATH = "/org/freedesktop/Notifications"
INTERFACE = "org.freedesktop.Notifications"

#: call(method, *args) -> (ok, value or error text)
Caller = Callable[..., tuple[bool, Any]]


def qtdbus_caller() -> Caller | None:
    """A caller on the session bus, or None when there is no session bus."""
    from PySide6.QtDBus import QDBusConnection, QDBusInterface, QDBusMessage

    connection = QDBusConnection.sessionBus()
    if not connection.isConnected():
        return None
    iface = QDBusInterface(SERVICE, PATH, INTERFACE, connection)

    def call(method: str, *args) -> tuple[bool, Any]:
        if method == "Introspect":
            intro = QDBusInterface(SERVICE, PATH, "org.freedesktop.DBus.Introspectable", connection)
            reply = intro.call("Introspect")
        else:
            reply = iface.call(method, *args)
        if reply.type() == QDBusMessage.MessageType.ErrorMessage:
            return False, reply.errorMessage() or reply.errorName()
        values = reply.arguments()
        return True, values[0] if values else None

    return call


class FreedesktopInhibitAdapter(Adapter):
    name = "freedesktop"
    label = "Notification server (DBus inhibit)"
    restores_itself = True
    cli_usable = False

    def __init__(self, caller: Caller | None = None):
        self._caller = caller
        self._cookie: int | None = None

    def _call(self, method: str, *args) -> Any:
        if self._caller is None:
            self._caller = qtdbus_caller()
        if self._caller is None:
            raise DndError("There is no DBus session bus to reach the notification server.")
        ok, value = self._caller(method, *args)
        if not ok:
            raise DndError(f"The notification server refused {method}: {value}")
        return value

    def available(self) -> bool:
        """True when the server answers and offers Inhibit (KDE Plasma does)."""
        try:
            xml = self._call("Introspect")
        except DndError:
            return False
        return isinstance(xml, str) and 'name="Inhibit"' in xml

    def snapshot(self) -> dict:
        return {}  # an inhibition stacks on top of the server's own state

    def paused(self, state: dict) -> bool | None:
        return True if self._cookie is not None else None

    def pause(self) -> None:
        if self._cookie is not None:
            return
        cookie = self._call("Inhibit", APP_ID, "Interview round in progress", {})
        try:
            self._cookie = int(cookie)
        except (TypeError, ValueError):
            raise DndError(f"The notification server answered Inhibit with {cookie!r}") from None

    def restore(self, prior: dict) -> None:
        if self._cookie is None:
            return  # no cookie in this process: the pause already ended with its holder
        cookie, self._cookie = self._cookie, None
        try:
            self._call("UnInhibit", cookie)
        except DndError:
            self._cookie = cookie
            raise

    def manual_steps(self) -> str:
        return (
            "Open the notifications area in the panel and switch on 'Do not disturb'; switch "
            "it off after the round."
        )
