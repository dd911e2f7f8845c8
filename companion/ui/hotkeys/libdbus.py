"""Send one D-Bus method call built with libdbus on QtDBus's own connection.

QtDBus in PySide6 cannot marshal an array of structures (the portal's ``a(sa{sv})``):
that needs ``qDBusRegisterMetaType``, a C++ template. This module builds such a message
with libdbus (the library QtDBus itself runs on) and sends it on the connection Qt
already has, so the desktop portal sees the same sender as for the rest of the session.
Signatures are written out, e.g. ``"oa(sa{sv})sa{sv}"``; a variant value is a
``(signature, value)`` pair.
"""

from __future__ import annotations

import ctypes
import ctypes.util

_BASIC = {
    "s": ctypes.c_char_p,
    "o": ctypes.c_char_p,
    "g": ctypes.c_char_p,
    "u": ctypes.c_uint32,
    "i": ctypes.c_int32,
    "t": ctypes.c_uint64,
    "x": ctypes.c_int64,
    "b": ctypes.c_uint32,
    "y": ctypes.c_uint8,
    "d": ctypes.c_double,
}
_ITER_SIZE = 128  # DBusMessageIter is 72 bytes on 64-bit systems


class LibDBusError(RuntimeError):
    pass


_lib = None


def _load():
    global _lib
    if _lib is not None:
        return _lib
    try:
        lib = ctypes.CDLL(ctypes.util.find_library("dbus-1") or "libdbus-1.so.3")
    except OSError as exc:
        raise LibDBusError(f"cannot load libdbus: {exc}") from None
    vp, cp = ctypes.c_void_p, ctypes.c_char_p
    lib.dbus_message_new_method_call.argtypes = [cp, cp, cp, cp]
    lib.dbus_message_new_method_call.restype = vp
    lib.dbus_message_new_signal.argtypes = [cp, cp, cp]
    lib.dbus_message_new_signal.restype = vp
    lib.dbus_message_unref.argtypes = [vp]
    lib.dbus_message_iter_init_append.argtypes = [vp, vp]
    lib.dbus_message_iter_append_basic.argtypes = [vp, ctypes.c_int, vp]
    lib.dbus_message_iter_append_basic.restype = ctypes.c_uint32
    lib.dbus_message_iter_open_container.argtypes = [vp, ctypes.c_int, cp, vp]
    lib.dbus_message_iter_open_container.restype = ctypes.c_uint32
    lib.dbus_message_iter_close_container.argtypes = [vp, vp]
    lib.dbus_message_iter_close_container.restype = ctypes.c_uint32
    lib.dbus_connection_send.argtypes = [vp, vp, ctypes.POINTER(ctypes.c_uint32)]
    lib.dbus_connection_send.restype = ctypes.c_uint32
    lib.dbus_connection_flush.argtypes = [vp]
    lib.dbus_connection_flush.restype = None
    _lib = lib
    return lib


def split_signature(sig: str) -> list[str]:
    """``"oa(sa{sv})s"`` -> ``["o", "a(sa{sv})", "s"]``."""
    types, i = [], 0
    while i < len(sig):
        end = _end_of(sig, i)
        types.append(sig[i:end])
        i = end
    return types


def _end_of(sig: str, i: int) -> int:
    c = sig[i]
    if c == "a":
        return _end_of(sig, i + 1)
    if c in "({":
        close = ")" if c == "(" else "}"
        depth = 0
        for j in range(i, len(sig)):
            if sig[j] == c:
                depth += 1
            elif sig[j] == close:
                depth -= 1
                if depth == 0:
                    return j + 1
        raise LibDBusError(f"unbalanced signature {sig!r}")
    if c not in _BASIC and c != "v":
        raise LibDBusError(f"unsupported type {c!r} in {sig!r}")
    return i + 1


def _check(ok: int) -> None:
    if not ok:
        raise LibDBusError("out of memory building a D-Bus message")


def _append(lib, it, sig: str, value) -> None:
    c = sig[0]
    if c in _BASIC:
        if c in "sog":
            value = str(value).encode()
        elif c == "b":
            value = 1 if value else 0
        holder = _BASIC[c](value)
        _check(lib.dbus_message_iter_append_basic(it, ord(c), ctypes.byref(holder)))
        return
    sub = ctypes.create_string_buffer(_ITER_SIZE)
    if c == "a":
        inner = sig[1:]
        _check(lib.dbus_message_iter_open_container(it, ord("a"), inner.encode(), sub))
        if inner[0] == "{":
            key_sig, value_sig = split_signature(inner[1:-1])
            for key, item in value.items():
                entry = ctypes.create_string_buffer(_ITER_SIZE)
                _check(lib.dbus_message_iter_open_container(sub, ord("e"), None, entry))
                _append(lib, entry, key_sig, key)
                _append(lib, entry, value_sig, item)
                _check(lib.dbus_message_iter_close_container(sub, entry))
        else:
            for item in value:
                _append(lib, sub, inner, item)
    elif c == "(":
        _check(lib.dbus_message_iter_open_container(it, ord("r"), None, sub))
        for field_sig, item in zip(split_signature(sig[1:-1]), value, strict=True):
            _append(lib, sub, field_sig, item)
    elif c == "v":
        inner, item = value
        _check(lib.dbus_message_iter_open_container(it, ord("v"), inner.encode(), sub))
        _append(lib, sub, inner, item)
    _check(lib.dbus_message_iter_close_container(it, sub))


def build(message, signature: str, args) -> None:
    lib = _load()
    it = ctypes.create_string_buffer(_ITER_SIZE)
    lib.dbus_message_iter_init_append(message, it)
    types = split_signature(signature)
    if len(types) != len(args):
        raise LibDBusError(f"{len(args)} arguments for the signature {signature!r}")
    for sig, value in zip(types, args):
        _append(lib, it, sig, value)


def send(
    connection_pointer: int,
    service: str,
    path: str,
    interface: str,
    method: str,
    signature: str,
    args,
) -> None:
    """Queue the call and flush it; the reply is not awaited (a portal answers through
    its Request's Response signal). Waiting here would start a libdbus timeout on
    QtDBus's own thread's timers, which Qt refuses from another thread."""
    lib = _load()
    if not connection_pointer:
        raise LibDBusError("no D-Bus connection")
    message = lib.dbus_message_new_method_call(
        service.encode(), path.encode(), interface.encode(), method.encode()
    )
    if not message:
        raise LibDBusError("cannot create a D-Bus message")
    try:
        build(message, signature, args)
        if not lib.dbus_connection_send(connection_pointer, message, None):
            raise LibDBusError("out of memory sending a D-Bus message")
        lib.dbus_connection_flush(connection_pointer)
    finally:
        lib.dbus_message_unref(message)
