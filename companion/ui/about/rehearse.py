"""The rehearse bar: the current segment, its running time against its budget, Next/Stop."""

from __future__ import annotations

import time
from collections.abc import Callable

from PySide6.QtCore import QTimer, Signal
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QProgressBar, QPushButton, QWidget

from companion.core.about.rehearsal import Rehearsal, Step
from companion.ui.theme import status_color


class RehearseBar(QFrame):
    #: the segment now being spoken (its id), "" when the rehearsal ends
    segment_changed = Signal(str)
    #: the rehearsal finished or was stopped; carries the Rehearsal
    finished = Signal(object)

    def __init__(
        self, parent: QWidget | None = None, monotonic: Callable[[], float] = time.monotonic
    ):
        super().__init__(parent)
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.setAccessibleName("Rehearsal")
        self.monotonic = monotonic
        self.rehearsal: Rehearsal | None = None
        layout = QHBoxLayout(self)
        self.title = QLabel()
        self.title.setAccessibleName("Current segment")
        self.clock = QLabel()
        self.clock.setAccessibleName("Segment time")
        self.progress = QProgressBar()
        self.progress.setAccessibleName("Segment budget used")
        self.progress.setTextVisible(False)
        self.progress.setMaximumWidth(200)
        self.next_button = QPushButton("&Next segment")
        self.next_button.setAccessibleName("Next segment")
        self.next_button.setToolTip("Done with this segment (Space while this button has focus)")
        self.stop_button = QPushButton("Stop (Esc)")
        self.stop_button.setAccessibleName("Stop rehearsal")
        layout.addWidget(QLabel("Rehearsing:"))
        layout.addWidget(self.title, 1)
        layout.addWidget(self.clock)
        layout.addWidget(self.progress)
        layout.addWidget(self.next_button)
        layout.addWidget(self.stop_button)
        self.next_button.clicked.connect(self.next_segment)
        self.stop_button.clicked.connect(self.stop)
        self._timer = QTimer(self)
        self._timer.setInterval(100)
        self._timer.timeout.connect(self._tick)
        self.hide()

    def tab_order(self) -> list[QWidget]:
        """Its controls in reading order, for the page's Tab chain."""
        return [self.next_button, self.stop_button]

    @property
    def running(self) -> bool:
        return self.rehearsal is not None and self.rehearsal.running

    def start(self, steps: tuple[Step, ...]) -> None:
        self.rehearsal = Rehearsal(steps)
        self.rehearsal.start(self.monotonic())
        self.show()
        self._timer.start()
        self._show_current()
        self.next_button.setFocus()

    def next_segment(self) -> None:
        if not self.running:
            return
        self.rehearsal.advance(self.monotonic())
        if self.rehearsal.finished:
            self._end()
        else:
            self._show_current()

    def stop(self) -> None:
        if not self.running:
            return
        self.rehearsal.finish(self.monotonic())
        self._end()

    def _end(self) -> None:
        self._timer.stop()
        self.hide()
        self.segment_changed.emit("")
        self.finished.emit(self.rehearsal)

    def _show_current(self) -> None:
        step = self.rehearsal.current
        last = self.rehearsal.index == len(self.rehearsal.steps) - 1
        # one key on every segment: Alt+N, also on the last one ("Finish" has no N)
        self.next_button.setText("Finish (Alt+&N)" if last else "&Next segment")
        self.title.setText(
            f"<b>{step.title}</b> ({self.rehearsal.index + 1} of {len(self.rehearsal.steps)})"
        )
        self.progress.setMaximum(int(step.budget_seconds * 10))
        self.segment_changed.emit(step.id)
        self._tick()

    def _tick(self) -> None:
        if not self.running:
            return
        step = self.rehearsal.current
        elapsed = self.rehearsal.elapsed_in_current(self.monotonic())
        over = elapsed > step.budget_seconds

        color = status_color("bad" if over else "good").name()
        self.clock.setText(
            f"<span style='color:{color}'>{elapsed:.0f} / {step.budget_seconds:.0f} s</span>"
        )
        self.progress.setValue(min(self.progress.maximum(), int(elapsed * 10)))
