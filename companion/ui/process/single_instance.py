"""One running app per data folder: a second launch hands over and exits.

The first process holds an exclusive lock on ``<data folder>/.instance.lock`` for its
lifetime and listens on a local socket named after the folder. A later launch that cannot
take the lock connects to that socket, asks the first to raise its window, and quits, so
two processes never write one journal. The lock and the hand-over use only the standard
library, so they run before Qt is imported and cost start-up nothing measurable.
"""

from __future__ import annotations

import os
import sys
import time
import zlib
from pathlib import Path

from companion.core.paths import instance_lock_path
from companion.core.platform import locks
from companion.core.platform.files import NOFOLLOW, describe_kind, user_key

RAISE = b"raise\n"


def cue_message(round_type: str = "") -> bytes:
    """Ask the running app to show its cue card (on ``round_type``, or as it is)."""
    safe = "".join(c for c in round_type if c.isalnum() or c in "-_")[:60]
    return f"cue {safe}".rstrip().encode() + b"\n"


def server_name(data_dir: Path) -> str:
    """A socket path unique to the user and data folder (short: AF_UNIX allows ~100 bytes)."""
    # zlib, not hashlib: loading OpenSSL costs ~10 ms of start-up; two checksums of the
    # path are ample to tell one user's data folders apart
    key = str(Path(data_dir).resolve()).encode()
    digest = f"{zlib.crc32(key):08x}{zlib.adler32(key):08x}"
    if sys.platform == "win32":  # a named pipe, \\.\pipe\NAME: no folder, one per machine
        return f"interview-companion-{user_key()}-{digest}"
    folder = os.environ.get("XDG_RUNTIME_DIR") or _temp_dir()
    return os.path.join(folder, f"interview-companion-{user_key()}-{digest}.sock")


class InstanceLockError(OSError):
    """The lock file cannot be used (a folder, a FIFO, unreadable): one line says why."""


class InstanceLock:
    """An exclusive advisory lock held while the app runs (released by the OS on a crash)."""

    def __init__(self, data_dir: Path, *, system: str | None = None):
        self.path = instance_lock_path(data_dir)
        self.system = system  # sys.platform's value to follow, when not this one's
        self._fd: int | None = None
        self._portable = None  # the filelock lock, where there is no flock

    def acquire(self) -> bool:
        """True when this process now holds the lock, False when another one does;
        :class:`InstanceLockError` when the lock file itself cannot be used."""
        if not locks.has_flock(self.system):  # Windows: filelock's msvcrt lock on the same file
            self._portable = locks.file_lock(self.path)
            return self._portable is not None
        fd = self._open()
        if not locks.try_flock(fd):
            os.close(fd)
            return False
        self._fd = fd
        return True

    def _open(self) -> int:
        """The lock file, created 0600 if missing; never a folder, FIFO or device (a
        FIFO opened for reading would block, a folder cannot be locked for writing)."""
        import stat

        flags = os.O_RDWR | os.O_CREAT | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
        try:
            fd = os.open(self.path, flags | NOFOLLOW, 0o600)
        except IsADirectoryError:
            raise InstanceLockError(
                0, f"{self.path} is a folder, not the app's lock file: move it away"
            ) from None
        except OSError as exc:
            raise InstanceLockError(
                exc.errno, f"cannot open the lock file {self.path}: {exc.strerror or exc}"
            ) from None
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            os.close(fd)
            raise InstanceLockError(
                0, f"{self.path} is {describe_kind(mode)}, not the app's lock file: move it away"
            )
        return fd

    def release(self) -> None:
        if self._portable is not None:
            self._portable.release()
            self._portable = None
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None


def lock_problem(data_dir: Path) -> str | None:
    """Why the folder's lock file cannot be used, or None (it is created if missing)."""
    if os.name != "posix":
        return None
    try:
        os.close(InstanceLock(data_dir)._open())
    except InstanceLockError as exc:
        return exc.strerror
    return None


