"""The card's header: drag strip, title, clock, Start/End, Glance, options and close, and
one status line under them (the countdown, "viewing ...", what the next press does).

Interface: ``render(card_state)`` and ``show_clock(status)``; it emits ``pressed``,
``glance_toggled`` and ``close_requested``. Nothing in it grows the card: the title and
the line elide (their tooltips hold the whole text), the buttons keep their size.
"""

from __future__ import annotations

from PySide6.QtCore import QPoint, QSize, Qt, Signal
from PySide6.QtGui import QFontMetrics, QMouseEvent, QPainter
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QSizePolicy, QToolButton, QVBoxLayout

from companion.core.cue import timebox
from companion.core.cue.card import CardState
from companion.ui.cue.sections import label, repolish, tool_button
from companion.ui.cue.style import HANDLE
from companion.ui.weak_calls import WeakAttribute
from companion.ui.widgets.palette_sheet import palette_sheet


class ElidedLabel(QLabel):
    """One line that never asks for more width than it has: too long, it ends in '…'."""

    def __init__(self, role: str = "", parent=None):
        super().__init__(parent)
        self.setTextFormat(Qt.TextFormat.PlainText)
        # takes the room left, down to a few letters; never asks for its whole text
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
        if role:
            self.setProperty("role", role)

    def minimumSizeHint(self) -> QSize:  # noqa: N802 (Qt API)
        metrics = QFontMetrics(self.font())
        return QSize(metrics.averageCharWidth() * 3, metrics.height())

    def sizeHint(self) -> QSize:  # noqa: N802 (Qt API)
        return self.minimumSizeHint()

    def shown_text(self) -> str:
        rect = self.contentsRect()
        return QFontMetrics(self.font()).elidedText(
            self.text(), Qt.TextElideMode.ElideRight, max(0, rect.width())
        )

    def paintEvent(self, _event) -> None:  # noqa: N802 (Qt API)
        painter = QPainter(self)
        painter.setPen(self.palette().color(self.foregroundRole()))
        painter.drawText(
            self.contentsRect(),
            int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter),
            self.shown_text(),
        )
        painter.end()


