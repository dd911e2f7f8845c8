"""Desktop notifications: the freedesktop notification service over D-Bus first (it works
on desktops with no tray, such as stock GNOME), then the tray balloon, then a callback
(the main window's status bar).

The D-Bus call goes through ``jeepney`` (pure Python, no dependencies), not QtDBus:
``Notify`` takes a ``uint32`` and an ``a{sv}``, and PySide6 cannot marshal a uint32 (it
has no ``QDBusArgument(value, type)``), so QtDBus calls are refused by the daemon's
signature check ("(sisssava{sv}i)" does not match "(susssasa{sv}i)").
"""

from __future__ import annotations

import os
from collections.abc import Callable

from PySide6.QtCore import QObject

SERVICE = "org.freedesktop.Notifications"
PATH = "/org/freedesktop/Notifications"
APP_NAME = "Interview Companion"
TIMEOUT_S = 2.0  # a daemon that does not answer must not freeze the window


class DbusNotifications:
    """One short connection to the session bus per notification (a handful a day): no
    socket stays open between them."""

    def __init__(self):
        self._failed = False

    def notify(self, title: str, body: str, *, urgent: bool = False) -> bool:
        if self._failed or not os.environ.get("DBUS_SESSION_BUS_ADDRESS"):
            return False  # never autolaunch a bus: a desktop session always has one
        from jeepney import DBusAddress, MessageType, new_method_call
        from jeepney.io.blocking import open_dbus_connection

        from companion import APP_ID

        address = DBusAddress(PATH, bus_name=SERVICE, interface=SERVICE)
        hints = {"urgency": ("y", 2 if urgent else 1), "desktop-entry": ("s", APP_ID)}
        message = new_method_call(
            address, "Notify", "susssasa{sv}i", (APP_NAME, 0, "", title, body, [], hints, -1)
        )
        try:
            with open_dbus_connection(bus="SESSION") as conn:
                reply = conn.send_and_get_reply(message, timeout=TIMEOUT_S)
        except Exception:  # noqa: BLE001 - no bus, refused, timeout: fall back from now on
            self._failed = True
            return False
        if reply.header.message_type == MessageType.error:
            self._failed = True  # no notification service on this bus (or it failed to start)
            return False
        return True

    def close(self) -> None:
        """Nothing stays open; kept so the notifier's owner can say it is done."""


class Notifier(QObject):
    def __init__(self, parent: QObject | None = None, *, fallback: Callable[[str, str], None]):
        super().__init__(parent)
        self._fallback = fallback
        self.tray = None  # a QSystemTrayIcon, set by the application when there is one
        self.dbus = DbusNotifications()
        self.sent: list[tuple[str, str, str]] = []  # (channel, title, body), this session

    def send(self, title: str, body: str, *, urgent: bool = False) -> str:
        """Show a notification; returns the channel used: dbus, tray or window."""
        if self.dbus.notify(title, body, urgent=urgent):
            channel = "dbus"
        elif self.tray is not None and self.tray.isVisible():
            self.tray.showMessage(title, body, self.tray.icon(), 10_000)
            channel = "tray"
        else:
            self._fallback(title, body)
            channel = "window"
        self.sent.append((channel, title, body))
        return channel

    def close(self) -> None:
        self.dbus.close()
