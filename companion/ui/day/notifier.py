"""Desktop notifications: the freedesktop notification service over D-Bus first (it works
on desktops with no tray, such as stock GNOME), then the tray balloon, then a callback
(the main window's status bar). On macOS and Windows, and with the portable services
(``COMPANION_PORTABLE=1``), the tray and the window only: the portable path.

The D-Bus call goes through ``jeepney`` (pure Python, no dependencies), not QtDBus:
``Notify`` takes a ``uint32`` and an ``a{sv}``, and PySide6 cannot marshal a uint32 (it
has no ``QDBusArgument(value, type)``), so QtDBus calls are refused by the daemon's
signature check ("(sisssava{sv}i)" does not match "(susssasa{sv}i)").
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable

from PySide6.QtCore import QObject

from companion import APP_ID
from companion.core.day.notices import stale
from companion.core.platform import portable_forced
from companion.core.preflight import proofs
from companion.core.timeutil import local_now

SERVICE = "org.freedesktop.Notifications"
PATH = "/org/freedesktop/Notifications"
APP_NAME = "Interview Companion"
TIMEOUT_S = 2.0  # a daemon that does not answer must not freeze the window
NORMAL = 1  # the freedesktop urgency byte: 0 low, 1 normal, 2 critical (never used)
DEFAULT_EXPIRE_MS = 10_000


class DbusNotifications:
    """One short connection to the session bus per call (a handful a day): no socket
    stays open between them. Every notification has normal urgency (a critical one
    never leaves the screen on most daemons) and an expiry."""

    def __init__(self):
        # a session bus is Linux's (and the BSDs'); never with the portable services
        self._failed = sys.platform in ("darwin", "win32") or portable_forced()
        self._markup: bool | None = None  # the daemon reads the body as markup

    def _body(self, body: str) -> str:
        """The body as the daemon should show it: where it reads markup (dunst, GNOME),
        a company name such as "<b>Acme</b>" or a "&" is escaped and shown as typed."""
        if self._markup is None:
            reply = self._call("GetCapabilities", "", ())
            caps = reply.body[0] if reply is not None and reply.body else []
            self._markup = "body-markup" in caps
        if not self._markup:
            return body
        import html

        return html.escape(body, quote=False)

    def notify(
        self, title: str, body: str, *, replaces: int = 0, expire_ms: int = DEFAULT_EXPIRE_MS
    ) -> int:
        """Show (or replace ``replaces``); the daemon's id for it, 0 when not shown."""
        from jeepney import MessageType

        hints = {"urgency": ("y", NORMAL), "desktop-entry": ("s", APP_ID)}
        expire = max(1, int(expire_ms))  # 0 would mean "never expires"
        reply = self._call(
            "Notify",
            "susssasa{sv}i",
            (APP_NAME, int(replaces) & 0xFFFFFFFF, "", title, self._body(body), [], hints, expire),
        )
        if reply is None or reply.header.message_type == MessageType.error:
            self._failed = True  # no notification service on this bus (or it failed)
            return 0
        return int(reply.body[0]) or 0

    def close_notification(self, notification_id: int) -> bool:
        """Take a shown notification down (CloseNotification); False when not possible.
        A notification already gone is answered with an error: that is not a failure."""
        from jeepney import MessageType

        if not notification_id:
            return False
        reply = self._call("CloseNotification", "u", (int(notification_id) & 0xFFFFFFFF,))
        return reply is not None and reply.header.message_type != MessageType.error

    def _call(self, method: str, signature: str, args: tuple):
        if self._failed or not os.environ.get("DBUS_SESSION_BUS_ADDRESS"):
            return None  # never autolaunch a bus: a desktop session always has one
        from jeepney import DBusAddress, new_method_call
        from jeepney.io.blocking import open_dbus_connection

        address = DBusAddress(PATH, bus_name=SERVICE, interface=SERVICE)
        message = new_method_call(address, method, signature, args)
        try:
            with open_dbus_connection(bus="SESSION") as conn:
                return conn.send_and_get_reply(message, timeout=TIMEOUT_S)
        except Exception:  # noqa: BLE001 - no bus, refused, timeout: fall back from now on
            self._failed = True
            return None

    def close(self) -> None:
        """Nothing stays open; kept so the notifier's owner can say it is done."""


class Notifier(QObject):
    def __init__(
        self,
        parent: QObject | None = None,
        *,
        fallback: Callable[[str, str], None],
        proofs_to: Callable | None = None,
    ):
        super().__init__(parent)
        self._fallback = fallback
        #: () -> the database's settings, where the last channel is kept for preflight
        self._proofs_to = proofs_to
        self.tray = None  # a QSystemTrayIcon, set by the application when there is one
        self.dbus = DbusNotifications()
        self.sent: list[tuple[str, str, str]] = []  # (channel, title, body), this session
        self.shown: dict[str, tuple[int, object]] = {}  # slot -> (daemon id, Notice)

    def send(
        self, title: str, body: str, *, urgent: bool = False, expire_ms: int = DEFAULT_EXPIRE_MS
    ) -> str:
        """Show a notification; returns the channel used: dbus, tray or window. ``urgent``
        is kept for callers; every notification has normal urgency."""
        return self._send(title, body, expire_ms=expire_ms)[0]

    def show(self, notice) -> str:
        """Show a :class:`companion.core.day.notices.Notice`, replacing the one shown for
        its slot; returns the channel used."""
        replaces = self.shown.get(notice.slot, (0, None))[0]
        channel, notification_id = self._send(
            notice.title, notice.body, expire_ms=notice.expire_ms, replaces=replaces
        )
        if notification_id:
            self.shown[notice.slot] = (notification_id, notice)
        return channel

    def follow(self, view) -> None:
        """Close the notices whose round has started, ended or gone (the day changed)."""
        if not self.shown:
            return
        for slot, (notification_id, notice) in list(self.shown.items()):
            if stale(notice, view):
                del self.shown[slot]
                self.dbus.close_notification(notification_id)

    def _send(self, title: str, body: str, *, expire_ms: int, replaces: int = 0):
        notification_id = self.dbus.notify(title, body, replaces=replaces, expire_ms=expire_ms)
        if notification_id:
            channel = "dbus"
        elif self.tray is not None and self.tray.isVisible():
            self.tray.showMessage(title, body, self.tray.icon(), max(1000, int(expire_ms)))
            channel = "tray"
        else:
            self._fallback(title, body)
            channel = "window"
        self.sent.append((channel, title, body))
        if self._proofs_to is not None:  # preflight's proof of what this desktop shows
            proofs.record_notification(self._proofs_to(), channel, local_now())
        return channel, notification_id

    def close(self) -> None:
        """Take down what this session still shows: once the app has quit, nothing follows
        a reminder to close it when its round starts, and it would stay up to its expiry
        (10 minutes) saying something the app no longer stands behind."""
        for notification_id, _notice in self.shown.values():
            self.dbus.close_notification(notification_id)
        self.shown.clear()
        self.dbus.close()
