"""The main window: a navigation rail on the left, one page at a time on the right."""

from __future__ import annotations

import base64
import importlib
from collections.abc import Callable
from typing import TYPE_CHECKING

# Only the classes the first frame shows: each PySide class is built on first use (its
# enums too), and not `Qt`: its enum namespace costs ~13 ms, paid after the first paint.
from PySide6.QtCore import QSize, QTimer, Signal
from PySide6.QtGui import QIcon
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QListWidget,
    QListWidgetItem,
    QMainWindow,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from companion import APP_NAME
from companion.core.cue.placement import Rect
from companion.core.window_room import beside_card, first_place
from companion.ui.bus import AppBus
from companion.ui.icons import icon, rail_icon
from companion.ui.pages import PAGES, PageSpec
from companion.ui.process.module_sources import forget_module_sources
from companion.ui.widgets.palette_sheet import palette_sheet

if TYPE_CHECKING:  # the window loads before the first paint, the context after it
    from companion.core.context import AppContext
    from companion.ui.process.launch_context import LaunchContext

RAIL_ICON_PX = 22  # the rail's PNG icons are drawn at this size (render_rail_icons.py)


class NoticeBar(QFrame):
    """A dismissable message strip at the top of the window (storage and content problems)."""

    def __init__(self, text: str, actions: list[tuple[str, object]] = (), parent=None):
        from PySide6.QtCore import Qt
        from PySide6.QtWidgets import QLabel, QPushButton

        super().__init__(parent)
        self.setObjectName("noticeBar")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.setAccessibleName("Notice")
        self.message = text
        layout = QHBoxLayout(self)
        label = QLabel(text)
        label.setWordWrap(True)

        label.setTextFormat(Qt.TextFormat.PlainText)  # file names and messages are not HTML
        label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout.addWidget(label, 1)
        for title, callback in actions:
            button = QPushButton(title)
            button.clicked.connect(callback)
            layout.addWidget(button)
        close = QPushButton("Dismiss")
        close.setAccessibleName("Dismiss notice")
        close.clicked.connect(self.deleteLater)
        layout.addWidget(close)


