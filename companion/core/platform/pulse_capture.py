"""Recording from the sound server (PulseAudio, or PipeWire's pulse server) through
libpulse and ctypes: no Python package, and not QtMultimedia, whose FFmpeg backend
costs the card's following +10.8 MiB on Linux (docs/performance.md).

A record stream of 16-bit mono at 16 kHz on the default source, on libpulse's own
threaded main loop. The caller polls: ``take()`` returns what arrived since the last
call without blocking, ``failure`` says why the stream ended (the server went away),
``close()`` ends it at once. pa_simple was the first choice, but pa_simple_read blocks
until data comes and cannot be woken: a suspended source (an unplugged microphone)
holds it until the source resumes, and freeing the handle under it is a use after free.
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import functools
import sys
import time
from collections.abc import Callable

from companion.core.platform import portable_forced

# pulse/def.h and pulse/sample.h
_SAMPLE_S16LE, _SAMPLE_S16BE = 3, 4
_CONTEXT_NOAUTOSPAWN = 0x0001  # never start a server: "none running" is the answer
_CONTEXT_READY, _CONTEXT_FAILED, _CONTEXT_TERMINATED = 4, 5, 6
_STREAM_READY, _STREAM_FAILED, _STREAM_TERMINATED = 2, 3, 4
_STREAM_ADJUST_LATENCY = 0x2000  # the source's latency follows fragsize, as pa_simple asks
_ERR_NOENTITY, _ERR_CONNECTIONREFUSED, _ERR_TIMEOUT = 5, 6, 8
_ERR_CONNECTIONTERMINATED, _ERR_INVALIDSERVER = 11, 13
_NO_SERVER = {_ERR_CONNECTIONREFUSED, _ERR_TIMEOUT, _ERR_CONNECTIONTERMINATED, _ERR_INVALIDSERVER}
_ANY = 0xFFFFFFFF  # (uint32_t) -1: the server's choice

SAMPLE_RATE = 16000
FRAGMENT_BYTES = SAMPLE_RATE * 2 // 10  # the server sends 0.1 s at a time
OPEN_SECONDS = 3.0  # a local server answers in milliseconds; the card waits at most this


class SampleSpec(ctypes.Structure):
    _fields_ = [("format", ctypes.c_int), ("rate", ctypes.c_uint32), ("channels", ctypes.c_uint8)]


class BufferAttr(ctypes.Structure):
    _fields_ = [
        (name, ctypes.c_uint32) for name in ("maxlength", "tlength", "prebuf", "minreq", "fragsize")
    ]


class SourceInfo(ctypes.Structure):
    """The head of pa_source_info (introspect.h): only its first fields are read."""

    _fields_ = [
        ("name", ctypes.c_char_p),
        ("index", ctypes.c_uint32),
        ("description", ctypes.c_char_p),
    ]


_SOURCE_INFO_CB = ctypes.CFUNCTYPE(
    None, ctypes.c_void_p, ctypes.POINTER(SourceInfo), ctypes.c_int, ctypes.c_void_p
)
_OPERATION_RUNNING = 0


class CaptureError(RuntimeError):
    """The stream did not open. ``kind``: "no server", "no source" or "other"."""

    def __init__(self, kind: str, reason: str):
        super().__init__(reason)
        self.kind = kind


def _declare(lib, name: str, restype, *argtypes) -> None:
    function = getattr(lib, name)
    function.restype = restype
    function.argtypes = list(argtypes)


@functools.cache
def _library():
    """libpulse with its functions' types declared, or None where it is not installed."""
    try:
        lib = ctypes.CDLL(ctypes.util.find_library("pulse") or "libpulse.so.0")
    except OSError:
        return None
    p, i, u32 = ctypes.c_void_p, ctypes.c_int, ctypes.c_uint32
    _declare(lib, "pa_threaded_mainloop_new", p)
    _declare(lib, "pa_threaded_mainloop_get_api", p, p)
    _declare(lib, "pa_threaded_mainloop_start", i, p)
    for name in ("lock", "unlock", "stop", "free"):
        _declare(lib, f"pa_threaded_mainloop_{name}", None, p)
    _declare(lib, "pa_context_new", p, p, ctypes.c_char_p)
    _declare(lib, "pa_context_connect", i, p, ctypes.c_char_p, i, p)
    _declare(lib, "pa_context_get_state", i, p)
    _declare(lib, "pa_context_errno", i, p)
    _declare(lib, "pa_context_disconnect", None, p)
    _declare(lib, "pa_context_unref", None, p)
    _declare(lib, "pa_stream_new", p, p, ctypes.c_char_p, ctypes.POINTER(SampleSpec), p)
    _declare(
        lib, "pa_stream_connect_record", i, p, ctypes.c_char_p, ctypes.POINTER(BufferAttr), u32
    )
    _declare(lib, "pa_stream_get_state", i, p)
    _declare(lib, "pa_stream_get_device_name", ctypes.c_char_p, p)
    _declare(lib, "pa_stream_peek", i, p, ctypes.POINTER(p), ctypes.POINTER(ctypes.c_size_t))
    _declare(lib, "pa_stream_drop", i, p)
    _declare(lib, "pa_stream_disconnect", i, p)
    _declare(lib, "pa_stream_unref", None, p)
    _declare(lib, "pa_strerror", ctypes.c_char_p, i)
    _declare(lib, "pa_context_get_source_info_by_name", p, p, ctypes.c_char_p, _SOURCE_INFO_CB, p)
    _declare(lib, "pa_operation_get_state", i, p)
    _declare(lib, "pa_operation_unref", None, p)
    _declare(lib, "pa_operation_cancel", None, p)
    return lib


