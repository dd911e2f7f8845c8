"""The application factory: build the window, then the session and the tray.

Start-up order matters for the first paint: on a journal that exists and a window that
opens on Today, the first frame shows the day's plan (the database, the day view and the
page come before it); on a new folder the window paints before the database opens. The
session's reminders, content checks, the tray and the hotkeys follow the paint
(:mod:`companion.ui.process.launch` runs it).
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtWidgets import QApplication, QMainWindow, QMenu, QSystemTrayIcon

from companion import APP_ID, APP_NAME, __version__
from companion.core import paths
from companion.core.changes import KINDS, Change
from companion.core.platform_choice import apply_platform_choice
from companion.core.sigint import deferred_sigint
from companion.ui.bus import AppBus
from companion.ui.mainwindow import MainWindow, window_icon
from companion.ui.platform.windows_app_id import set_app_user_model_id
from companion.ui.process.launch_context import LaunchContext
from companion.ui.process.module_sources import forget_module_sources
from companion.ui.process.plan_first import opens_on_plan
from companion.ui.theme import apply_theme, finish_theme

if TYPE_CHECKING:
    from companion.core.context import AppContext


def create_application(argv: list[str] | None = None):
    app = QApplication.instance()
    made_here = app is None
    if made_here:
        apply_platform_choice()  # XWayland by default under Wayland: the card stays on top
        set_app_user_model_id(APP_ID)  # Windows: notifications under the app's own id
        # Fusion from the start, by name on the command line: QApplication.setStyle()
        # afterwards costs ~10 ms before the first paint (PySide builds QStyle's enums)
        with deferred_sigint():
            app = QApplication([*(argv or [sys.argv[0]]), "-style", "fusion"])
    app.setApplicationName("interview-companion")
    app.setApplicationDisplayName(APP_NAME)
    app.setApplicationVersion(__version__)
    app.setDesktopFileName(APP_ID)
    app.setQuitOnLastWindowClosed(True)
    apply_theme(app, fusion=made_here)  # one visual system, light or dark, on every desktop
    return app


class Application:
    """Owns the objects of one GUI session and wires them together."""

    def __init__(self, ctx: AppContext | LaunchContext, qapp, *, page: str | None = None):
        # the data folder and its preferences: all the first frame reads; the launcher
        # hands a LaunchContext, and the whole context is built after the first paint
        # (before it when the first frame shows the day's plan, see _plan_first)
        self.launch = ctx
        self._ctx = None if isinstance(ctx, LaunchContext) else ctx
        self.qapp = qapp
        self.bus = AppBus()
        # the session's day service is handed to the pages that show the day, made on
        # first use: before the first paint when the window opens on the day's plan
        self.day = None
        self.window = MainWindow(ctx, self.bus, day=self.day_service, context=lambda: self.ctx)
        # the window icon (SVG: QtSvg and its plugin) is set right after the first paint:
        # the window manager draws it, the window's own first frame does not show it
        self.tray = None
        # the day service, the captures, the card and the hotkeys: made right after the
        # first paint (their modules bring the day's core, ~70 modules and ~90 ms the
        # first pixels need not wait for), before the first page is built, see
        # after_first_paint
        self.session = None
        self.notifier = None
        self.bus.notify.connect(self.notify)
        self.bus.status_message.connect(
            lambda text: self.window.statusBar().showMessage(text, 15_000)
        )
        self.bus.open_hotkeys.connect(self.open_hotkeys)
        self.window.first_painted.connect(self.after_first_paint)
        if page:  # asked for on the command line (screenshots)
            self.window.show_page(page)
        if opens_on_plan(ctx, page):
            self._plan_first()

    def _plan_first(self) -> None:
        """The plan at first sight: on a journal that exists, the window opens on Today
        with the day read and the page built, before the first paint.
        Only what that frame needs runs now (the database, the day view, the page); the
        reminders, the tray, the hotkeys and the card wait for the paint. A new folder
        has no plan to show: its first frame is the bare window, the page follows."""
        self.day_service().read()
        self.window.build_start_page()

    def day_service(self):
        """The session's day service (made once, before the session when the first frame
        shows the plan)."""
        if self.day is None:
            from companion.ui.day.service import day_service  # seam: pages

            self.day = day_service(self.ctx, self.bus, self.window, fallback=self._status_notice)
            self.notifier = self.day.notifier
        return self.day

    @property
    def ctx(self) -> AppContext:
        """The whole context (the journal, the content packs), built on first use: after
        the first paint, or before it when the command line asks for a page."""
        if self._ctx is None:
            # seam: after the first paint (the context brings storage and sqlite-utils)
            from companion.core.context import AppContext

            self._ctx = AppContext(self.launch.data_dir, prefs=self.launch.prefs)
        return self._ctx

    def make_session(self):
        """The session (made once): the day service, captures, card and hotkeys, in the
        session `companion cue` builds too."""
        if self.session is None:
            from companion.ui.session import Session  # seam: after the first paint

            self.session = Session(
                self.ctx,
                self.bus,
                self.window,
                window=self.window,
                notice=self.window.add_notice,
                fallback=self._status_notice,
                day=self.day_service(),
            )
            self.session.card_shown.connect(self._card_shown)  # from a menu or a hotkey
        return self.session

    def after_first_paint(self) -> None:
        """Called from inside the first paint: schedule the rest. The session comes first
        (the first page, built next, reads the day from it), then the style's drawing
        tweaks (so the page is drawn with them, not re-polished), the database and the
        services after it."""
        self.window.setWindowIcon(window_icon())
        QTimer.singleShot(0, self.make_session)  # before the page: timers run in order

        def finish_look() -> None:
            finish_theme(self.qapp)
            QTimer.singleShot(0, self._finish_start)

        QTimer.singleShot(0, finish_look)

    def _finish_start(self) -> None:
        self.make_session()
        ctx = self.ctx
        store = ctx.store  # opens (and migrates) the database
        if ctx.storage_problem:
            self.window.add_notice(
                f"{ctx.storage_problem} Working in a temporary journal: nothing you enter now is saved."
            )
        for notice in store.notices:
            self.window.add_notice(notice, self._restore_actions())
        if ctx.prefs.problem:
            self.window.add_notice(ctx.prefs.problem)
        content = ctx.content
        if ctx.content_errors:
            shown = "; ".join(str(e) for e in ctx.content_errors[:3])
            more = len(ctx.content_errors) - 3
            self.window.add_notice(
                f"Some content files have errors and were skipped: {shown}"
                + (f" (and {more} more)" if more > 0 else "")
            )
        del content
        self._restore_dnd_after_crash()
        self._make_tray()
        self.day.start()
        self._start_hotkeys()
        forget_module_sources()  # start-up's modules are in: the session, storage, the style

    def _restore_actions(self):
        from companion.core.storage.store import list_backups  # seam: after the first paint

        backups = list_backups(paths.backup_dir(self.ctx.data_dir))
        if not backups:
            return []
        return [("Restore newest backup", lambda: self.restore_backup(backups[0]))]

    def restore_backup(self, backup) -> None:
        from companion.core.storage.store import restore_backup  # seam: after the first paint

        self.ctx.close()
        try:
            restore_backup(backup, self.ctx.db_path)
        except OSError as exc:
            from companion.ui.widgets.opening import tell  # seam: after the first paint

            tell(self.window, APP_NAME, f"Could not restore {backup.name}: {exc}", warning=True)
            return
        self.ctx.store  # reopen  # noqa: B018
        self.bus.announce(Change.of(*KINDS))  # everything may differ
        self.window.add_notice(f"Restored the journal from {backup.name}.")

    def _restore_dnd_after_crash(self) -> None:
        from companion.core.dnd import restore_after_crash  # seam: desktop adapters

        message = restore_after_crash(self.ctx)
        if message:
            self.window.add_notice(message)

    def _make_tray(self) -> None:
        if not QSystemTrayIcon.isSystemTrayAvailable():
            return
        tray = QSystemTrayIcon(self.window.windowIcon(), self.window)
        tray.setToolTip(APP_NAME)
        menu = QMenu(self.window)
        menu.addAction("Show", self.window.bring_to_front)
        menu.addAction("Cue card", lambda: self.show_cue_card(""))
        menu.addAction("Global hotkeys\u2026", self.open_hotkeys)
        menu.addSeparator()
        menu.addAction("Quit", self.window.close_and_quit)
        tray.setContextMenu(menu)
        tray.activated.connect(lambda _reason: self.window.bring_to_front())
        tray.show()
        self.tray = tray
        self.notifier.tray = tray

    def notify(self, title: str, message: str) -> None:
        self.make_session().notifier.send(title, message)

    def _status_notice(self, title: str, message: str) -> None:
        self.window.statusBar().showMessage(f"{title}: {message}", 15_000)

    def open_capture(self, round_id: int) -> None:
        self.make_session().open_capture(round_id)

    def show_cue_card(self, round_type: str) -> None:
        self.make_session().show_cue_card(round_type)

    @property
    def _cue_window(self):
        return None if self.session is None else self.session.card

    @property
    def hotkeys(self):
        return None if self.session is None else self.session.hotkeys

    def _card_shown(self, card) -> None:
        if card is not None and self.window.isVisible():
            self.window.make_room_for(card.frameGeometry())

    def _start_hotkeys(self) -> None:
        self.make_session().start_hotkeys(self.window)

    def open_hotkeys(self) -> None:
        from companion.ui.hotkeys.dialog import open_hotkeys_dialog  # seam: after the first paint

        open_hotkeys_dialog(self.ctx.prefs, getattr(self, "hotkeys", None), self.window)

    def on_hotkey(self, action: str) -> None:
        self.make_session().on_hotkey(action)

    def shutdown(self) -> None:
        if self.session is not None:
            self.session.shutdown()  # the hotkey grabs first, then the day's timer
        if os.path.lexists(paths.dnd_state_path(self.launch.data_dir)):  # else nothing to undo
            from companion.core.dnd import restore_on_quit  # seam: desktop adapters

            restore_on_quit(self.ctx)
        self.launch.prefs.save()
        if self._ctx is not None:  # never built (the benchmark's first frame): nothing open
            self._ctx.close()

    def later(self, call: Callable[[], None]) -> None:
        """Run ``call`` on the event loop's next turn."""
        QTimer.singleShot(0, call)


