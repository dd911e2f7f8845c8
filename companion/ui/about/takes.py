"""The trend of the kept takes (companion.core.about.takes): three small plots of the
last takes (time against the target band, words per minute, fillers) and one sentence
on what changed most since the previous take. Shown only once a take is kept; the
KeptTakes part reads and deletes them."""

from __future__ import annotations

from PySide6.QtCore import QObject, QPointF, QRectF, Qt, Signal
from PySide6.QtGui import QPainter, QPen
from PySide6.QtWidgets import QLabel, QMenu, QPushButton, QVBoxLayout, QWidget

from companion.core.about.takes import delete_take, takes_or_empty, what_changed
from companion.core.timeutil import parse_stored, to_local
from companion.ui.widgets.opening import ask

LAST = 8


def figure_text(value: float) -> str:
    """A plot's last figure as people read it: 171.6, not 171.61; 95, not 95.0."""
    return f"{round(value, 1):g}"


class Sparkline(QWidget):
    """One figure across the takes, oldest left; ``band`` shaded (the target)."""

    def __init__(self, title: str, parent=None):
        super().__init__(parent)
        self.title = title
        self.values: list[float] = []
        self.band: tuple[float, float] | None = None
        self.setMinimumHeight(42)
        self.setAccessibleName(title)

    def show_values(self, values: list[float], band=None) -> None:
        self.values, self.band = values, band
        last = figure_text(values[-1]) if values else "none"
        self.setAccessibleDescription(f"{self.title}: {len(values)} takes, the last {last}")
        self.update()

    def paintEvent(self, _event) -> None:
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        pal = self.palette()
        text_h = self.fontMetrics().height()
        painter.setPen(pal.windowText().color())
        last = figure_text(self.values[-1]) if self.values else ""
        painter.drawText(0, text_h - 2, f"{self.title} {last}")
        area = QRectF(4, text_h + 2, self.width() - 8, self.height() - text_h - 6)
        if not self.values:
            return
        low = min(self.values + ([self.band[0]] if self.band else []))
        high = max(self.values + ([self.band[1]] if self.band else []))
        span = (high - low) or 1.0

        def y(v: float) -> float:
            return area.bottom() - (v - low) / span * area.height()

        if self.band:
            tint = pal.highlight().color()
            tint.setAlpha(50)
            painter.fillRect(
                QRectF(
                    area.left(), y(self.band[1]), area.width(), y(self.band[0]) - y(self.band[1])
                ),
                tint,
            )
        step = area.width() / max(1, len(self.values) - 1)
        points = [QPointF(area.left() + n * step, y(v)) for n, v in enumerate(self.values)]
        painter.setPen(QPen(pal.windowText().color(), 2))
        if len(points) > 1:
            painter.drawPolyline(points)
        for point in points:
            painter.drawEllipse(point, 2.5, 2.5)


def take_label(take: dict) -> str:
    """One kept take in a menu: when, how long, how fast."""

    at = parse_stored(take.get("at"))
    when = f"{to_local(at):%d %b %H:%M}" if at else "?"
    parts = [
        when,
        f"{take['seconds']:.0f} s" if isinstance(take.get("seconds"), int | float) else "",
    ]
    if isinstance(take.get("measured_wpm"), int | float):
        parts.append(f"{take['measured_wpm']:.0f} wpm")
    return " · ".join(p for p in parts if p)


class TakesTrend(QWidget):
    #: the user chose to delete the kept take with this id (the page asks first)
    delete_requested = Signal(int)

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setAccessibleName("Kept takes")
        self.heading = QLabel()
        self.heading.setTextFormat(Qt.TextFormat.PlainText)
        self.time = Sparkline("Time (s)")
        self.wpm = Sparkline("Words per minute")
        self.fillers = Sparkline("Fillers")
        self.sentence = QLabel()
        self.sentence.setWordWrap(True)
        self.sentence.setTextFormat(Qt.TextFormat.PlainText)
        self.sentence.setAccessibleName("What changed most")
        self.delete_button = QPushButton("Delete a take…")
        self.delete_button.setAccessibleName("Delete a kept take")
        self.delete_menu = QMenu(self.delete_button)
        self.delete_button.setMenu(self.delete_menu)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        for widget in (self.heading, self.time, self.wpm, self.fillers, self.sentence):
            layout.addWidget(widget)
        layout.addWidget(self.delete_button, 0, Qt.AlignmentFlag.AlignLeft)
        self.hide()

    def show_takes(self, takes: list[dict], target: tuple[float, float]) -> None:
        last = takes[-LAST:]
        self.setVisible(bool(last))
        self.delete_menu.clear()
        for take in reversed(takes):  # the newest first: the one most often regretted
            action = self.delete_menu.addAction(take_label(take))
            action.triggered.connect(lambda _=False, i=take["id"]: self.delete_requested.emit(i))
        if not last:
            return
        self.heading.setText(f"Kept takes: the last {len(last)} of {len(takes)}")

        def series(key: str) -> list[float]:
            return [float(t[key]) for t in last if isinstance(t.get(key), int | float)]

        self.time.show_values(series("seconds"), target)
        self.wpm.show_values(series("measured_wpm"))
        self.fillers.show_values(series("fillers"))
        self.sentence.setText(
            what_changed(last[-2], last[-1]) if len(last) > 1 else "Keep another take to compare."
        )


class KeptTakes(QObject):
    """The kept takes shown in ``trend`` (companion about rehearse --keep), read again on
    :meth:`show`; a delete asked for in the trend is confirmed first."""

    def __init__(self, page: QWidget, ctx, trend: TakesTrend):
        super().__init__(page)
        self._page = page  # the question's parent
        self.ctx = ctx
        self._trend = trend
        trend.delete_requested.connect(self.delete)

    def show(self) -> None:
        target = self.ctx.content.pitch_plan().target
        self._trend.show_takes(takes_or_empty(self.ctx.db), target)

    def delete(self, take_id: int):
        """Ask, then delete one kept take (its figures; no audio was ever kept)."""

        def yes() -> None:
            delete_take(self.ctx.db, take_id)
            self.show()

        question = "Delete this kept take's figures for good?"
        return ask(self._page, "Delete the take?", question, yes)
