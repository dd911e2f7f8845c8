"""The application factory: build the context, the window and the tray, then run.

Start-up order matters for the first paint: the window shows with its first page before
the database opens; storage, content checks and the tray follow right after.
"""

from __future__ import annotations

import os
import sys
import time

from companion import APP_ID, APP_NAME, __version__
from companion.core.context import AppContext
from companion.core.platform_choice import apply_platform_choice  # stdlib only, before Qt
from companion.core.sigint import deferred_sigint  # stdlib only, before Qt


def create_application(argv: list[str] | None = None):
    with deferred_sigint():
        from PySide6.QtWidgets import QApplication

    app = QApplication.instance()
    made_here = app is None
    if made_here:
        apply_platform_choice()  # XWayland by default under Wayland: the card stays on top
        # Fusion from the start, by name on the command line: QApplication.setStyle()
        # afterwards costs ~10 ms before the first paint (PySide builds QStyle's enums)
        with deferred_sigint():
            app = QApplication([*(argv or [sys.argv[0]]), "-style", "fusion"])
    app.setApplicationName("interview-companion")
    app.setApplicationDisplayName(APP_NAME)
    app.setApplicationVersion(__version__)
    app.setDesktopFileName(APP_ID)
    app.setQuitOnLastWindowClosed(True)
    from companion.ui.theme import apply_theme

    apply_theme(app, fusion=made_here)  # one visual system, light or dark, on every desktop
    return app


class Application:
    """Owns the objects of one GUI session and wires them together."""

    def __init__(self, ctx: AppContext, qapp):
        from companion.ui.bus import AppBus
        from companion.ui.mainwindow import MainWindow

        self.ctx = ctx
        self.qapp = qapp
        self.bus = AppBus()
        self.window = MainWindow(ctx, self.bus)
        # the window icon (SVG: QtSvg and its plugin) is set right after the first paint:
        # the window manager draws it, the window's own first frame does not show it
        self.tray = None
        # the day service, the captures, the card and the hotkeys: made right after the
        # first paint (they cost ~15 ms of imports and set-up the first pixels need not
        # wait for), before the first page is built, see after_first_paint
        self.session = None
        self.notifier = None
        self.day = None
        self.bus.notify.connect(self.notify)
        self.bus.status_message.connect(
            lambda text: self.window.statusBar().showMessage(text, 15_000)
        )
        self.bus.open_hotkeys.connect(self.open_hotkeys)
        self.window.first_painted.connect(self.after_first_paint)

    def make_session(self):
        """The session (made once): the day service, captures, card and hotkeys, in the
        session `companion cue` builds too."""
        if self.session is None:
            from companion.ui.session import Session

            self.session = Session(
                self.ctx,
                self.bus,
                self.window,
                window=self.window,
                notice=self.window.add_notice,
                fallback=self._status_notice,
            )
            self.notifier = self.session.notifier
            self.day = self.session.day
            self.session.card_shown.connect(self._card_shown)  # from a menu or a hotkey
        return self.session

    def after_first_paint(self) -> None:
        """Called from inside the first paint: schedule the rest. The session comes first
        (the first page, built next, reads the day from it), then the style's drawing
        tweaks (so the page is drawn with them, not re-polished), the database and the
        services after it."""
        from PySide6.QtCore import QTimer

        from companion.ui.mainwindow import window_icon

        self.window.setWindowIcon(window_icon())
        QTimer.singleShot(0, self.make_session)  # before the page: timers run in order

        def finish_look() -> None:
            from companion.ui.theme import finish_theme

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

    def _restore_actions(self):
        from companion.core import paths
        from companion.core.storage.store import list_backups

        backups = list_backups(paths.backup_dir(self.ctx.data_dir))
        if not backups:
            return []
        return [("Restore newest backup", lambda: self.restore_backup(backups[0]))]

    def restore_backup(self, backup) -> None:
        from companion.core.storage.store import restore_backup

        self.ctx.close()
        try:
            restore_backup(backup, self.ctx.db_path)
        except OSError as exc:
            from companion.ui.widgets.opening import tell

            tell(self.window, APP_NAME, f"Could not restore {backup.name}: {exc}", warning=True)
            return
        self.ctx.store  # reopen  # noqa: B018
        from companion.core.changes import KINDS, Change

        self.bus.announce(Change.of(*KINDS))  # everything may differ
        self.window.add_notice(f"Restored the journal from {backup.name}.")

    def _restore_dnd_after_crash(self) -> None:
        from companion.core.dnd import restore_after_crash

        message = restore_after_crash(self.ctx)
        if message:
            self.window.add_notice(message)

    def _make_tray(self) -> None:
        from PySide6.QtWidgets import QMenu, QSystemTrayIcon

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
        from companion.ui.hotkeys.dialog import open_hotkeys_dialog

        open_hotkeys_dialog(self.ctx.prefs, getattr(self, "hotkeys", None), self.window)

    def on_hotkey(self, action: str) -> None:
        self.make_session().on_hotkey(action)

    def shutdown(self) -> None:
        from companion.core import paths

        if self.session is not None:
            self.session.shutdown()  # the hotkey grabs first, then the day's timer
        if os.path.lexists(paths.dnd_state_path(self.ctx.data_dir)):  # else nothing to undo
            from companion.core.dnd import restore_on_quit

            restore_on_quit(self.ctx)
        self.ctx.prefs.save()
        self.ctx.close()


