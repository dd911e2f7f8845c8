"""Launch the GUI: the data folder's check and the single-instance lock before Qt, then
the application (:mod:`companion.ui.app`) and its event loop.

Everything this module imports at its top is pure Python: a second launch hands over to
the running app without paying for Qt, and the modules the first paint needs that Qt does
not are loaded before QtCore hooks ``__import__`` (which makes every later import dearer).
"""

from __future__ import annotations

import atexit
import os
import sys
import time

import companion.core.window_room  # noqa: F401  # the window's placement, before Qt
import companion.ui.pages  # noqa: F401  # the rail's pages, before Qt
from companion.core.paths import argument_problem
from companion.core.sigint import deferred_sigint
from companion.ui.process import write_errors
from companion.ui.process.folder_problem import usable_context
from companion.ui.process.launch_context import LaunchContext
from companion.ui.process.module_sources import forget_module_sources
from companion.ui.process.plan_first import load_plan_modules, opens_on_plan
from companion.ui.process.single_instance import (
    InstanceLock,
    hand_over_waiting,
    serve_launches,
    server_name,
)


def run_gui(args, ctx: LaunchContext) -> int:
    started = time.perf_counter()
    # the single-instance check runs before Qt is imported: a second launch costs little
    asked = ctx.data_dir
    if (ctx := usable_context(ctx)) is None:  # a folder it cannot use: a dialog, not a crash
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
    page = getattr(args, "page", None)
    plan_first = opens_on_plan(ctx, page)
    if plan_first:  # the first frame shows the day's plan: its modules before Qt
        load_plan_modules()
    # PySide6 and the window load only once the lock is held (a second launch costs
    # little); the pure-Python modules came first, at the top of this module: once QtCore
    # is imported it hooks __import__ and every later import costs more
    with deferred_sigint():  # PySide6 does not survive a Ctrl+C in its import
        from companion.ui.app import Application, PlanDrawn, create_application  # seam: qt

    qapp = create_application(sys.argv[:1])
    from companion.ui.process.interrupt import SigintQuit  # seam: qt

    forget_module_sources()  # the first frame's modules are in; the window reuses the room

    made: list = []  # Ctrl+C in the terminal: as Ctrl+Q (before the window: just quit)
    sigint = SigintQuit(lambda: made[0].window.close_and_quit() if made else qapp.quit())
    app = Application(ctx, qapp, page=page)
    made.append(app)
    servers: list = []

    def listen() -> None:
        servers.append(
            serve_launches(name, app.window, app.window.bring_to_front, app.show_cue_card)
        )

    if page:
        app.make_session()  # made now, before the first paint
    if os.environ.get("COMPANION_EXIT_ON_FIRST_PAINT") or os.environ.get(
        "COMPANION_EXIT_ON_PLAN_DRAWN"
    ):
        atexit.register(say_peak)
    if os.environ.get("COMPANION_EXIT_ON_FIRST_PAINT"):
        # for benchmarks/startup.py: report the first paint and leave once it is on screen,
        # with nothing of what follows the first paint (the session, the single-instance
        # server). Not qapp.exit() inside the paint: the quit work then ran before the
        # frame was flushed and held the first pixels back by ~50 ms.
        def report() -> None:
            print(f"first-paint {time.time():.6f} {time.perf_counter() - started:.6f}", flush=True)
            app.later(lambda: qapp.exit(0))

        app.window.first_painted.disconnect(app.after_first_paint)
        app.window.first_painted.connect(report)
        app.window.first_frame_only = True
    else:
        # after the paint has been reported: QtNetwork is not needed to draw the window
        app.window.first_painted.connect(lambda: app.later(listen))
    if os.environ.get("COMPANION_EXIT_ON_PLAN_DRAWN"):  # benchmarks/startup.py: to the plan
        PlanDrawn(qapp, app.window, started)
        if plan_first:  # the plan is in the first frame: as above, nothing after it runs
            app.window.first_painted.disconnect(app.after_first_paint)
            app.window.first_frame_only = True
    # a save the disk refuses becomes a notice in the window, not a traceback
    write_errors.install(app.window.add_notice)
    app.window.show()
    qapp.aboutToQuit.connect(app.shutdown)
    code = sigint.exec(qapp.exec)
    for server in servers:
        server.close()
    lock.release()
    return code


def say_peak() -> None:
    """For benchmarks/startup.py, as the process exits: ``peak-kib N``, its own peak
    resident memory. The rusage its parent reads keeps the larger of that and the
    parent's own size, on Linux; where there is no /proc, nothing is said."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            lines = [line.split() for line in status if line.startswith("VmHWM:")]
    except OSError:
        return
    if lines:
        print(f"peak-kib {lines[0][1]}", flush=True)
