"""One running app per data folder: a second launch hands over and exits.

The first process listens on a local socket named after the data folder; a later one
connects, asks it to raise its window, and quits, so two processes never write one journal.
"""

from __future__ import annotations

import getpass
import hashlib
from pathlib import Path

from PySide6.QtCore import QObject, Signal
from PySide6.QtNetwork import QLocalServer, QLocalSocket

RAISE = b"raise\n"


def server_name(data_dir: Path) -> str:
    digest = hashlib.sha256(str(Path(data_dir).resolve()).encode()).hexdigest()[:16]
    try:
        user = getpass.getuser()
    except Exception:  # no user name on some sandboxes
        user = "user"
    return f"interview-companion-{user}-{digest}"


def hand_over(name: str, timeout_ms: int = 500) -> bool:
    """True when another instance answered and was asked to come to the front."""
    socket = QLocalSocket()
    socket.connectToServer(name)
    if not socket.waitForConnected(timeout_ms):
        return False
    socket.write(RAISE)
    socket.flush()
    socket.waitForBytesWritten(timeout_ms)
    socket.disconnectFromServer()
    return True


class InstanceServer(QObject):
    """Listens for later launches; emits ``raise_requested`` for each."""

    raise_requested = Signal()

    def __init__(self, name: str, parent: QObject | None = None):
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
            socket = self._server.nextPendingConnection()
            # the message is one short line written right after connecting; a bounded
            # wait keeps this free of per-socket slots that could outlive the server
            ready = socket.bytesAvailable() or socket.waitForReadyRead(300)
            if ready and bytes(socket.readAll().data()).startswith(RAISE.strip()):
                self.raise_requested.emit()
            socket.disconnectFromServer()
            socket.deleteLater()

    def close(self) -> None:
        self._server.close()