class CardHeader(QFrame):
    """The title strip (drag it to move a frameless card) and the status line."""

    _window = WeakAttribute()  # the card keeps its header, not the other way round
    pressed = Signal()  # Start/End: what it does is the card state's next_press
    glance_toggled = Signal(bool)
    close_requested = Signal()

    def __init__(self, window, menu, parent=None):
        super().__init__(parent)
        self._window = window
        self._press: QPoint | None = None
        self.setObjectName("cueHandle")
        palette_sheet(self, HANDLE)  # its colours, and the clock's near the end
        self.setCursor(Qt.CursorShape.SizeAllCursor)
        self.setToolTip("Drag to move the card")
        self.setAccessibleName("Move the card")
        outer = QVBoxLayout(self)
        outer.setContentsMargins(6, 3, 3, 3)
        outer.setSpacing(0)
        head = QHBoxLayout()
        head.setSpacing(2)
        grip = QLabel("\u2237")
        grip.setProperty("role", "small")
        self.title = ElidedLabel("title")  # elides, never shrinks (tooltip: the whole title)
        self.title.setAccessibleName("Round type")
        self.clock = label("", "clock", wrap=False)
        self.clock.setAccessibleName("Round timer")
        self.clock.setVisible(False)
        self.start_button = tool_button(
            "Start",
            "Start round",
            "Start the round and its timer; records it in the journal (Ctrl+Enter)",
        )
        self.start_button.setObjectName("cueStart")
        self.start_button.clicked.connect(self.pressed)
        self.glance_button = tool_button(
            "Glance",
            "Glance mode",
            "Only the current step or nudge, in large type (G)",
            checkable=True,
        )
        self.glance_button.toggled.connect(self.glance_toggled)
        self.menu_button = tool_button("\u22ef", "Card options", "Opacity, text size, window frame")
        self.menu_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.menu_button.setMenu(menu)
        self.close_button = tool_button(
            "\u2715", "Close the card", "Close the card (the round keeps running)"
        )
        self.close_button.clicked.connect(self.close_requested)
        head.addWidget(grip)
        head.addWidget(self.title, 1)
        for widget in (
            self.clock,
            self.start_button,
            self.glance_button,
            self.menu_button,
            self.close_button,
        ):
            widget.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Fixed)
            head.addWidget(widget)
        outer.addLayout(head)
        self.line = ElidedLabel("small")  # the countdown, "viewing ...", the next press
        self.line.setAccessibleName("Round status")
        self.line.setVisible(False)
        outer.addWidget(self.line)

    @property
    def controls(self) -> tuple[QToolButton, ...]:
        return (self.start_button, self.glance_button, self.menu_button, self.close_button)

    def render(self, state: CardState) -> None:
        if self.title.text() != state.title:
            self.title.setText(state.title)
        self.title.setToolTip(state.tooltip)
        self.title.setAccessibleDescription(state.tooltip)
        running = state.next_press == "end"
        if self.start_button.text() != state.press_text:
            self.start_button.setText(state.press_text)
        self.start_button.setToolTip(state.press_tip)
        self.start_button.setAccessibleName(
            {
                "end": "End round",
                "focus-capture": "Bring the capture forward",
                "confirm-unscheduled": "Start an extra round",
            }.get(state.next_press, "Start round")
        )
        if self.start_button.property("running") != running:
            self.start_button.setProperty("running", running)
            repolish(self.start_button)
        self.show_line(state)
        self.show_clock(state.status)

    def show_line(self, state: CardState) -> None:
        """The second line: the countdown before a round, "viewing ...", the next press."""
        line = state.line
        if state.next_press == "confirm-unscheduled":
            line = "A round just ended: press Start again for an extra round"
        elif state.next_press == "focus-capture":
            line = "The capture is open: Start/End brings it forward"
        if self.line.text() != line:
            self.line.setText(line)
            self.line.setToolTip(line)
            self.line.setVisible(bool(line))

    def show_clock(self, status: timebox.TimeboxStatus | None) -> None:
        """Each second while a round runs: the time left (or over), nothing else."""
        if status is None:
            if self.clock.isVisible() or self.clock.text():
                self.clock.setText("")
                self.clock.setVisible(False)
            return
        left = timebox.format_clock(status.remaining)
        text = left if status.remaining >= 0 else f"+{left[1:]}"
        if text != self.clock.text():
            self.clock.setText(text)
        self.clock.setVisible(True)
        if self.clock.property("phase") != status.phase:
            self.clock.setProperty("phase", status.phase)
            repolish(self.clock)

    def set_glance(self, on: bool) -> None:
        self.glance_button.blockSignals(True)
        self.glance_button.setChecked(on)
        self.glance_button.blockSignals(False)

    # --- dragging -------------------------------------------------------------------

    def mousePressEvent(self, event: QMouseEvent) -> None:  # noqa: N802 (Qt API)
        if event.button() != Qt.MouseButton.LeftButton:
            return super().mousePressEvent(event)
        handle = self._window.windowHandle()
        # the compositor moves the window where it can (the only way on Wayland)
        if handle is not None and handle.startSystemMove():
            self._press = None
        else:
            self._press = event.globalPosition().toPoint() - self._window.frameGeometry().topLeft()
        event.accept()

    def mouseMoveEvent(self, event: QMouseEvent) -> None:  # noqa: N802 (Qt API)
        if self._press is not None and event.buttons() & Qt.MouseButton.LeftButton:
            self._window.move(event.globalPosition().toPoint() - self._press)
            event.accept()
        else:
            super().mouseMoveEvent(event)

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:  # noqa: N802 (Qt API)
        self._press = None
        super().mouseReleaseEvent(event)
