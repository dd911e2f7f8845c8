"""Where the cue card sits: the drag strip, and saving and rescuing its place per screen layout."""

from __future__ import annotations

import logging

from PySide6.QtCore import QPoint, Qt, QTimer
from PySide6.QtGui import QGuiApplication, QMouseEvent
from PySide6.QtWidgets import (
    QFrame,
    QWidget,
)

from companion.core.cue import placement

log = logging.getLogger(__name__)


def rect_of(qrect) -> placement.Rect:
    return placement.Rect(qrect.x(), qrect.y(), qrect.width(), qrect.height())


class DragHandle(QFrame):
    """The card's title strip: drag it to move a frameless card."""

    def __init__(self, window: QWidget, parent=None):
        super().__init__(parent)
        self._window = window
        self._press: QPoint | None = None
        self.setObjectName("cueHandle")
        self.setCursor(Qt.CursorShape.SizeAllCursor)
        self.setToolTip("Drag to move the card")
        self.setAccessibleName("Move the card")

    def mousePressEvent(self, event: QMouseEvent) -> None:
        if event.button() != Qt.MouseButton.LeftButton:
            return super().mousePressEvent(event)
        handle = self._window.windowHandle()
        # the compositor moves the window where it can (the only way on Wayland)
        if handle is not None and handle.startSystemMove():
            self._press = None
        else:
            self._press = event.globalPosition().toPoint() - self._window.frameGeometry().topLeft()
        event.accept()

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        if self._press is not None and event.buttons() & Qt.MouseButton.LeftButton:
            self._window.move(event.globalPosition().toPoint() - self._press)
            event.accept()
        else:
            super().mouseMoveEvent(event)

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        self._press = None
        super().mouseReleaseEvent(event)


class GeometryMixin:
    """Restore, save and rescue the card window's place; mixed into it."""

    def _screens(self) -> tuple[list[placement.Rect], list[placement.Rect]]:
        screens = QGuiApplication.screens()
        return (
            [rect_of(s.geometry()) for s in screens],
            [rect_of(s.availableGeometry()) for s in screens],
        )

    def restore_geometry(self) -> bool:
        """Place the card where it was on this screen layout; returns True if it had to
        be brought back onto a screen."""
        screens, usable = self._screens()
        saved = self.ctx.settings.get(placement.GEOMETRY_KEY)
        rect, rescued = placement.restore_rect(saved, screens, self.state.glance, usable)
        hint = self.minimumSizeHint()
        fitted = placement.fit_rect(rect, hint.width(), hint.height(), usable)
        rescued = rescued or (fitted.x, fitted.y) != (rect.x, rect.y)
        self.setGeometry(fitted.x, fitted.y, fitted.w, fitted.h)
        self._geometry_ready = True
        return rescued

    def save_geometry(self, glance: bool | None = None) -> None:
        self._geometry_timer.stop()
        if not self._geometry_ready:
            return
        screens, _ = self._screens()
        try:
            saved = self.ctx.settings.get(placement.GEOMETRY_KEY)
            mode = self.state.glance if glance is None else glance
            self.ctx.settings.set(
                placement.GEOMETRY_KEY,
                placement.remember_rect(saved, screens, rect_of(self.geometry()), mode),
            )
        except Exception as exc:
            log.warning("could not save the card's position: %s", exc)

    def _screens_changed(self, *_args) -> None:
        if self.isVisible():
            screens, usable = self._screens()
            rect = placement.rescue_rect(rect_of(self.geometry()), usable)
            if rect != rect_of(self.geometry()):
                self.setGeometry(rect.x, rect.y, rect.w, rect.h)

    def moveEvent(self, event) -> None:
        super().moveEvent(event)
        if self._geometry_ready:
            self._geometry_timer.start()

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        if self._geometry_ready:
            self._geometry_timer.start()

    def showEvent(self, event) -> None:
        super().showEvent(event)
        info = self.current
        if info is not None and info.id in self._stale:  # the data changed while hidden
            self.set_round(info.id, by_hand=False)
        self.tick()  # catches up, and ticks each second only while a round runs
        today = self.ctx.now().date()
        if self.state.needs_share_reminder(today):
            self.state.reminder_shown_on = today.isoformat()
            self._change("reminder_shown_on")
            self.reminder.setVisible(not self.state.glance)
        QTimer.singleShot(0, self.prebuild)

    def hideEvent(self, event) -> None:
        self._tick_timer.stop()
        self._stop_voice()  # the mic never stays open behind a closed card
        super().hideEvent(event)

    def closeEvent(self, event) -> None:
        self.save_geometry()
        self.save_now()
        super().closeEvent(event)

    def show_card(self) -> None:
        """Show without taking focus from the call (and without raising a dialog)."""
        if not self._geometry_ready:
            self.restore_geometry()
        self.show()
