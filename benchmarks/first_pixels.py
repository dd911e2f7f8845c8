"""When a window's first pixels reach the X server: an X DAMAGE observer.

A process's own "first paint" report is the moment its paint handler runs; the pixels
reach the screen after that, when the backing store is flushed. This observer watches
the X server instead: it asks for CreateNotify on the root window, puts a DAMAGE object
on every top-level window as it is created (before it can be mapped or drawn), and
records the wall-clock time of the first DamageNotify, i.e. the first time any of the
new process's windows was drawn into.

Plain ctypes over libX11 and libXdamage (present wherever X11 is), so the benchmark
needs nothing installed. Usage::

    with DamageObserver(":93") as seen:
        started = time.time()
        subprocess.run(...)
    first_pixels_ms = (seen.first - started) * 1000
"""

from __future__ import annotations

import ctypes
import ctypes.util
import select
import threading
import time

CREATE_NOTIFY = 16
SUBSTRUCTURE_NOTIFY_MASK = 1 << 19
DAMAGE_REPORT_NON_EMPTY = 3
DAMAGE_NOTIFY = 0  # offset from the extension's event base


class XEvent(ctypes.Union):
    _fields_ = [("type", ctypes.c_int), ("pad", ctypes.c_long * 24)]


class XCreateWindowEvent(ctypes.Structure):
    _fields_ = [
        ("type", ctypes.c_int),
        ("serial", ctypes.c_ulong),
        ("send_event", ctypes.c_int),
        ("display", ctypes.c_void_p),
        ("parent", ctypes.c_ulong),
        ("window", ctypes.c_ulong),
    ]


class ObserverError(RuntimeError):
    pass


_ERROR_HANDLER = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p)
_ignore_errors = _ERROR_HANDLER(lambda _display, _event: 0)  # a window gone before DAMAGE


def _libraries():
    x11 = ctypes.util.find_library("X11") or "libX11.so.6"
    damage = ctypes.util.find_library("Xdamage") or "libXdamage.so.1"
    try:
        xlib, xdamage = ctypes.CDLL(x11), ctypes.CDLL(damage)
    except OSError as exc:
        raise ObserverError(f"libX11 or libXdamage is missing ({exc})") from None
    xlib.XOpenDisplay.restype = ctypes.c_void_p
    xlib.XOpenDisplay.argtypes = [ctypes.c_char_p]
    xlib.XDefaultRootWindow.restype = ctypes.c_ulong
    xlib.XDefaultRootWindow.argtypes = [ctypes.c_void_p]
    xlib.XSelectInput.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_long]
    xlib.XSync.argtypes = [ctypes.c_void_p, ctypes.c_int]
    xlib.XFlush.argtypes = [ctypes.c_void_p]
    xlib.XPending.argtypes = [ctypes.c_void_p]
    xlib.XNextEvent.argtypes = [ctypes.c_void_p, ctypes.POINTER(XEvent)]
    xlib.XConnectionNumber.argtypes = [ctypes.c_void_p]
    xlib.XCloseDisplay.argtypes = [ctypes.c_void_p]
    xlib.XSetErrorHandler.argtypes = [_ERROR_HANDLER]
    xlib.XSetErrorHandler.restype = ctypes.c_void_p
    xdamage.XDamageQueryExtension.argtypes = [
        ctypes.c_void_p,
        ctypes.POINTER(ctypes.c_int),
        ctypes.POINTER(ctypes.c_int),
    ]
    xdamage.XDamageCreate.restype = ctypes.c_ulong
    xdamage.XDamageCreate.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_int]
    return xlib, xdamage


class DamageObserver:
    """Records :attr:`first`, the wall-clock time of the first drawing into a top-level
    window created while the observer runs (None if nothing was drawn)."""

    def __init__(self, display: str):
        self.display = display
        self.first: float | None = None
        self.windows = 0
        self._stop = threading.Event()
        self._ready = threading.Event()
        self._failed: str | None = None
        self._thread = threading.Thread(target=self._watch, daemon=True)

    def __enter__(self) -> DamageObserver:
        self._thread.start()
        if not self._ready.wait(10) or self._failed:
            self._stop.set()
            raise ObserverError(self._failed or f"no answer from X display {self.display}")
        return self

    def __exit__(self, *exc) -> None:
        self.wait(2.0)
        self._stop.set()
        self._thread.join(5)

    def wait(self, timeout: float) -> float | None:
        """Wait up to ``timeout`` seconds for the first pixels; return their time."""
        deadline = time.monotonic() + timeout
        while self.first is None and time.monotonic() < deadline and self._thread.is_alive():
            time.sleep(0.005)
        return self.first

    def _watch(self) -> None:
        try:
            xlib, xdamage = _libraries()
        except ObserverError as exc:
            self._failed = str(exc)
            self._ready.set()
            return
        dpy = xlib.XOpenDisplay(self.display.encode())
        if not dpy:
            self._failed = f"cannot open X display {self.display}"
            self._ready.set()
            return
        try:
            base, err = ctypes.c_int(), ctypes.c_int()
            if not xdamage.XDamageQueryExtension(dpy, ctypes.byref(base), ctypes.byref(err)):
                self._failed = f"X display {self.display} has no DAMAGE extension"
                return
            xlib.XSetErrorHandler(_ignore_errors)
            xlib.XSelectInput(dpy, xlib.XDefaultRootWindow(dpy), SUBSTRUCTURE_NOTIFY_MASK)
            xlib.XSync(dpy, 0)
            self._ready.set()
            fd = xlib.XConnectionNumber(dpy)
            event = XEvent()
            while not self._stop.is_set() and self.first is None:
                while xlib.XPending(dpy) and self.first is None:
                    xlib.XNextEvent(dpy, ctypes.byref(event))
                    if event.type == CREATE_NOTIFY:
                        created = ctypes.cast(
                            ctypes.byref(event), ctypes.POINTER(XCreateWindowEvent)
                        ).contents
                        xdamage.XDamageCreate(dpy, created.window, DAMAGE_REPORT_NON_EMPTY)
                        xlib.XFlush(dpy)
                        self.windows += 1
                    elif event.type == base.value + DAMAGE_NOTIFY:
                        self.first = time.time()
                select.select([fd], [], [], 0.02)
        finally:
            self._ready.set()
            xlib.XCloseDisplay(dpy)
