"""The one new-loop dialog and the one round dialog, shared by Today and the Journal."""

from __future__ import annotations

import datetime as dt

import pytest
from PySide6.QtCore import QDate, Qt
from PySide6.QtWidgets import QDialog

from companion.core.day.loops import add_round, get_loop, get_round, list_loops
from companion.ui.widgets.loop_dialogs import LoopDialog, RoundDialog

pytestmark = pytest.mark.gui

TYPES = [("design", "System design"), ("coding", "Coding")]


def test_loop_dialog_needs_a_company_and_gives_an_iso_day(qtbot):
    dialog = LoopDialog(dt.date(2026, 12, 1))
    qtbot.addWidget(dialog)
    assert not dialog.try_accept() and "company" in dialog.error.text()
    dialog.company.setText("  Acme ")
    dialog.role.setText("SRE")
    dialog.day.setDate(QDate(2026, 12, 3))
    assert dialog.try_accept()
    assert dialog.values() == ("Acme", "SRE", "2026-12-03")


def test_round_dialog_for_today_has_the_time_and_no_notes(qtbot, clock):
    dialog = RoundDialog(TYPES, clock.now())
    qtbot.addWidget(dialog)
    values = dialog.values()
    assert set(values) == {"scheduled_at", "type", "interviewer_role", "interviewer_name"}
    assert values["scheduled_at"] == clock.now().replace(second=0, microsecond=0)
    dialog.type.setEditText("")
    assert not dialog.try_accept() and "type is empty" in dialog.error.text()


def test_round_dialog_for_the_journal_edits_notes_and_checks_with_core(qtbot, ctx):
    rid = add_round(ctx.db, None, "design", interviewer_name="Dana")
    dialog = RoundDialog(TYPES, None, get_round(ctx.db, rid), notes=True)
    qtbot.addWidget(dialog)
    dialog.notes.setPlainText("x" * 200_001)
    assert not dialog.try_accept() and "limit" in dialog.error.text()
    dialog.notes.setPlainText("Friendly")
    assert dialog.try_accept()
    assert dialog.values() == {
        "type": "design",
        "interviewer_role": "",
        "interviewer_name": "Dana",
        "notes": "Friendly",
    }


def test_journal_new_loop_uses_the_shared_dialog(qtbot, ctx, bus):
    from companion.ui.journal.page import JournalPage

    page = JournalPage(ctx, bus)
    qtbot.addWidget(page)
    page.new_loop()  # opened without a nested event loop: answered below
    dialog = page.loop_dialog
    assert isinstance(dialog, LoopDialog) and list_loops(ctx.db) == []
    dialog.company.setText("Globex")
    dialog.day.setDate(QDate(2026, 12, 4))
    dialog.done(QDialog.DialogCode.Accepted)
    (loop,) = list_loops(ctx.db)
    assert (loop.company, loop.starts_on, loop.ends_on) == ("Globex", "2026-12-04", "2026-12-04")
    assert get_loop(ctx.db, loop.id) == loop


def test_the_add_loop_dialog_is_wide_enough_for_its_title(qtbot):
    dialog = LoopDialog(dt.date(2026, 12, 1))
    qtbot.addWidget(dialog)
    dialog.show()
    title_font = dialog.font()
    title_font.setPointSizeF(title_font.pointSizeF() * 1.3)  # a window manager's bold title
    from PySide6.QtGui import QFontMetrics

    needed = QFontMetrics(title_font).horizontalAdvance(dialog.windowTitle()) + 160  # buttons
    assert dialog.width() >= needed


def test_a_month_name_can_be_typed_in_the_date_field(qtbot):
    from user_input import type_into

    dialog = LoopDialog(dt.date(2026, 11, 30))
    qtbot.addWidget(dialog)
    type_into(qtbot, dialog.day, "3 March 2027", key=None)
    assert dialog.day.hasFocus()
    assert dialog.values()[2] == "2027-03-03"  # what Ctrl+Enter saves, still typing
    qtbot.keyClick(dialog.day, Qt.Key.Key_Tab)
    assert dialog.values()[2] == "2027-03-03"
    assert dialog.day.text() == "Wed 3 Mar 2027"


def test_typing_goes_to_the_first_field_when_a_dialog_opens(qtbot, ctx):
    """The buttons are made before the fields; Qt used to give OK the focus, so the letters
    a user typed into a fresh Add-loop dialog went nowhere."""
    from PySide6.QtWidgets import QApplication

    dialog = LoopDialog(dt.date(2026, 12, 1))
    qtbot.addWidget(dialog)
    dialog.show()
    dialog.activateWindow()
    qtbot.waitUntil(lambda: QApplication.focusWidget() is dialog.company)
    qtbot.keyClicks(QApplication.focusWidget(), "Northwind")
    assert dialog.company.text() == "Northwind"
    rnd = RoundDialog(TYPES, dt.datetime(2026, 12, 1, 10, 0).astimezone())
    qtbot.addWidget(rnd)
    rnd.show()
    rnd.activateWindow()
    qtbot.waitUntil(lambda: QApplication.focusWidget() is rnd.type)  # its own choice stands
