"""Ghost mode on the card: clicks pass through it to the window beneath, it dims to the
ghost opacity and wears a small "ghost · Ctrl+Alt+T" mark. The rules are in
:mod:`companion.core.cue.ghost`; this part applies them to the window.

Mounted by the card in a few lines: ``GhostMode(card)`` before its flags are set;
``flags()`` added to them; ``shown_opacity(pct)`` for the window's opacity; the ⋯ menu's
``ghost`` entry to ``toggle``. The global hotkeys call ``toggle`` and ``step_opacity``.

Under a plain X11 session the card leaves the window manager while it is a ghost
(override-redirect: the WM's frame would take the click otherwise) and is given back,
managed, on top and where it was, when ghost mode ends. Under XWayland and Wayland it
stays managed with an empty input shape. Never hidden from screen capture.
"""

from __future__ import annotations

import logging
import os

from PySide6.QtCore import QEvent, QObject, QPoint, Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QLabel

from companion.core import hotkeys as hk
from companion.core.cue import ghost as core
from companion.ui.cue.geometry import screens
from companion.ui.weak_calls import WeakAttribute
from companion.ui.widgets.palette_sheet import palette_sheet

log = logging.getLogger(__name__)

_INPUT = Qt.WindowType.WindowTransparentForInput
_BYPASS = Qt.WindowType.X11BypassWindowManagerHint
MARGIN = 6


def _box(parent, name: str) -> QLabel:
    """A label drawn over the card, in the highlight colours, that clicks pass through."""
    box = QLabel(parent)
    box.setObjectName(name)
    box.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents, True)
    palette_sheet(
        box,
        f"#{name} {{ background: palette(highlight); color: palette(highlighted-text);"
        " border-radius: 6px; padding: 2px 8px; }",
    )
    box.hide()
    return box


