"""Where the cue card sits: saved per screen layout, rescued when a screen goes away.

Interface: ``CardPlacement(window, settings)`` with ``restore(glance)``, ``save(glance)``
and ``rescue()``; ``screens()`` is the one place that asks Qt about the screens.
"""

from __future__ import annotations

import logging

from PySide6.QtGui import QGuiApplication

from companion.core.cue import placement
from companion.ui.weak_calls import WeakAttribute

log = logging.getLogger(__name__)


def rect_of(qrect) -> placement.Rect:
    return placement.Rect(qrect.x(), qrect.y(), qrect.width(), qrect.height())


def screens() -> tuple[list[placement.Rect], list[placement.Rect]]:
    """(screen rects, usable rects) of the screens now attached."""
    found = QGuiApplication.screens()
    return (
        [rect_of(s.geometry()) for s in found],
        [rect_of(s.availableGeometry()) for s in found],
    )


class CardPlacement:
    window = WeakAttribute()  # the card keeps its placement, not the other way round

    def __init__(self, window, settings):
        self.window = window
        self.settings = settings
        self.ready = False  # restored once: moves and resizes are saved from then on

    def restore(self, glance: bool) -> bool:
        """Place the card where it was on this screen layout; True if it had to be
        brought back onto a screen (or made to fit one)."""
        found, usable = screens()
        saved = self.settings.get(placement.GEOMETRY_KEY)
        hint = self.window.minimumSizeHint()
        minimum = (hint.width(), hint.height())
        rect, rescued = placement.restore_rect(saved, found, glance, usable, minimum)
        fitted = placement.fit_rect(rect, hint.width(), hint.height(), usable)
        rescued = rescued or (fitted.x, fitted.y) != (rect.x, rect.y)
        self.window.setGeometry(fitted.x, fitted.y, fitted.w, fitted.h)
        self.ready = True
        return rescued

    def save(self, glance: bool) -> None:
        if not self.ready:
            return
        found, _ = screens()
        try:
            saved = self.settings.get(placement.GEOMETRY_KEY)
            self.settings.set(
                placement.GEOMETRY_KEY,
                placement.remember_rect(saved, found, rect_of(self.window.geometry()), glance),
            )
        except Exception as exc:
            log.warning("could not save the card's position: %s", exc)

    def rescue(self) -> None:
        if self.window.isVisible():
            _found, usable = screens()
            rect = placement.rescue_rect(rect_of(self.window.geometry()), usable)
            if rect != rect_of(self.window.geometry()):
                self.window.setGeometry(rect.x, rect.y, rect.w, rect.h)
