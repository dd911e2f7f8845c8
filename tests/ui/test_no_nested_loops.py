"""No dialog runs an event loop of its own (issue #26): the day timer fires during a
nested ``exec()``, the page under the dialog redraws, and the code after ``exec()`` then
acts on what was true before (qutebrowser #8674 was a crash from one). Dialogs open with
``open()`` and a callback (companion/ui/widgets/opening.py)."""

from __future__ import annotations

import ast
import datetime as dt
from pathlib import Path

import pytest
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QDialog

import companion.ui
from companion.core.day.loops import add_round, create_loop

UI = Path(companion.ui.__file__).parent

# Qt's static dialogs: each runs exec() inside
STATIC = {
    "QFileDialog": {
        "getOpenFileName",
        "getOpenFileNames",
        "getSaveFileName",
        "getExistingDirectory",
        "getOpenFileUrl",
        "getOpenFileUrls",
        "getSaveFileUrl",
        "getExistingDirectoryUrl",
    },
    "QMessageBox": {"warning", "information", "critical", "question", "about", "aboutQt"},
    "QInputDialog": {"getText", "getMultiLineText", "getInt", "getDouble", "getItem"},
    "QColorDialog": {"getColor"},
    "QFontDialog": {"getFont"},
}

# (module under companion/ui, the call): why it may run a loop
ALLOWED = {
    # the application's own event loop (qapp.exec), run by the Ctrl+C guard
    ("process/launch.py", "sigint.exec"): "the application's own event loop, the only one",
    ("process/card_launch.py", "sigint.exec"): "`companion cue`'s own event loop, the only one",
    # before the main window, the day service and its timer exist, and before
    # qapp.exec(): this loop is the outermost one, nothing can change under it
    ("process/folder_problem.py", "box.exec"): "the start-up folder question",
    (
        "process/folder_problem.py",
        "QFileDialog.getExistingDirectory",
    ): "the start-up folder question",
}


