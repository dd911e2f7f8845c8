"""The card's two timers: a tick each second, only while a round runs and the card
shows; otherwise one wake when the status line's countdown changes its words ("in 12
min" to "in 11 min"), never a second's polling (DAY.md).

Interface: ``CardTicker(parent, tick=, wake=)``; ``sync(running, visible, until, now)``
after each render or tick, ``stop()`` when the card hides.
"""

from __future__ import annotations

import datetime as dt
import math

from PySide6.QtCore import QObject, QTimer

TICK_MS = 1000


class CardTicker(QObject):
    def __init__(self, parent, *, tick, wake):
        super().__init__(parent)
        self.tick_timer = QTimer(self, interval=TICK_MS)
        self.tick_timer.timeout.connect(tick)
        # before a round: one wake when the countdown's words change (not each second)
        self.line_timer = QTimer(self, singleShot=True)
        self.line_timer.timeout.connect(wake)

    def sync(self, running: bool, visible: bool, until: dt.datetime | None, now) -> None:
        """``until``: when the line's words change next (None: never); ``now``: the
        clock, read only when the card has to wake for that."""
        want = running and visible
        if want and not self.tick_timer.isActive():
            self.tick_timer.start()
        elif not want and self.tick_timer.isActive():
            self.tick_timer.stop()
        if want or until is None or not visible:
            self.line_timer.stop()
            return
        wait = (until - now()).total_seconds()
        self.line_timer.start(max(200, math.ceil(wait * 1000)))

    def stop(self) -> None:
        self.tick_timer.stop()
        self.line_timer.stop()
