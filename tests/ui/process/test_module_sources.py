"""PySide6's import hook reads the whole source of every module imported after QtCore
(PYSIDE-2029) and leaves its lines in ``linecache`` for the life of the process: with
every page built, 351 modules, about 10 MiB of the app's 110. The app lets them go at its
import seams (the first frame, start-up's end, each page), so a session keeps none."""

from __future__ import annotations

import textwrap

import pytest

pytestmark = pytest.mark.gui

CHILD = textwrap.dedent(
    """
    import linecache, sys
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication
    import companion.ui.app as ui_app
    from companion.cli import main

    def visit_pages():
        app = QApplication.instance()
        window = next(w for w in app.topLevelWidgets() if w.objectName() == "mainWindow")
        for key in ("journal", "study", "selfcheck", "checklist"):
            window.show_page(key)
            app.processEvents()
        ours = sorted(f for f in linecache.cache if "/companion/" in f)
        print("held", len(ours), *ours[:5])
        window.close_and_quit()

    finish = ui_app.Application._finish_start

    def finish_then_visit(self):  # observed, not replaced: the real start-up runs
        finish(self)
        QTimer.singleShot(0, visit_pages)

    ui_app.Application._finish_start = finish_then_visit
    sys.exit(main(["--data-dir", sys.argv[1]]))
    """
)


def test_a_session_keeps_no_source_lines_of_its_modules(tmp_path):
    from app_child import run_child

    done = run_child(CHILD, str(tmp_path / "data"), home=tmp_path / "home")
    assert done.returncode == 0, done.stderr
    held = next(line for line in done.stdout.splitlines() if line.startswith("held "))
    assert int(held.split()[1]) <= 10, held