class PlanDrawn(QObject):
    """For benchmarks/startup.py (``COMPANION_EXIT_ON_PLAN_DRAWN=1``): report the first paint
    and when the frame that shows Today's plan is on screen, then quit. Today's first paint
    after it rendered the day's view is the plan drawn: in the first frame when the page
    was built before it (:mod:`companion.ui.process.plan_first`), else in a later one.
    Only the Today page is watched."""

    def __init__(self, qapp: QApplication, window: QMainWindow, started: float) -> None:
        super().__init__(window)
        self._qapp, self._started, self._page = qapp, started, None
        self._drawn = (0.0, 0.0)
        window.stack.currentChanged.connect(lambda _i: self._watch(window.stack.currentWidget()))
        window.first_painted.connect(lambda: self._say("first-paint"))  # the frame before
        self._watch(window.stack.currentWidget())  # built before the first paint

    def _watch(self, page) -> None:
        if page is not None and page.objectName() == "page-today" and self._page is None:
            self._page = page
            page.installEventFilter(self)

    def eventFilter(self, watched, event) -> bool:  # noqa: N802 (Qt API)
        if event.type() == QEvent.Type.Paint and getattr(watched, "redraws", 0) > 0:
            watched.removeEventFilter(self)
            # stamped at the paint, as the first paint is: when the plan is in the first
            # frame, the turn after it runs the post-paint start-up (the session) first
            self._drawn = (time.time(), time.perf_counter())
            QTimer.singleShot(0, self._report)  # once the frame is painted and flushed
        return False

    def _report(self) -> None:
        self._say("plan-drawn", *self._drawn)
        QTimer.singleShot(0, lambda: self._qapp.exit(0))

    def _say(self, what: str, epoch: float | None = None, now: float | None = None) -> None:
        epoch, now = epoch or time.time(), now or time.perf_counter()
        print(f"{what} {epoch:.6f} {now - self._started:.6f}", flush=True)
