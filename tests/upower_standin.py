"""A UPower stand-in on the session bus (the real daemon needs the system bus): it owns
org.freedesktop.UPower and answers Properties.GetAll on the display device with the
properties a test gives it. Run inside `dbus-run-session` (the private test bus)."""

from __future__ import annotations

import threading

from jeepney import HeaderFields, MessageType, new_error, new_method_return
from jeepney.bus_messages import message_bus
from jeepney.io.blocking import open_dbus_connection

from companion.core.preflight import power


class UPowerStandIn:
    def __init__(self, props: dict):
        self.props = props  # name -> (signature, value)
        self.asked = 0
        self._stop = threading.Event()
        self.conn = open_dbus_connection(bus="SESSION")
        reply = self.conn.send_and_get_reply(message_bus.RequestName(power.SERVICE))
        assert reply.body[0] == 1, "the stand-in could not own the UPower name"
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        while not self._stop.is_set():
            try:
                msg = self.conn.receive(timeout=0.1)
            except TimeoutError:
                continue
            if msg.header.message_type != MessageType.method_call:
                continue
            fields = msg.header.fields
            if fields.get(HeaderFields.member) == "GetAll" and (
                fields.get(HeaderFields.path) == power.DISPLAY
            ):
                self.asked += 1
                self.conn.send(new_method_return(msg, "a{sv}", (self.props,)))
            else:
                self.conn.send(new_error(msg, "org.freedesktop.DBus.Error.UnknownMethod"))

    def close(self) -> None:
        self._stop.set()
        self._thread.join(2)
        self.conn.close()