def available() -> bool:
    """The default microphone is recorded through libpulse here: Linux, where the library
    loads (PulseAudio's or PipeWire's client), unless the portable services were asked
    for (``COMPANION_PORTABLE=1``: QtMultimedia, as a Mac or Windows build records)."""
    return sys.platform.startswith("linux") and not portable_forced() and _library() is not None


class PulseCapture:
    """One record stream on the default source, 16-bit mono at SAMPLE_RATE; raises
    :class:`CaptureError` when it cannot open. Not thread-safe: one caller polls it."""

    def __init__(self, app_name: str = "Interview Companion", stream_name: str = "microphone"):
        lib = _library()
        if lib is None:
            raise CaptureError("other", "libpulse is not installed")
        self._lib = lib
        self._stream = None
        self.failure: str | None = None
        self.device_name = ""
        self._loop = lib.pa_threaded_mainloop_new()
        self._context = lib.pa_context_new(
            lib.pa_threaded_mainloop_get_api(self._loop), app_name.encode()
        )
        try:
            self._connect()
            self._open(stream_name)
        except BaseException:
            self.close()
            raise

    def _connect(self) -> None:
        lib = self._lib
        if lib.pa_context_connect(self._context, None, _CONTEXT_NOAUTOSPAWN, None) < 0:
            raise self._error()
        lib.pa_threaded_mainloop_start(self._loop)
        self._wait(lambda: lib.pa_context_get_state(self._context), _CONTEXT_READY)

    def _open(self, stream_name: str) -> None:
        lib = self._lib
        native = _SAMPLE_S16LE if sys.byteorder == "little" else _SAMPLE_S16BE
        spec = SampleSpec(native, SAMPLE_RATE, 1)
        attr = BufferAttr(_ANY, _ANY, _ANY, _ANY, FRAGMENT_BYTES)
        with self._locked():
            self._stream = lib.pa_stream_new(self._context, stream_name.encode(), spec, None)
            if not self._stream:
                raise self._error()
            if lib.pa_stream_connect_record(self._stream, None, attr, _STREAM_ADJUST_LATENCY) < 0:
                raise self._error()
        self._wait(lambda: lib.pa_stream_get_state(self._stream), _STREAM_READY)
        with self._locked():
            name = lib.pa_stream_get_device_name(self._stream)
        self.device_name = self._describe(name) if name else ""

    def _describe(self, name: bytes) -> str:
        """The source's description ("Built-in Audio Analog Stereo"), as the sound settings
        and Qt show it; its name (alsa_input.pci-...) where the server gives none."""
        lib, found = self._lib, []

        def answer(_context, info, eol, _data) -> None:  # on libpulse's thread, lock held
            if not eol and info and info.contents.description:
                found.append(info.contents.description.decode(errors="replace"))

        callback = _SOURCE_INFO_CB(answer)  # kept alive until the operation is done
        with self._locked():
            operation = lib.pa_context_get_source_info_by_name(self._context, name, callback, None)
        if operation:
            self._poll(lambda: lib.pa_operation_get_state(operation) != _OPERATION_RUNNING, 2.0)
            with self._locked():
                if lib.pa_operation_get_state(operation) == _OPERATION_RUNNING:
                    lib.pa_operation_cancel(operation)  # its callback never runs after this
                lib.pa_operation_unref(operation)
        return found[0] if found else name.decode(errors="replace")

    def _wait(self, state, ready: int) -> None:
        """Until a state is ``ready``; a failed connection or stream raises its error."""

        def done() -> bool:
            if state() == ready:
                return True
            if self._dead():
                raise self._error()
            return False

        if not self._poll(done, OPEN_SECONDS):
            raise CaptureError(
                "no server", f"the sound server did not answer in {OPEN_SECONDS:.0f} s"
            )

    def _poll(self, done: Callable[[], bool], seconds: float) -> bool:
        """Ask ``done()`` under the loop's lock every few milliseconds, for at most
        ``seconds`` (no callbacks into Python from libpulse's thread); whether it said so."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            with self._locked():
                if done():
                    return True
            time.sleep(0.002)
        return False

    @contextlib.contextmanager
    def _locked(self):
        """libpulse's loop lock: its thread and ours never touch the stream at once."""
        self._lib.pa_threaded_mainloop_lock(self._loop)
        try:
            yield
        finally:
            self._lib.pa_threaded_mainloop_unlock(self._loop)

    def _dead(self) -> bool:
        lib = self._lib
        if lib.pa_context_get_state(self._context) in (_CONTEXT_FAILED, _CONTEXT_TERMINATED):
            return True
        return bool(self._stream) and lib.pa_stream_get_state(self._stream) in (
            _STREAM_FAILED,
            _STREAM_TERMINATED,
        )

    def _reason(self) -> tuple[int, str]:
        code = self._lib.pa_context_errno(self._context)
        return code, (self._lib.pa_strerror(code) or b"unknown error").decode(errors="replace")

    def _error(self) -> CaptureError:
        code, reason = self._reason()
        if code in _NO_SERVER:
            return CaptureError("no server", reason)
        if code == _ERR_NOENTITY:
            return CaptureError("no source", reason)
        return CaptureError("other", reason)

    def take(self) -> bytes:
        """Every sample that arrived since the last call (b"" when none, or once failed)."""
        if self._stream is None or self.failure is not None:
            return b""
        lib, parts = self._lib, []
        data, size = ctypes.c_void_p(), ctypes.c_size_t()
        with self._locked():
            while True:
                if self._dead():
                    self.failure = self._reason()[1]
                    break
                if lib.pa_stream_peek(self._stream, ctypes.byref(data), ctypes.byref(size)) < 0:
                    self.failure = self._reason()[1]
                    break
                if size.value == 0:
                    break
                # a hole (data lost in the server) keeps its length as silence: the
                # audio clock stays the speaker's
                parts.append(ctypes.string_at(data, size.value) if data else bytes(size.value))
                lib.pa_stream_drop(self._stream)
        return b"".join(parts)

    def close(self) -> None:
        """End the stream and the connection (idempotent): at once, whatever the source does."""
        lib, loop = self._lib, self._loop
        if loop is None:
            return
        self._loop = None
        lib.pa_threaded_mainloop_stop(loop)
        if self._stream:
            lib.pa_stream_disconnect(self._stream)
            lib.pa_stream_unref(self._stream)
        self._stream = None
        lib.pa_context_disconnect(self._context)
        lib.pa_context_unref(self._context)
        lib.pa_threaded_mainloop_free(loop)