class MainWindow(QMainWindow):
    first_painted = Signal()

    def __init__(
        self,
        ctx: AppContext | LaunchContext,
        bus: AppBus,
        parent: QWidget | None = None,
        *,
        day: Callable,
        context: Callable[[], AppContext] | None = None,
    ):
        """``ctx``: the first frame reads its preferences only; the pages get the whole
        context from ``context`` (the application builds it after the first paint)."""
        super().__init__(parent)
        self.prefs = ctx.prefs
        self._context = context or (lambda: ctx)
        self.bus = bus
        # the session's day service, asked for when the first page that shows the day is
        # built (before the first paint when the window opens on Today's plan)
        self._day = day
        self._pages: dict[str, QWidget] = {}
        self._painted = False
        # the start-up benchmark's exit mode (launch.run_gui): the first frame and nothing
        # after it; the page's timers fired in the same turn as its exit and built the
        # first page and the session (7.5 MiB of the peak it measured)
        self.first_frame_only = False
        self.setWindowTitle(APP_NAME)
        self.setObjectName("mainWindow")

        central = QWidget()
        outer = QVBoxLayout(central)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.setSpacing(0)
        self._notices = QVBoxLayout()
        outer.addLayout(self._notices)
        body = QHBoxLayout()
        body.setContentsMargins(0, 0, 0, 0)
        body.setSpacing(0)
        outer.addLayout(body, 1)

        self.rail = QListWidget()
        self.rail.setObjectName("navRail")
        self.rail.setAccessibleName("Tools")
        self.rail.setIconSize(QSize(RAIL_ICON_PX, RAIL_ICON_PX))
        self.rail.setFrameShape(QFrame.Shape.NoFrame)
        self.rail.setSpacing(2)
        # palette roles keep the rail right in light and dark schemes
        palette_sheet(
            self.rail,
            "QListWidget#navRail { background: palette(alternate-base);"
            " border-right: 1px solid palette(mid); padding: 6px 4px; }"
            "QListWidget#navRail::item { padding: 7px 8px; border-radius: 6px; }"
            "QListWidget#navRail::item:selected { background: palette(highlight);"
            " color: palette(highlighted-text); }",
        )
        for n, page in enumerate(PAGES, 1):
            item = QListWidgetItem(rail_icon(page.icon), page.title)
            item.setToolTip(f"{page.tooltip} (Ctrl+{n})")
            self.rail.addItem(item)
        self.rail.setFixedWidth(self.rail.sizeHintForColumn(0) + 40)
        body.addWidget(self.rail)

        self.stack = QStackedWidget()
        self.stack.setContentsMargins(16, 12, 16, 12)
        body.addWidget(self.stack, 1)
        self.setCentralWidget(central)

        self.rail.currentRowChanged.connect(self._show_row)
        self.quit_shortcut = None  # made with the page shortcuts, after the first paint

        bus.open_page.connect(self.show_page)
        bus.open_flagged_quiz.connect(self._open_flagged_quiz)
        bus.open_loop.connect(self._open_loop)

        self._restore_geometry()
        start = self.prefs.get("main.page", "today")
        keys = [p.key for p in PAGES]
        self.rail.setCurrentRow(keys.index(start) if start in keys else 0)

    # pages -------------------------------------------------------------------------

    def _add_shortcuts(self) -> None:
        """Ctrl+1..n for the pages and Ctrl+Q (QKeySequence and QShortcut are not needed
        for the first frame; made in the same event-loop turn as the first page)."""
        from PySide6.QtGui import QKeySequence, QShortcut

        for n in range(1, len(PAGES) + 1):
            QShortcut(QKeySequence(f"Ctrl+{n}"), self, lambda n=n: self.rail.setCurrentRow(n - 1))
        # one Ctrl+Q: StandardKey.Quit is Ctrl+Q on Linux too, and two shortcuts on one key
        # are ambiguous to Qt, so neither fires
        self.quit_shortcut = QShortcut(QKeySequence("Ctrl+Q"), self, self.close_and_quit)

    def page(self, key: str) -> QWidget:
        """The page widget for ``key``, built on first use."""
        if key not in self._pages:
            spec = next(p for p in PAGES if p.key == key)
            widget = self._build(spec)
            self._pages[key] = widget
            self.stack.addWidget(widget)
        return self._pages[key]

    def _build(self, spec: PageSpec) -> QWidget:
        module = importlib.import_module(f"companion.ui.{spec.module}.page")  # seam: pages
        handed = {"day": self._day()} if spec.day else {}
        widget = getattr(module, spec.cls)(self._context(), self.bus, **handed)
        widget.setObjectName(f"page-{spec.key}")
        forget_module_sources()  # the page's modules are in
        return widget

    def show_page(self, key: str) -> None:
        keys = [p.key for p in PAGES]
        if key in keys:
            self.rail.setCurrentRow(keys.index(key))

    def current_key(self) -> str:
        return PAGES[max(self.rail.currentRow(), 0)].key

    def _show_row(self, row: int) -> None:
        if row < 0:
            return
        spec = PAGES[row]
        self.setWindowTitle(f"{spec.title} — {APP_NAME}")
        self.prefs.set("main.page", spec.key)
        if not self._painted:
            # the first page is built right after the window's first paint (see
            # paintEvent): start-up is measured against a bare Qt window, and the page
            # needs the database, the content and Qt's enum namespace, which cost more
            # than the whole window frame; Today's plan is the exception, built before
            # it by build_start_page when there is a journal to read
            return
        widget = self.page(spec.key)
        self.stack.setCurrentWidget(widget)
        if hasattr(widget, "on_shown"):
            # after the switch has painted, so a slow refresh never delays it
            QTimer.singleShot(0, widget.on_shown)

    def build_start_page(self) -> QWidget:
        """Build the page the window opens on now, before the first paint, so that the
        first frame shows it (Today's plan) and not an empty stack."""
        widget = self.page(self.current_key())
        self.stack.setCurrentWidget(widget)
        if hasattr(widget, "on_shown"):
            widget.on_shown()  # the page's body is built here, in the first frame
        return widget

    def _open_loop(self, loop_id: int) -> None:
        self.show_page("journal")
        page = self.page("journal")
        if hasattr(page, "open_loop"):
            page.open_loop(loop_id)

    def _open_flagged_quiz(self) -> None:
        self.show_page("selfcheck")
        page = self.page("selfcheck")
        if hasattr(page, "show_flagged"):
            page.show_flagged()

    # notices -----------------------------------------------------------------------

    def add_notice(self, text: str, actions: list[tuple[str, object]] = ()) -> NoticeBar:
        bar = NoticeBar(text, list(actions))
        self._notices.addWidget(bar)
        return bar

    # window state ------------------------------------------------------------------

    def _restore_geometry(self) -> None:
        saved = self.prefs.get("main.geometry")
        restored = False
        if isinstance(saved, str):
            from PySide6.QtCore import QByteArray

            try:
                restored = self.restoreGeometry(QByteArray(base64.b64decode(saved)))
            except ValueError:
                restored = False
        if not restored:  # first start: centred, its title bar and bottom edge on screen
            place = first_place(1100, 720, _rect(self.screen().availableGeometry()))
            self.setGeometry(place.x, place.y, place.w, place.h)

    def resizeEvent(self, event) -> None:  # noqa: N802 (Qt API)
        super().resizeEvent(event)
        if self._painted:
            # a page that needs more width grows the window to the right; at 200 % that
            # pushed its buttons past the screen's edge
            QTimer.singleShot(0, self.keep_on_screen)

    def keep_on_screen(self) -> None:
        """Move the window back inside its screen's free area where it hangs over."""
        screen = self.screen()
        if screen is None or self.isMaximized() or self.isFullScreen():
            return
        area, frame = screen.availableGeometry(), self.frameGeometry()
        x = max(area.left(), min(frame.left(), area.right() - frame.width() + 1))
        y = max(area.top(), min(frame.top(), area.bottom() - frame.height() + 1))
        if (x, y) != (frame.left(), frame.top()):
            self.move(x, y)

    def make_room_for(self, card) -> bool:
        """Step aside for the always-on-top card (a QRect) when it covers part of this
        window and both fit side by side on the screen; True if the window moved."""

        screen = self.screen()
        if screen is None or self.isMaximized() or self.isFullScreen():
            return False
        frame = _rect(self.frameGeometry())
        place = beside_card(
            frame, _rect(card), _rect(screen.availableGeometry()), self.minimumSizeHint().width()
        )
        if place is None:
            return False
        inner = self.geometry()
        self.move(place.x, place.y)
        self.resize(inner.width() - (frame.w - place.w), inner.height())
        return True

    def save_state(self) -> None:
        data = bytes(self.saveGeometry().data())
        self.prefs.set("main.geometry", base64.b64encode(data).decode("ascii"))
        self.prefs.set("main.page", self.current_key())
        self.prefs.save()

    def closeEvent(self, event) -> None:  # noqa: N802 (Qt API)
        self.save_state()
        for widget in self._pages.values():
            if hasattr(widget, "shutdown"):
                widget.shutdown()
        super().closeEvent(event)

    def close_and_quit(self) -> None:
        self.close()
        from PySide6.QtWidgets import QApplication

        QApplication.quit()

    def paintEvent(self, event) -> None:  # noqa: N802 (Qt API)
        super().paintEvent(event)
        if not self._painted:
            self._painted = True
            self.first_painted.emit()  # first: what it schedules runs before the page is built
            if self.first_frame_only:
                return
            QTimer.singleShot(0, self.keep_on_screen)  # the frame is known once shown
            QTimer.singleShot(0, self._add_shortcuts)
            QTimer.singleShot(0, lambda: self._show_row(self.rail.currentRow()))

    def bring_to_front(self) -> None:
        from PySide6.QtCore import Qt

        self.setWindowState(
            (self.windowState() & ~Qt.WindowState.WindowMinimized) | Qt.WindowState.WindowActive
        )
        self.show()
        self.raise_()
        self.activateWindow()


def _rect(qrect):
    return Rect(qrect.x(), qrect.y(), qrect.width(), qrect.height())


def window_icon() -> QIcon:
    return icon("app")
