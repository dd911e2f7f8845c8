"""`companion --self-test`: load content, open a temporary database, paint the main
window once offscreen, and exit 0 when all of it worked."""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

from companion.core.context import AppContext
from companion.core.text import count_of, say
from companion.ui.app import Application, create_application
from companion.ui.icons import icon


def run_self_test() -> int:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

    failures: list[str] = []
    with tempfile.TemporaryDirectory(prefix="companion-selftest-") as tmp:
        ctx = AppContext(Path(tmp))
        content = ctx.content
        if ctx.content_errors:
            failures += [f"content: {e}" for e in ctx.content_errors]
        if not content.sections:
            failures.append("content: no sections were loaded")
        store = ctx.store
        if ctx.storage_problem:
            failures.append(f"storage: {ctx.storage_problem}")
        if store.quick_check() != "ok":
            failures.append("storage: quick_check failed")

        from PySide6.QtCore import QTimer, qInstallMessageHandler

        def quiet(_mode, _context, message: str) -> None:
            # the offscreen platform says this for every window; anything else is shown
            if "propagateSizeHints" not in message:
                say(f"qt: {message}", err=True)

        qInstallMessageHandler(quiet)

        qapp = create_application(sys.argv[:1])
        app = Application(ctx, qapp)
        painted: list[bool] = []
        app.window.first_painted.connect(lambda: painted.append(True))
        app.window.first_painted.connect(lambda: QTimer.singleShot(0, qapp.quit))
        QTimer.singleShot(10_000, qapp.quit)  # never hang
        app.window.show()
        qapp.exec()

        if icon("app").pixmap(64).isNull():
            failures.append("ui: the SVG icon could not be drawn (is the qsvg plugin there?)")
        image = app.window.grab()
        if not painted or image.isNull():
            failures.append("ui: the main window did not paint")
        app.window.close()
        ctx.close()
    for failure in failures:
        say(f"self-test: {failure}", err=True)
    say("self-test: ok" if not failures else f"self-test: {count_of(len(failures), 'failure')}")
    return 0 if not failures else 1
