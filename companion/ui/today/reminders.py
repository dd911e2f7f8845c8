"""Today's "Reminders" box: a row per thing still to write or send (the round's capture,
each loop's thank-you note), each with its button. A part of the Today page."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QGroupBox, QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from companion.core.day.clock import countdown_text
from companion.ui.today.redraw import clear


class Reminders(QGroupBox):
    """The capture and thank-you rows, redrawn only when they change."""

    def __init__(self, bus, parent=None):
        super().__init__("Reminders", parent)
        self.bus = bus
        self.setAccessibleName("Reminders")
        self._layout = QVBoxLayout(self)
        self._rows: tuple[str, ...] | None = None  # None: never drawn

    def render(self, view) -> None:
        rows = self._rows_of(view)
        signature = tuple(text for text, _b, _s in rows)
        if signature == self._rows:
            return
        self._rows = signature
        clear(self._layout)
        for text, button_text, slot in rows:
            self._add_row(text, button_text, slot)
        self.setVisible(bool(rows))

    def _rows_of(self, view) -> list[tuple]:
        """(text, button text, slot) for each reminder ``view`` calls for."""
        now = view.now
        rows = []
        if view.capture_due_by is not None and view.capture_round_id:
            left = countdown_text(view.capture_due_by - now).removeprefix("in ")
            rnd = view.round(view.capture_round_id)
            rows.append(
                (
                    f"{rnd.title if rnd else 'The round'}: write down what was asked ({left} left).",
                    "&Write it down",
                    lambda _=False, rid=view.capture_round_id: self.bus.capture_round.emit(rid),
                )
            )
        for loop, due in view.thank_yous:
            if any(
                d.round.loop_id == loop.id and d.state in ("running", "scheduled")
                for d in view.rounds
            ):
                continue  # the loop is not over yet
            if not view.thank_you_open(loop.id):
                continue  # past its window
            # each loop that is over keeps its row, whatever loop comes next
            when = "now" if due <= now else f"by {due.astimezone(now.tzinfo):%a %H:%M}"
            rows.append(
                (
                    f"{loop.company}: send the thank-you note {when}.",
                    "Open &journal",
                    lambda _=False, lid=loop.id: self.bus.open_loop.emit(lid),
                )
            )
        return rows

    def _add_row(self, text: str, button_text: str, slot) -> None:
        row = QWidget()
        layout = QHBoxLayout(row)
        layout.setContentsMargins(0, 0, 0, 0)
        label = QLabel(text)
        label.setWordWrap(True)
        label.setTextFormat(Qt.TextFormat.PlainText)  # a company or round title is not HTML
        button = QPushButton(button_text)
        button.setAccessibleName(f"{button_text.replace('&', '')}: {text}")
        button.clicked.connect(slot)
        layout.addWidget(label, 1)
        layout.addWidget(button)
        self._layout.addWidget(row)