def run_gui(args, ctx: AppContext) -> int:
    started = time.perf_counter()
    from companion.ui.folder_problem import usable_context
    from companion.ui.single_instance import InstanceLock, hand_over_waiting, server_name

    # the single-instance check runs before Qt is imported: a second launch costs little
    asked = ctx.data_dir
    if (ctx := usable_context(ctx)) is None:  # a folder it cannot use: a dialog, not a crash
        from companion.core.paths import argument_problem

        return 2 if argument_problem(asked) else 1  # 2: it can never be a folder (README)
    name = server_name(ctx.data_dir)
    lock = InstanceLock(ctx.data_dir)
    if not lock.acquire():
        if hand_over_waiting(name):
            print("Interview Companion is already running; brought it to the front.")
            return 0
        print(
            f"Another Interview Companion holds {ctx.data_dir} but does not answer; "
            "close it or start with --data-dir elsewhere.",
            file=sys.stderr,
        )
        return 1
    # pure-Python modules before PySide6: once QtCore is imported it hooks __import__
    # and every later import costs more (the window's placement, the write-error hook)
    import companion.core.window_room  # noqa: F401
    import companion.ui.pages  # noqa: F401
    import companion.ui.write_errors  # noqa: F401

    qapp = create_application(sys.argv[:1])
    from PySide6.QtCore import QTimer

    from companion.ui.interrupt import SigintQuit

    made: list = []  # Ctrl+C in the terminal: as Ctrl+Q (before the window: just quit)
    sigint = SigintQuit(lambda: made[0].window.close_and_quit() if made else qapp.quit())
    app = Application(ctx, qapp)
    made.append(app)
    servers: list = []

    def listen() -> None:
        from companion.ui.single_instance import make_server

        server = make_server(name, app.window)
        server.raise_requested.connect(app.window.bring_to_front)
        server.cue_requested.connect(app.show_cue_card)
        servers.append(server)

    if getattr(args, "page", None):
        app.make_session()  # the page is built now, before the first paint
        app.window.show_page(args.page)
    if os.environ.get("COMPANION_EXIT_ON_FIRST_PAINT"):
        # for benchmarks/startup.py: report the first paint and leave once it is on screen,
        # with nothing of what follows the first paint (the session, the single-instance
        # server). Not qapp.exit() inside the paint: the quit work then ran before the
        # frame was flushed and held the first pixels back by ~50 ms.
        def report() -> None:
            print(f"first-paint {time.time():.6f} {time.perf_counter() - started:.6f}", flush=True)
            QTimer.singleShot(0, lambda: qapp.exit(0))

        app.window.first_painted.disconnect(app.after_first_paint)
        app.window.first_painted.connect(report)
    else:
        # after the paint has been reported: QtNetwork is not needed to draw the window
        app.window.first_painted.connect(lambda: QTimer.singleShot(0, listen))
    from companion.ui import write_errors

    # a save the disk refuses becomes a notice in the window, not a traceback
    write_errors.install(app.window.add_notice)
    app.window.show()
    qapp.aboutToQuit.connect(app.shutdown)
    code = sigint.exec(qapp.exec)
    for server in servers:
        server.close()
    lock.release()
    return code
