"""How the card window shows itself: a tool window kept on top (framed or not, ghost
mode's flags added), its opacity and text size, and its place on the screen, saved a
moment after a move or a resize (per screen layout, companion/ui/cue/geometry.py).

Interface: ``CardAppearance(window, memory, ghost)``; ``apply_flags()``, ``apply()``,
``set_opacity(pct)``, ``change_font(delta)``, ``set_frameless(on)``,
``restore_geometry(glance)``, ``save_geometry(glance)``, ``moved()``; it emits
``shown(opacity, frameless)`` for the options menu's checks.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Qt, QTimer, Signal

from companion.core.cue import state as cue_state
from companion.ui.cue.geometry import CardPlacement
from companion.ui.cue.memory import SAVE_DELAY_MS
from companion.ui.cue.style import style_sheet
from companion.ui.weak_calls import WeakAttribute


class CardAppearance(QObject):
    shown = Signal(int, bool)  # the opacity and frameless the card shows now
    window = WeakAttribute()  # the card keeps its appearance, not the other way round

    def __init__(self, window, memory, ghost):
        super().__init__(window)
        self.window = window
        self.memory = memory  # the card's saved look (companion/ui/cue/memory.py)
        self.ghost = ghost  # its flags and opacity while a ghost (companion/ui/cue/ghost.py)
        self.placement = CardPlacement(window, memory.settings)
        self._timer = QTimer(self, singleShot=True, interval=SAVE_DELAY_MS)
        self._timer.timeout.connect(self.save_geometry)
        self.apply_flags()

    @property
    def placed(self) -> bool:
        """Restored once: moves and resizes are saved from then on."""
        return self.placement.ready

    def apply_flags(self) -> None:
        flags = Qt.WindowType.Tool | Qt.WindowType.WindowStaysOnTopHint
        if self.memory.state.frameless:
            flags |= Qt.WindowType.FramelessWindowHint
        self.window.setWindowFlags(flags | self.ghost.flags())

    def apply(self) -> None:
        state = self.memory.state
        self.window.setWindowOpacity(self.ghost.shown_opacity(state.opacity) / 100)
        self.window.setStyleSheet(style_sheet(state.font_pt))
        self.shown.emit(state.opacity, state.frameless)

    def set_opacity(self, pct: int) -> None:
        self.memory.state.opacity = cue_state.clamp_opacity(pct)
        self.memory.change("opacity")
        self.apply()

    def change_font(self, delta: int) -> None:
        self.memory.state.font_pt = cue_state.clamp_font(self.memory.state.font_pt + delta)
        self.memory.change("font_pt")
        self.apply()

    def set_frameless(self, frameless: bool) -> None:
        if self.memory.state.frameless == frameless:
            return
        self.memory.state.frameless = frameless
        self.memory.change("frameless")
        window = self.window
        geometry = window.geometry()
        visible = window.isVisible()
        self.apply_flags()  # hides the window
        window.setGeometry(geometry)
        if visible:
            window.show()

    def restore_geometry(self) -> bool:
        return self.placement.restore(self.memory.state.glance)

    def save_geometry(self, glance: bool | None = None) -> None:
        self._timer.stop()
        self.placement.save(self.memory.state.glance if glance is None else glance)

    def moved(self) -> None:
        """The window moved or was resized: its place is saved a moment later."""
        if self.placement.ready:
            self._timer.start()

    def screens_changed(self, *_args) -> None:
        self.placement.rescue()
