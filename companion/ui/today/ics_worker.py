"""Reading a calendar file off the GUI thread: only the Qt-free reader runs there; the
result comes back through a signal (the rounds are written on the GUI thread)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QObject, QRunnable, Signal

from companion.core.day.ics import IcsError, read_ics


class IcsSignals(QObject):
    #: (events, problems, error): error is "" when the file was read
    read = Signal(object, object, str)


class IcsRead(QRunnable):
    def __init__(self, path: Path):
        super().__init__()
        self.path = path
        self.signals = IcsSignals()

    def run(self) -> None:
        try:
            events, problems = read_ics(self.path)
        except IcsError as exc:
            self.signals.read.emit([], [], str(exc))
        except Exception as exc:  # noqa: BLE001 - told to the user, never a dead worker
            self.signals.read.emit([], [], f"Cannot read {self.path}: {exc}")
        else:
            self.signals.read.emit(events, problems, "")
