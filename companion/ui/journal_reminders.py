"""Tray reminders for thank-you notes due within four hours.

The main window (or the application object) makes one ``JournalReminders(ctx, bus)``
after first paint and calls ``start()``; it checks every five minutes and emits
``bus.notify`` once per loop per session.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, QTimer

CHECK_EVERY_MS = 5 * 60 * 1000


class JournalReminders(QObject):
    def __init__(self, ctx, bus, parent: QObject | None = None):
        super().__init__(parent)
        self.ctx = ctx
        self.bus = bus
        self.reminded: set[int] = set()
        self.timer = QTimer(self)
        self.timer.setInterval(CHECK_EVERY_MS)
        self.timer.timeout.connect(self.check)

    def start(self) -> None:
        self.timer.start()
        QTimer.singleShot(0, self.check)

    def check(self) -> list[int]:
        """Notify about each unsent thank-you due within four hours; returns the loop ids."""
        from companion.core.journal import thank_you_reminders

        try:
            due = thank_you_reminders(self.ctx.db, self.ctx.now(), self.ctx.content.thank_you_after)
        except Exception:  # a reminder must never take the app down; try again next time
            return []
        fresh = [t for t in due if t.loop_id not in self.reminded]
        now = self.ctx.now()
        for t in fresh:
            self.reminded.add(t.loop_id)
            left = t.due_at - now
            if left.total_seconds() <= 0:
                when = "is overdue"
            else:
                hours, rem = divmod(int(left.total_seconds()) // 60, 60)
                when = f"is due in {hours} h {rem:02d} min" if hours else f"is due in {rem} min"
            self.bus.notify.emit(
                "Thank-you note",
                f"Your thank-you to {t.company or 'the team'} {when}. Open the Journal to copy the draft.",
            )
        return [t.loop_id for t in fresh]
