"""Preflight: one screen, large type, each check with what it saw and the one thing to
do (companion.core.preflight). The mic shows a live level (QtMultimedia opens only here,
through the voice listener); do-not-disturb has its switch; each program that pings has
a Close button that asks first, then sends it SIGTERM. The camera is never opened."""

from __future__ import annotations

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QMessageBox,
    QProgressBar,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from companion.core.preflight import pingers
from companion.core.preflight.run import gather
from companion.core.voice.check import closed_words, level_words
from companion.ui.dnd.switch import DndSwitch
from companion.ui.voice.listener import AudioUnavailable, MicListener, input_devices
from companion.ui.widgets.opening import ask

MARKS = {True: "✓", False: "✗", None: "?"}
METER_FLOOR_DBFS = -60
GONE_POLL_MS, GONE_TRIES = 250, 20  # a closed program's check again: up to 5 s later


class PreflightWindow(QDialog):
    """Opened from Today and the cue card before a round, and by its hotkey."""

    def __init__(self, ctx, bus, dnd, parent=None, *, power_bus: str = "SYSTEM", listen=True):
        super().__init__(parent)

        self.ctx, self.bus, self.power_bus = ctx, bus, power_bus
        self.setWindowTitle("Preflight")
        self.setAccessibleName("Preflight before the round")
        self.setMinimumWidth(620)
        font = self.font()
        font.setPointSizeF(font.pointSizeF() * 1.3)
        self.setFont(font)
        self._listen = listen
        self._meter_listener = None
        self._speech_heard = False  # since the microphone opened
        self.dnd = dnd  # the session's model (the day service's)
        self.round_label = QLabel()
        self.round_label.setWordWrap(True)
        self.round_label.setTextFormat(Qt.TextFormat.PlainText)
        self.grid_host = QWidget()
        self.grid = QGridLayout(self.grid_host)
        self.meter = QProgressBar()
        self.meter.setRange(0, -METER_FLOOR_DBFS)
        self.meter.setAccessibleName("Microphone level")
        self.meter.setValue(0)  # below its minimum (unset) a bar shows no text
        self.inputs = QComboBox()  # "pick another input": the mics the audio server offers
        self.inputs.setAccessibleName("Microphone input")
        inputs_label = QLabel("&Input:")
        inputs_label.setBuddy(self.inputs)
        self.inputs_row = QHBoxLayout()
        self.inputs_row.addWidget(inputs_label)
        self.inputs_row.addWidget(self.inputs, 1)
        self.dnd_switch = DndSwitch(self.dnd)
        self.pinger_row = QHBoxLayout()
        self.checks: list = []
        self.info = None
        self.close_buttons: dict[int, QPushButton] = {}
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        again = buttons.addButton("Check &again", QDialogButtonBox.ButtonRole.ActionRole)
        again.clicked.connect(self.refresh)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.round_label)
        layout.addWidget(self.grid_host)
        layout.addLayout(self.inputs_row)
        layout.addWidget(self.meter)
        layout.addWidget(self.dnd_switch)
        layout.addLayout(self.pinger_row)
        layout.addStretch(1)  # spare height below the checks, not a band around a line
        layout.addWidget(buttons)
        self.meter.setFormat("level: the microphone opens with the window")
        self.dnd.changed.connect(self.refresh)
        self._fill_inputs()
        self.inputs.activated.connect(lambda _i: self.pick_input(self.inputs.currentData()))
        self.refresh()

    def _fill_inputs(self) -> None:
        devices = self._devices() or []
        self.inputs.clear()
        for ident, description, default in devices:
            self.inputs.addItem(description + (" (default)" if default else ""), ident)
            if default:
                self.inputs.setCurrentIndex(self.inputs.count() - 1)
        if not devices:
            self.inputs.addItem("No input to pick", "")
        self.inputs.setEnabled(len(devices) > 1)

    def chosen_input(self) -> str:
        return self.inputs.currentData() or ""

    def pick_input(self, ident: str) -> None:
        """Another input: the check names it and the level follows it."""
        index = self.inputs.findData(ident)
        if index >= 0:
            self.inputs.setCurrentIndex(index)
        self.refresh()
        if self._meter_listener is not None:
            self._stop_listening()
            self._start_listening()

    def _devices(self):
        try:
            return input_devices()
        except AudioUnavailable:
            return None

    def refresh(self) -> None:
        status = self.dnd.status()
        self.info, self.checks = gather(
            self.ctx.db,
            self.ctx.now(),
            devices=self._devices(),
            dnd_paused=status.paused,
            dnd_automatic=status.automatic,
            power_bus=self.power_bus,
            chosen_input=self.chosen_input(),
            prefs=self.ctx.prefs,
            settings=self.ctx.settings,
        )
        self.round_label.setText(
            f"Next round: {self.info['type']}, {self.info['when']}"
            if self.info
            else "No round ahead."
        )
        while self.grid.count():
            self.grid.takeAt(0).widget().deleteLater()
        for row, check in enumerate(self.checks):
            mark = QLabel(MARKS[check.ok])
            mark.setAccessibleName({True: "ok", False: "to do", None: "cannot tell"}[check.ok])
            say = QLabel(check.say)
            say.setWordWrap(True)
            say.setTextFormat(Qt.TextFormat.PlainText)
            say.setAccessibleName(check.id)
            say.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            self.grid.addWidget(mark, row, 0)
            self.grid.addWidget(say, row, 1)
        self.grid.setColumnStretch(1, 1)
        self._show_pingers()
        self._fit()

    def _fit(self, *, shrink: bool = False) -> None:
        """Tall enough for every wrapped line at this width (200 % text too); on
        opening (``shrink``) no taller either: the lines wrapped more before it was shown."""
        self.layout().activate()
        need = self.layout().totalHeightForWidth(self.width())
        if need > self.height() or (shrink and need < self.height()):
            self.resize(self.width(), need)

    def _show_pingers(self) -> None:
        while self.pinger_row.count():
            item = self.pinger_row.takeAt(0)
            if item.widget() is not None:
                item.widget().deleteLater()
        self.close_buttons = {}
        for pinger in pingers.find_pingers():
            button = QPushButton(f"Close {pinger.name}…")
            button.setAccessibleName(f"Close {pinger.name}")
            button.clicked.connect(lambda _=False, p=pinger: self.close_pinger(p))
            self.pinger_row.addWidget(button)
            self.close_buttons[pinger.pid] = button
        if self.close_buttons:
            self.pinger_row.addStretch(1)  # the buttons keep their size, on the left

    def close_pinger(self, pinger) -> QMessageBox:
        """Ask (without an event loop of its own), then ask the program to quit; never
        without a yes. Returns the question, open."""
        return ask(
            self,
            f"Close {pinger.name}?",
            f"Ask {pinger.name} (process {pinger.pid}) to quit? Unsaved work in it may ask "
            "to be saved first.",
            lambda: self._closed(pinger),
        )

    def _closed(self, pinger) -> None:
        sent = pingers.close_politely(pinger)
        button = self.close_buttons.get(pinger.pid)
        if button is not None:
            button.setEnabled(False)
            button.setText(f"{pinger.name}: asked to quit" if sent else f"{pinger.name}: gone")
        self._check_when_gone(pinger.pid, GONE_TRIES)

    def _check_when_gone(self, pid: int, tries: int) -> None:
        """The checks again once the program has quit (it said "Running: Slack" after
        Slack was gone), or after a few seconds when it takes longer."""
        if tries <= 0 or not pingers.still_running(pid):
            self.refresh()
            return
        QTimer.singleShot(GONE_POLL_MS, self, lambda: self._check_when_gone(pid, tries - 1))

    # the live level -------------------------------------------------------------------

    def showEvent(self, event) -> None:
        super().showEvent(event)
        self._fit(shrink=not event.spontaneous())
        if self._listen and self._meter_listener is None:
            self._start_listening()

    def _start_listening(self) -> None:
        listener = MicListener(self, device=self.chosen_input() or None)
        listener.levels.connect(self._level)
        self._speech_heard = False
        listener.speech_started.connect(self._heard)
        said: list[str] = []
        listener.error.connect(said.append)
        if listener.start():
            self._meter_listener = listener
        else:
            listener.deleteLater()
            self.meter.setValue(0)  # a bar below its minimum shows no text at all
            self.meter.setFormat(closed_words(said[-1] if said else ""))

    def _stop_listening(self) -> None:
        listener, self._meter_listener = self._meter_listener, None
        if listener is not None:
            listener.stop()
            listener.deleteLater()

    def _level(self, peak: float, _rms: float) -> None:
        self.meter.setValue(max(0, min(-METER_FLOOR_DBFS, int(round(peak - METER_FLOOR_DBFS)))))
        self.meter.setFormat(level_words(peak, self._speech_heard))

    def _heard(self, _at: float) -> None:
        self._speech_heard = True

    def done(self, result: int) -> None:
        self._stop_listening()
        super().done(result)


def open_preflight(ctx, bus, dnd, parent=None) -> PreflightWindow:
    """The preflight window already open (refreshed and raised), or a new one."""
    from PySide6.QtWidgets import QApplication

    window = next(
        (
            w
            for w in QApplication.topLevelWidgets()
            if isinstance(w, PreflightWindow) and w.isVisible()
        ),
        None,
    )
    if window is None:
        window = PreflightWindow(ctx, bus, dnd, parent.window() if parent is not None else None)
        window.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    else:
        window.refresh()
    window.show()
    window.raise_()
    return window
