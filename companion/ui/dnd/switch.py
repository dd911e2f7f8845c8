"""The do-not-disturb switch: one model per app session (the day service makes it and
hands it to the pages and windows that show it) and a small widget to show and flip it."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QFileSystemWatcher, QObject, Qt, Signal
from PySide6.QtWidgets import QCheckBox, QHBoxLayout, QLabel, QVBoxLayout, QWidget

from companion.core.day.loops import get_round
from companion.core.dnd import DndError, controller_for
from companion.core.dnd.record import load, record_path
from companion.core.dnd.rounds import choose_round, chosen_round, round_running
from companion.ui.dnd.dbus import FreedesktopInhibitAdapter


class DndModel(QObject):
    """Wraps the core controller; detection (which runs small commands) waits for first use."""

    changed = Signal()
    #: (message, is_problem) after each action
    message = Signal(str, bool)

    def __init__(self, ctx, bus, parent=None, *, controller=None):
        super().__init__(parent if parent is not None else bus)
        self.setObjectName("dndModel")
        self.ctx = ctx
        self.bus = bus
        self._controller = controller
        # `companion dnd on|off` writes the record from another process: watch its folder
        # (the record is replaced, not edited) and say so when the record itself changed

        self._record = record_path(ctx.data_dir)
        self._seen = self._stamp()
        self._watcher = QFileSystemWatcher(self)
        if self._record.parent.is_dir():
            self._watcher.addPath(str(self._record.parent))
        self._watcher.directoryChanged.connect(self._folder_changed)

    def _stamp(self) -> tuple[int, int] | None:
        try:
            info = self._record.stat()
        except OSError:
            return None
        return info.st_mtime_ns, info.st_size

    def _folder_changed(self, _path: str) -> None:
        stamp = self._stamp()
        if stamp != self._seen:
            self._seen = stamp
            self.changed.emit()

    @property
    def controller(self):
        if self._controller is None:
            self._controller = controller_for(self.ctx, extra=[FreedesktopInhibitAdapter()])
        return self._controller

    def status(self):
        return self.controller.status()

    @property
    def hold(self):
        """The recorded pause, if any; reading it does not run detection."""
        if self._controller is not None:
            return self._controller.hold

        return load(record_path(self.ctx.data_dir))

    def set_on(self, on: bool, *, round_id: int = 0) -> bool:
        """Switch; returns True on success. Failures are told, never swallowed."""

        try:
            if on:
                text = self.controller.turn_on(round_id=round_id)
            else:
                text = self.controller.turn_off()
        except DndError as exc:
            self.message.emit(str(exc), True)
            self.bus.notify.emit("Do not disturb", str(exc))
            self.changed.emit()
            return False
        self.message.emit(text, False)
        self._seen = self._stamp()  # our own write: told here, not again by the watcher
        self.changed.emit()
        return True

    @property
    def chosen_round(self) -> int:
        """The round the user ticked do-not-disturb for, not yet running (0: none)."""

        return chosen_round(self.ctx.settings)

    def choose(self, on: bool, round_id: int) -> bool:
        """The switch's click: for a round not yet running, the choice is kept and the day
        pauses notifications when the round starts (and again after a restart mid-round);
        for a running round, or none, they pause at once. Off: the choice goes too."""

        choose_round(self.ctx.settings, round_id if on else 0)
        if not on:
            if self.hold is None:
                self.changed.emit()
                return True
            return self.set_on(False)
        rnd = get_round(self.ctx.db, round_id) if round_id else None
        if rnd is not None and not round_running(
            rnd.started, rnd.scheduled, rnd.ended, self.ctx.now()
        ):
            self.message.emit("Notifications pause when the round starts.", False)
            self.changed.emit()
            return True
        return self.set_on(True, round_id=round_id)

    def shutdown(self) -> None:
        """Restore on quit (only a pause this app made)."""
        hold = self.hold
        if hold is not None and hold.holder == "app":
            self.set_on(False)


class DndSwitch(QWidget):
    """A checkbox "Do not disturb" with a status line that always says what is true."""

    def __init__(self, model: DndModel, round_id_for=None, parent=None):
        super().__init__(parent)
        self.model = model
        self._round_id_for = round_id_for or (lambda: 0)
        self.box = QCheckBox("&Do not disturb during the round")
        self.box.setAccessibleName("Do not disturb")
        self.box.setToolTip("Pause desktop notifications; they come back when the round ends.")
        self.status = QLabel()
        self.status.setWordWrap(True)
        self.status.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.status.setAccessibleName("Do not disturb status")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        row = QHBoxLayout()
        row.addWidget(self.box)
        row.addStretch(1)
        layout.addLayout(row)
        layout.addWidget(self.status)
        self.box.clicked.connect(self._clicked)
        model.changed.connect(self.refresh)
        model.message.connect(self._show_message)
        self._last_problem = ""
        self._watched_window = None

    def showEvent(self, event) -> None:  # noqa: N802 (Qt API)
        super().showEvent(event)
        window = self.window()
        if window is not self._watched_window:  # a pause made with a desktop key, or
            window.installEventFilter(self)  # in another app, shows on coming back
            self._watched_window = window
        self.refresh()

    def eventFilter(self, watched, event) -> bool:  # noqa: N802 (Qt API)
        if (
            event.type() == QEvent.Type.ActivationChange
            and watched.isActiveWindow()
            and self.isVisible()
        ):
            self.refresh()
        return False

    def refresh(self) -> None:
        status = self.model.status()
        self.box.blockSignals(True)
        chosen = self.model.chosen_round
        self.box.setChecked(
            status.hold is not None or bool(chosen and chosen == self._round_id_for())
        )
        self.box.blockSignals(False)
        self.box.setEnabled(status.automatic or status.hold is not None)
        # when the app cannot switch it, no box that looks tickable: say it is done by hand
        by_hand = not status.automatic and status.hold is None
        self.box.setVisible(not by_hand)
        text = (
            f"{status.text}"
            if status.hold or not status.automatic
            else f"{status.adapter}: {status.text}"
        )
        if by_hand:
            text = f"Do not disturb: turn it on by hand in your desktop's settings. {text}"
        elif status.hold is None and self.box.isChecked():
            text = "Notifications pause when the round starts and come back when it ends."
        if self._last_problem:
            text = f"{self._last_problem}\n{text}"
        self.status.setText(text)

    def _clicked(self, checked: bool) -> None:
        self._last_problem = ""
        self.model.choose(checked, self._round_id_for() if checked else 0)

    def _show_message(self, text: str, problem: bool) -> None:
        self._last_problem = text if problem else ""
        self.refresh()