class GhostMark(QObject):
    """The mark at the card's top right, over the header's buttons (a ghost's buttons
    take no clicks anyway); the first time, the notice along the card's bottom."""

    def __init__(self, card):
        super().__init__(card)
        self.card = card
        self.mark = _box(card, "ghostMark")
        self.mark.setAccessibleName("Ghost mode")
        self.mark.setAlignment(Qt.AlignmentFlag.AlignCenter)
        small = self.mark.font()
        small.setPointSizeF(small.pointSizeF() * 0.9)
        small.setBold(True)
        self.mark.setFont(small)
        self.note = _box(card, "ghostNote")
        self.note.setText(core.NOTICE)
        self.note.setWordWrap(True)
        self.note.setAccessibleName("Ghost mode notice")

    def render(self, text: str, telling: bool) -> None:
        self.mark.setText(text)
        self.mark.setToolTip(f"Clicks pass through the card; {text.split(' · ')[-1]} ends it")
        self.mark.show()
        self.note.setVisible(telling)
        self.place()

    def hide(self) -> None:
        self.mark.hide()
        self.note.hide()

    def isVisible(self) -> bool:  # noqa: N802 (like the widgets')
        return self.mark.isVisible()

    def place(self) -> None:
        card = self.card
        width, height = card.width(), card.height()
        self.mark.adjustSize()
        # over the header's buttons, from Start to the right edge, centred on the header
        header = getattr(card, "header", None)
        left, top = width - self.mark.width() - MARGIN, MARGIN // 2
        if header is not None and header.isVisible():
            origin = header.mapTo(card, QPoint(0, 0))
            start = card.start_button.mapTo(card, QPoint(0, 0)).x()
            left = min(left, start)
            top = origin.y() + max((header.height() - self.mark.height()) // 2, 0)
        left = max(left, 0)
        self.mark.setFixedWidth(max(width - left - MARGIN // 2, 1))
        self.mark.move(left, top)
        if self.note.isVisibleTo(self.card):
            self.note.setFixedWidth(max(width - 2 * MARGIN, 1))
            self.note.setFixedHeight(self.note.heightForWidth(self.note.width()))
            self.note.move(MARGIN, max(height - self.note.height() - MARGIN, 0))
            self.note.raise_()
        self.mark.raise_()


class GhostMode(QObject):
    """The card's ghost mode (``on``), its opacity per screen layout, its mark."""

    card = WeakAttribute()  # the card keeps its ghost mode, not the other way round

    def __init__(self, card, *, env=None):
        super().__init__(card)
        self.card = card
        self.settings = card.ctx.settings
        self.prefs = card.ctx.prefs
        self.env = os.environ if env is None else env
        self.state = core.Ghost(core.GhostMemory.from_dict(self._load()))
        self.strategy = core.strategy(QGuiApplication.platformName(), self.env)
        self.mark: GhostMark | None = None  # made the first time ghost mode is used
        card.installEventFilter(self)
        app = QGuiApplication.instance()
        app.screenAdded.connect(self._screens_changed)
        app.screenRemoved.connect(self._screens_changed)

    @property
    def on(self) -> bool:
        return self.state.on

    # -------------------------------------------------------------- what the card asks

    def flags(self) -> Qt.WindowType:
        """The window flags ghost mode adds now (none when it is off)."""
        if not self.on:
            return Qt.WindowType(0)
        return _INPUT | _BYPASS if self.strategy == core.BYPASS_WM else _INPUT

    def shown_opacity(self, card_opacity: int) -> int:
        """The opacity the window shows (ghost mode's, or the card's), keeping the card's
        own for this screen layout once it shows (before that, the layout's kept one may
        still be brought back)."""
        found, _ = screens()
        shows = self.card.isVisible()
        if not self.on and shows and self.state.memory.remember(found, "card", card_opacity):
            self._save()
        return self.state.opacity(found, card_opacity)

    # -------------------------------------------------------------- presses

    def toggle(self) -> None:
        self.set(not self.on)

    def set(self, on: bool) -> None:
        if on == self.on:
            return
        if self.state.set(on):
            self._save()  # the notice is said once
        self._apply_flags()
        self._render()

    def step_opacity(self, delta: int) -> None:
        """The opacity hotkeys: ghost mode's opacity while a ghost, else the card's."""
        if not self.on:
            self.card.set_opacity(core.step_opacity(self.card.state.opacity, delta))
            return
        found, _ = screens()
        now = self.state.opacity(found, self.card.state.opacity)
        if self.state.memory.remember(found, "ghost", core.step_opacity(now, delta)):
            self._save()
        self._apply_opacity()

    # -------------------------------------------------------------- the window

    def _apply_flags(self) -> None:
        card = self.card
        flags = (card.windowFlags() & ~(_INPUT | _BYPASS)) | self.flags()
        if self.strategy == core.INPUT_SHAPE:
            # the input shape changes on the mapped window: no unmap, the compositor keeps
            # the card where it is and above the call
            card.overrideWindowFlags(flags)
            if card.windowHandle() is not None:
                card.windowHandle().setFlags(card.windowFlags())
        else:
            # override-redirect is read when a window is mapped: a new X window, so the
            # window manager (still unmanaging the old one) cannot hold the new map back
            geometry = card.geometry()
            visible = card.isVisible()
            card.setWindowFlags(flags)  # hides the window
            card.destroy()
            card.setGeometry(geometry)
            if visible:
                card.show()
                card.raise_()
        self._apply_opacity()

    def _apply_opacity(self) -> None:
        self.card.setWindowOpacity(self.shown_opacity(self.card.state.opacity) / 100)

    def _render(self) -> None:
        if not self.on:
            if self.mark is not None:
                self.mark.hide()
            return
        if self.mark is None:
            self.mark = GhostMark(self.card)
        keys = hk.bindings_in_force(self.prefs).in_force().get("ghost", "")
        self.mark.render(core.mark_text(hk.shown(keys)), self.state.telling)

    def _screens_changed(self, *_args) -> None:
        self._bring_back_opacity()
        self._apply_opacity()

    def _bring_back_opacity(self) -> None:
        found, _ = screens()
        kept = self.state.memory.card_opacity_back(found)
        if kept is not None and kept != self.card.state.opacity:
            self.card.set_opacity(kept)

    def eventFilter(self, watched, event) -> bool:  # noqa: N802 (Qt API)
        kind = event.type()
        if kind == QEvent.Type.Show:
            self._bring_back_opacity()
            self._apply_opacity()
        elif kind == QEvent.Type.Resize and self.mark is not None and self.mark.isVisible():
            self.mark.place()
        return False

    # -------------------------------------------------------------- storage

    def _load(self):
        try:
            return self.settings.get(core.GHOST_KEY)
        except Exception as exc:
            log.warning("could not read ghost mode's settings: %s", exc)
            return None

    def _save(self) -> None:
        try:
            self.settings.set(core.GHOST_KEY, self.state.memory.to_dict())
        except Exception as exc:  # a locked database must not break the card
            log.warning("could not save ghost mode's settings: %s", exc)
