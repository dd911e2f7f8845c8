"""Ctrl+C in the terminal quits a Qt window the way Ctrl+Q does, with exit code 130;
SIGTERM (a log-out, ``kill``) the same way, with 143: killed outright before, the app left
do-not-disturb on until its next start.

Qt's event loop runs in C++, and Python runs its signal handlers only between bytecodes:
without help, SIGINT waits until some Python code runs (20-70 s on an idle card), and the
KeyboardInterrupt then comes out of whatever slot that is. So SIGINT gets a handler that
only asks the loop to quit (``quit``: the window's own Ctrl+Q path, so do-not-disturb is
put back and drafts are kept by the usual shutdown). To make the handler run promptly,
the signal also writes a byte to a socket (``signal.set_wakeup_fd``) that a
QSocketNotifier watches: its slot is Python code, so the pending handler runs at once,
and an idle app never wakes for it (the way qutebrowser does it; a no-op timer four
times a second cost 4 wake-ups a second). Where no wake-up socket can be set, the timer
is the fallback. It is installed as
soon as the QApplication exists, before the window is built: a Ctrl+C then (the handler
ran inside start-up's own event processing, with no loop to quit) is kept and acted on
when the loop starts; before that, Python's KeyboardInterrupt ends the command with 130.
"""

from __future__ import annotations

import contextlib
import signal
import socket
from collections.abc import Callable

from PySide6.QtCore import QObject, QSocketNotifier, QThread, QTimer

EXIT_CODE = 130  # 128 + SIGINT, as a shell reports a process Ctrl+C ended
EXIT_CODES = {signal.SIGINT: EXIT_CODE, signal.SIGTERM: 128 + signal.SIGTERM}
POLL_MS = 250


class SigintQuit(QObject):
    """Installed for the life of one event loop; ``interrupted`` tells the caller to
    return :data:`EXIT_CODE`."""

    def __init__(self, quit: Callable[[], None], parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.interrupted = False
        self._code = EXIT_CODE
        self._early = False  # a signal came while the window was still being built
        self._quit = quit
        self._previous = {sig: signal.signal(sig, self._on_sigint) for sig in EXIT_CODES}
        self._timer = QTimer(self)
        self._timer.timeout.connect(lambda: None)  # Python runs: pending handlers fire
        self._wakeup: tuple[socket.socket, socket.socket] | None = None
        self._old_fd = -1
        try:
            reader, writer = socket.socketpair()
            for end in (reader, writer):
                end.setblocking(False)
            self._old_fd = signal.set_wakeup_fd(writer.fileno())
        except (OSError, ValueError):  # not the main thread, or no sockets: poll instead
            self._timer.start(POLL_MS)
        else:
            self._wakeup = (reader, writer)
            self._notifier = QSocketNotifier(reader.fileno(), QSocketNotifier.Type.Read, self)
            self._notifier.activated.connect(self._drain)

    def _drain(self, *_args) -> None:
        """Python runs here, so a pending handler already ran; empty the socket."""
        if self._wakeup is not None:
            with contextlib.suppress(OSError):
                self._wakeup[0].recv(4096)

    def _on_sigint(self, signum, frame) -> None:
        if self.interrupted:  # a second Ctrl+C while the first quit is under way
            return
        self.interrupted = True
        self._code = EXIT_CODES.get(signum, EXIT_CODE)
        QTimer.singleShot(0, self._fire)  # from the loop, never inside a running slot

    def _fire(self) -> None:
        if QThread.currentThread().loopLevel() == 0:  # start-up's processEvents: no loop
            self._early = True  # to quit yet (quit() would do nothing): at its start
            return
        self._quit()

    def exec(self, loop: Callable[[], int]) -> int:
        """Run ``loop`` (the application's exec); a signal during start-up quits it as
        soon as it runs. The exit code as :meth:`exit_code` gives it."""
        if self._early:
            QTimer.singleShot(0, self._fire)
        return self.exit_code(loop())

    def exit_code(self, code: int) -> int:
        """Restore the previous handlers; 130 after Ctrl+C, 143 after SIGTERM, else ``code``."""
        self._timer.stop()
        if self._wakeup is not None:
            self._notifier.setEnabled(False)
            signal.set_wakeup_fd(self._old_fd)
            for end in self._wakeup:
                end.close()
            self._wakeup = None
        for sig, previous in self._previous.items():
            signal.signal(sig, previous)
        return self._code if self.interrupted else code