def _temp_dir() -> str:
    """Where the socket goes without XDG_RUNTIME_DIR: TMPDIR, TEMP or TMP when it is a
    folder, else /tmp. Not tempfile.gettempdir(): importing tempfile (shutil, bz2, lzma,
    random) costs a few ms before the first paint, and it tries writing in each candidate."""
    if os.name != "posix":
        import tempfile

        return tempfile.gettempdir()
    for name in ("TMPDIR", "TEMP", "TMP"):
        folder = os.environ.get(name)
        if folder and os.path.isdir(folder):
            return folder
    return "/tmp"


def hand_over(name: str, timeout_ms: int = 500, message: bytes = RAISE) -> bool:
    """True when a running instance answered on ``name`` and was given ``message`` (come
    forward, or show the cue card)."""
    import socket  # here: a first launch, the common one, never needs it

    if not hasattr(socket, "AF_UNIX"):
        return _hand_over_qt(name, timeout_ms, message)
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
            sock.settimeout(timeout_ms / 1000)
            sock.connect(name)
            sock.sendall(message)
        return True
    except OSError:
        return False


def hand_over_waiting(name: str, seconds: float = 5.0, message: bytes = RAISE) -> bool:
    """The lock is taken but the owner may still be starting: keep trying for a while."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if hand_over(name, message=message):
            return True
        time.sleep(0.1)
    return False


def _hand_over_qt(name: str, timeout_ms: int, message: bytes = RAISE) -> bool:
    from PySide6.QtNetwork import QLocalSocket

    sock = QLocalSocket()
    sock.connectToServer(name)
    if not sock.waitForConnected(timeout_ms):
        return False
    sock.write(message)
    sock.flush()
    sock.waitForBytesWritten(timeout_ms)
    sock.disconnectFromServer()
    return True


def serve_launches(name: str, parent, on_raise, on_cue):
    """The server later launches reach, for the app and for the card alone alike: a plain
    `companion` calls ``on_raise()``, `companion cue [--round TYPE]` ``on_cue(type)``."""
    server = make_server(name, parent)
    server.raise_requested.connect(on_raise)
    server.cue_requested.connect(on_cue)
    return server


def make_server(name: str, parent=None):
    """The listening side (a Qt object; built after the first paint)."""
    from PySide6.QtCore import QObject, Signal
    from PySide6.QtNetwork import QLocalServer

    class InstanceServer(QObject):
        """Listens for later launches; emits ``raise_requested`` for each."""

        raise_requested = Signal()
        #: a later `companion cue [--round TYPE]`: show the card ("" = as it is)
        cue_requested = Signal(str)

        def __init__(self):
            super().__init__(parent)
            self._server = QLocalServer(self)
            self._server.setSocketOptions(QLocalServer.SocketOption.UserAccessOption)
            self._server.newConnection.connect(self._on_connection)
            if not self._server.listen(name):
                QLocalServer.removeServer(name)  # a stale socket left by a crash
                self._server.listen(name)

        @property
        def listening(self) -> bool:
            return self._server.isListening()

        def _on_connection(self) -> None:
            while self._server.hasPendingConnections():
                sock = self._server.nextPendingConnection()
                # one short line written right after connecting; a bounded wait keeps
                # this free of per-socket slots that could outlive the server
                ready = sock.bytesAvailable() or sock.waitForReadyRead(300)
                line = bytes(sock.readAll().data())[:200] if ready else b""
                if line.startswith(RAISE.strip()):
                    self.raise_requested.emit()
                elif line.startswith(b"cue"):
                    word = line[3:].strip().decode("ascii", "replace")
                    self.cue_requested.emit("".join(c for c in word if c.isalnum() or c in "-_"))
                sock.disconnectFromServer()
                sock.deleteLater()

        def close(self) -> None:
            self._server.close()

    return InstanceServer()