def _loops_in(path: Path) -> list[tuple[str, int]]:
    """Each call in ``path`` that runs an event loop: (its text, line)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
            continue
        name = node.func.attr
        owner = node.func.value
        owner_name = owner.id if isinstance(owner, ast.Name) else ""
        if name in ("exec", "exec_") or name in STATIC.get(owner_name, ()):
            found.append((ast.unparse(node.func), node.lineno))
    return found


def test_no_ui_module_runs_a_nested_event_loop():
    seen, offenders = set(), []
    for path in sorted(UI.rglob("*.py")):
        module = path.relative_to(UI).as_posix()
        for call, line in _loops_in(path):
            if (module, call) in ALLOWED:
                seen.add((module, call))
            else:
                offenders.append(f"companion/ui/{module}:{line}: {call}()")
    assert offenders == [], "open these with open() and a callback (widgets/opening.py)"
    assert seen == set(ALLOWED), "an allowed loop is gone: take it off the list"


def test_the_scan_sees_each_kind_of_loop(tmp_path):
    source = tmp_path / "bad.py"
    source.write_text(
        "dialog.exec()\nmenu.exec_(pos)\nQFileDialog.getOpenFileName(w)\n"
        "QMessageBox.warning(w, 't', 'x')\nQInputDialog.getText(w, 't', 'x')\n"
        "dialog.open()\nQMessageBox(w).show()\n",
        encoding="utf-8",
    )
    assert [line for _call, line in _loops_in(source)] == [1, 2, 3, 4, 5]


@pytest.fixture(autouse=True)
def watchdog(qapp):
    """A nested loop would hold a test inside the call that opens the dialog: this
    closes it after a while, so the test fails (nothing open once the call returned)
    instead of hanging."""

    def close() -> None:
        for widget in (QApplication.activePopupWidget(), QApplication.activeModalWidget()):
            if widget is not None:
                widget.close()

    timer = QTimer(singleShot=True)
    timer.timeout.connect(close)
    timer.start(10_000)
    yield
    timer.stop()


def _open_schedule(page):
    page.schedule.choose_ics()


OPENERS = {
    "today: import an invitation": ("today", _open_schedule),
    "about: export": ("about", lambda page: page.documents.export_dialog()),
    "about: import": ("about", lambda page: page.documents.import_dialog()),
    "about: print": ("about", lambda page: page.documents.print_dialog()),
    "journal: export": ("journal", lambda page: page.export_journal()),
    "journal: import": ("journal", lambda page: page.import_journal()),
    "study: export": ("study", lambda page: page.export("csv")),
}


@pytest.mark.parametrize("opener", list(OPENERS))
def test_the_day_goes_on_while_a_dialog_is_open(
    day_service, qtbot, main_window, open_page, ctx, bus, clock, opener
):
    """The call returns with the dialog open; the day timer then fires on its own (a
    round's scheduled start passes) and Today shows the round running, under the dialog."""
    key, open_it = OPENERS[opener]
    loop = create_loop(ctx.db, "Acme", "SRE", starts_on=clock.now().date().isoformat())
    round_id = add_round(ctx.db, loop, "coding", scheduled_at=clock.now() + dt.timedelta(seconds=1))
    win = main_window()
    today = open_page(win, "today")
    day_service.choose_loop(loop)
    assert day_service.view.current is None or day_service.view.current.id != round_id
    page = open_page(win, key)
    views = []
    bus.day_changed.connect(views.append)
    open_it(page)
    dialog = QApplication.activeModalWidget()
    assert isinstance(dialog, QDialog) and dialog.isVisible()
    assert dialog.accessibleName() == dialog.windowTitle() != ""
    clock.advance(minutes=1)  # the round's start passes; the timer armed for it fires
    qtbot.waitUntil(lambda: bool(views) and views[-1].current is not None, timeout=10_000)
    assert views[-1].current.id == round_id and views[-1].phase == "in-round"
    assert dialog.isVisible() and QApplication.activeModalWidget() is dialog
    assert today.view is views[-1]  # the page under the dialog shows the day as it is now
    dialog.reject()


@pytest.mark.qt_log_ignore("This plugin does not support")  # offscreen: popups
def test_the_calendar_of_a_day_field_opens_as_a_popup(qtbot):
    from PySide6.QtWidgets import QCalendarWidget, QMenu

    from companion.ui.widgets.day_edit import DayEdit

    field = DayEdit(dt.date(2026, 11, 30))
    qtbot.addWidget(field)
    field.show()
    field.open_calendar()  # returns with the calendar open
    (menu,) = [m for m in field.findChildren(QMenu) if m.isVisible()]
    calendar = menu.findChild(QCalendarWidget)
    calendar.clicked.emit(calendar.selectedDate().addDays(3))
    qtbot.waitUntil(lambda: not field.findChildren(QMenu))  # closed, then deleted
    assert field.text() == "Thu 3 Dec 2026"


@pytest.mark.qt_log_ignore("This plugin does not support")  # offscreen: popups
def test_the_journal_rounds_menu_opens_as_a_popup(qtbot, ctx, bus, day_service, clock):
    from PySide6.QtWidgets import QMenu

    from companion.core.day.loops import start_round
    from companion.ui.journal.page import JournalPage

    loop = create_loop(ctx.db, "Acme", starts_on=clock.now().date().isoformat())
    start_round(ctx.db, "design", clock.now(), loop_id=loop)
    page = JournalPage(ctx, bus, day=day_service)
    qtbot.addWidget(page)
    page.show()
    page.refresh()
    page.loop_list.view.setCurrentIndex(
        page.loop_list.model.index(page.loop_list.model.row_of(loop), 0)
    )
    view = page.rounds.view
    qtbot.waitUntil(lambda: view.model().rowCount() > 0)
    view.setCurrentIndex(view.model().index(0, 0))
    page._entry_menu(view.visualRect(view.model().index(0, 0)).center())  # returns at once
    (menu,) = [m for m in view.findChildren(QMenu) if m.isVisible()]
    assert [a.text() for a in menu.actions()][:1] == [
        page.entry_actions.edit_button.text().replace("&", "")
    ]
    menu.close()
    qtbot.waitUntil(lambda: not view.findChildren(QMenu))


def test_a_restore_that_fails_says_so_without_a_nested_loop(qtbot, ctx, data_dir):
    from PySide6.QtWidgets import QMessageBox

    from companion.ui.app import Application

    app = Application(ctx, QApplication.instance())
    qtbot.addWidget(app.window)
    app._finish_start()
    app.restore_backup(data_dir / "backups" / "gone.sqlite3")  # returns with the box open
    (box,) = [b for b in app.window.findChildren(QMessageBox) if b.isVisible()]
    assert "Could not restore gone.sqlite3" in box.text()
    assert box.icon() == QMessageBox.Icon.Warning and box.isModal()
    box.button(QMessageBox.StandardButton.Ok).click()
