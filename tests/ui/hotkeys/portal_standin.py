"""A stand-in for xdg-desktop-portal's GlobalShortcuts, for the portal tests.

Run with the system Python (it needs PyGObject, Debian python3-gi) inside
``dbus-run-session``. Like the real portal it is a GDBus service, so method calls are
checked against the documented signatures. It prints JSON lines (ready, bound, closed)
and reads commands on stdin: ``activate ACTION``, ``deny`` (the next BindShortcuts is
cancelled as if the user said no), ``quit``.
"""

import json
import os
import sys
import time

from gi.repository import Gio, GLib

NAME = "org.freedesktop.portal.Desktop"
PATH = "/org/freedesktop/portal/desktop"
XML = """
<node>
 <interface name="org.freedesktop.portal.GlobalShortcuts">
  <method name="CreateSession">
   <arg type="a{sv}" name="options" direction="in"/>
   <arg type="o" name="handle" direction="out"/>
  </method>
  <method name="BindShortcuts">
   <arg type="o" name="session_handle" direction="in"/>
   <arg type="a(sa{sv})" name="shortcuts" direction="in"/>
   <arg type="s" name="parent_window" direction="in"/>
   <arg type="a{sv}" name="options" direction="in"/>
   <arg type="o" name="request_handle" direction="out"/>
  </method>
  <method name="ListShortcuts">
   <arg type="o" name="session_handle" direction="in"/>
   <arg type="a{sv}" name="options" direction="in"/>
   <arg type="o" name="request_handle" direction="out"/>
  </method>
  <signal name="Activated">
   <arg type="o" name="session_handle"/>
   <arg type="s" name="shortcut_id"/>
   <arg type="t" name="timestamp"/>
   <arg type="a{sv}" name="options"/>
  </signal>
  <signal name="Deactivated">
   <arg type="o" name="session_handle"/>
   <arg type="s" name="shortcut_id"/>
   <arg type="t" name="timestamp"/>
   <arg type="a{sv}" name="options"/>
  </signal>
  <signal name="ShortcutsChanged">
   <arg type="o" name="session_handle"/>
   <arg type="a(sa{sv})" name="shortcuts"/>
  </signal>
  <property name="version" type="u" access="read"/>
 </interface>
 <interface name="org.freedesktop.host.portal.Registry">
  <method name="Register">
   <arg type="s" name="app_id" direction="in"/>
   <arg type="a{sv}" name="options" direction="in"/>
  </method>
 </interface>
</node>
"""
SESSION_XML = """
<node>
 <interface name="org.freedesktop.portal.Session">
  <method name="Close"/>
  <signal name="Closed"><arg type="a{sv}" name="details"/></signal>
  <property name="version" type="u" access="read"/>
 </interface>
</node>
"""

conn = None
sessions = {}  # session path -> {"sender", "bound", "registration"}
state = {"deny": False}
node = Gio.DBusNodeInfo.new_for_xml(XML)
session_node = Gio.DBusNodeInfo.new_for_xml(SESSION_XML)


def say(**data):
    print(json.dumps(data), flush=True)


def escaped(sender):
    return sender.lstrip(":").replace(".", "_")


def respond(sender, request_path, code, results):
    def emit():
        conn.emit_signal(
            sender,
            request_path,
            "org.freedesktop.portal.Request",
            "Response",
            GLib.Variant("(ua{sv})", (code, results)),
        )
        return False

    GLib.idle_add(emit)


def close_session(path):
    entry = sessions.pop(path, None)
    if entry is not None:
        conn.unregister_object(entry["registration"])
        say(closed=path)


def on_session_call(_conn, sender, path, _iface, method, _params, invocation):
    say(call=method, path=path)
    if method == "Close" and sessions.get(path, {}).get("sender") == sender:
        close_session(path)
        invocation.return_value(None)
    else:
        invocation.return_dbus_error("org.freedesktop.portal.Error.NotAllowed", "not yours")


def on_call(_conn, sender, _path, _iface, method, params, invocation):
    if method == "Register":
        app_id, _options = params.unpack()
        say(registered=app_id)
        invocation.return_value(None)
    elif method == "CreateSession":
        (options,) = params.unpack()
        token = options.get("handle_token", "t")
        session_path = f"{PATH}/session/{escaped(sender)}/{options['session_handle_token']}"
        request_path = f"{PATH}/request/{escaped(sender)}/{token}"
        registration = conn.register_object(
            session_path, session_node.interfaces[0], on_session_call, None, None
        )
        sessions[session_path] = {"sender": sender, "bound": None, "registration": registration}
        invocation.return_value(GLib.Variant("(o)", (request_path,)))
        respond(sender, request_path, 0, {"session_handle": GLib.Variant("s", session_path)})
        say(session=session_path)
    elif method == "BindShortcuts":
        session_path, shortcuts, _parent, options = params.unpack()
        entry = sessions.get(session_path)
        if entry is None or entry["sender"] != sender:
            invocation.return_dbus_error("org.freedesktop.portal.Error.NotFound", "no session")
            return
        request_path = f"{PATH}/request/{escaped(sender)}/{options.get('handle_token', 't')}"
        invocation.return_value(GLib.Variant("(o)", (request_path,)))
        if state["deny"]:
            state["deny"] = False
            respond(sender, request_path, 1, {})
            say(denied=session_path)
            return
        entry["bound"] = {sid: dict(props) for sid, props in shortcuts}
        result = [
            (
                sid,
                {
                    "description": GLib.Variant("s", props.get("description", "")),
                    "trigger_description": GLib.Variant("s", props.get("preferred_trigger", "")),
                },
            )
            for sid, props in shortcuts
        ]
        respond(sender, request_path, 0, {"shortcuts": GLib.Variant("a(sa{sv})", result)})
        say(bound=[[sid, p.get("description"), p.get("preferred_trigger")] for sid, p in shortcuts])
    else:
        invocation.return_dbus_error("org.freedesktop.DBus.Error.UnknownMethod", method)


def on_get_property(_conn, _sender, _path, _iface, name):
    return GLib.Variant("u", 1) if name == "version" else None


def on_stdin(channel, _condition):
    line = channel.readline().strip()
    if line in ("quit", ""):
        loop.quit()
        return False
    if line == "deny":
        state["deny"] = True
    elif line.startswith("activate "):
        action = line.split(" ", 1)[1]
        for path, entry in sessions.items():
            if entry["bound"] and action in entry["bound"]:
                conn.emit_signal(
                    entry["sender"],
                    PATH,
                    "org.freedesktop.portal.GlobalShortcuts",
                    "Activated",
                    GLib.Variant("(osta{sv})", (path, action, int(time.time() * 1000), {})),
                )
                say(activated=action)
    return True


def on_bus(connection, _name):
    global conn
    conn = connection
    for interface in node.interfaces:
        conn.register_object(PATH, interface, on_call, on_get_property, None)


def on_name(_connection, _name):
    say(ready=True, address=os.environ.get("DBUS_SESSION_BUS_ADDRESS", ""))


loop = GLib.MainLoop()
Gio.bus_own_name(Gio.BusType.SESSION, NAME, Gio.BusNameOwnerFlags.NONE, on_bus, on_name, None)
GLib.io_add_watch(GLib.IOChannel.unix_new(sys.stdin.fileno()), GLib.IO_IN | GLib.IO_HUP, on_stdin)
loop.run()
