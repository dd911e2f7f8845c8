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
    assert set(values) == {
        "scheduled_at",
        "type",
        "interviewer_role",
        "interviewer_name",
        "length_minutes",
        "link",
        "organizer",
    }
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
        "length_minutes": None,  # untouched: the content's length for its type
        "link": "",
        "organizer": "",
        "notes": "Friendly",
    }


def test_the_round_dialog_edits_the_invitations_organizer(qtbot, ctx):
    from companion.core.day.loops import update_round

    rid = add_round(ctx.db, None, "coding", interviewer_name="Marcus Weber")
    update_round(ctx.db, rid, organizer="Dana Li")
    dialog = RoundDialog(TYPES, None, get_round(ctx.db, rid))
    qtbot.addWidget(dialog)
    assert dialog.organizer.text() == "Dana Li"
    dialog.organizer.setText("Dana Li (recruiter)")
    assert dialog.try_accept()
    update_round(ctx.db, rid, **dialog.values())
    assert get_round(ctx.db, rid).organizer == "Dana Li (recruiter)"


def test_journal_new_loop_uses_the_shared_dialog(qtbot, ctx, bus, day_service):
    from companion.ui.journal.page import JournalPage

    page = JournalPage(ctx, bus, day=day_service)
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


def test_a_new_round_has_its_types_length_and_any_length_can_be_picked(qtbot, clock):
    dialog = RoundDialog(TYPES, clock.now(), lengths={"design": 60, "coding": 45})
    qtbot.addWidget(dialog)
    assert dialog.length.minutes() == 60  # System design, the first type
    dialog.type.setCurrentIndex(1)
    assert dialog.length.minutes() == 45  # the length follows the type until one is picked
    assert [dialog.length.combo.itemText(i) for i in range(4)] == [
        "30 min",
        "45 min",
        "60 min",
        "Other…",
    ]
    dialog.length.combo.setCurrentIndex(0)
    dialog.length.combo.activated.emit(0)
    dialog.type.setCurrentIndex(0)
    assert dialog.values()["length_minutes"] == 30  # picked: the type no longer moves it
    dialog.length.combo.setCurrentIndex(3)
    dialog.length.combo.activated.emit(3)
    assert not dialog.length.other.isHidden()
    dialog.length.other.setValue(50)
    assert dialog.values()["length_minutes"] == 50


def test_editing_keeps_the_length_interviewer_and_link(qtbot, ctx, clock):
    from companion.core.day.loops import update_round

    rid = add_round(ctx.db, None, "design", interviewer_name="Priya Raman")
    update_round(ctx.db, rid, length_minutes=50, link="https://meet.example.com/x")
    dialog = RoundDialog(TYPES, clock.now(), get_round(ctx.db, rid), lengths={"design": 60})
    qtbot.addWidget(dialog)
    values = dialog.values()
    assert values["length_minutes"] == 50 and dialog.length.combo.currentText() == "Other…"
    assert values["interviewer_name"] == "Priya Raman"
    assert values["link"] == "https://meet.example.com/x"
    dialog.link.setText("file:///etc/passwd")
    assert not dialog.try_accept() and "not a web address" in dialog.error.text()


def test_the_length_and_link_of_a_round_added_on_today_are_stored(
    qtbot, ctx, bus, day_service, clock
):
    from companion.core.day.loops import create_loop, list_rounds
    from companion.ui.today.schedule import ScheduleEditor

    loop = create_loop(ctx.db, "Acme", starts_on=clock.now().date().isoformat())
    editor = ScheduleEditor(ctx, bus, day_service)
    qtbot.addWidget(editor)
    editor.set_loop(loop)
    dialog = RoundDialog(TYPES, clock.now())
    qtbot.addWidget(dialog)
    dialog.length.set_minutes(30)
    dialog.length.picked.emit()
    dialog.link.setText("https://meet.example.com/abc")
    editor.save_new(dialog.values())
    (rnd,) = list_rounds(ctx.db, loop)
    assert (rnd.length_minutes, rnd.link) == (30, "https://meet.example.com/abc")


def test_editing_a_custom_type_round_keeps_its_own_words(qtbot, ctx):
    """#34: the dialog pre-filled the slug 'bar-raiser', and saving renamed the round to
    'bar-raiser round'."""
    from companion.core.day.actions import add
    from companion.core.day.loops import update_round
    from companion.core.day.model import round_title

    rid = add(ctx.db, None, "", known={"design", "coding"}, label="Bar raiser")
    rnd = get_round(ctx.db, rid)
    assert (rnd.type, rnd.type_label) == ("bar-raiser", "Bar raiser")
    dialog = RoundDialog(TYPES, None, rnd)
    qtbot.addWidget(dialog)
    assert dialog.type.currentText() == "Bar raiser"
    assert dialog.try_accept()
    update_round(ctx.db, rid, **dialog.values())
    assert round_title(get_round(ctx.db, rid), dict(TYPES)) == "Bar raiser round"


def test_alt_l_takes_the_focus_to_the_length(qtbot, clock):
    """The "&Length:" label's buddy is the picker; a picker that takes no focus made
    Alt+L do nothing (the walk typed "30" into the call link)."""
    from PySide6.QtWidgets import QApplication

    dialog = RoundDialog(TYPES, clock.now())
    qtbot.addWidget(dialog)
    dialog.show()
    dialog.activateWindow()
    qtbot.waitUntil(dialog.isActiveWindow)
    dialog.link.setFocus()
    qtbot.waitUntil(dialog.link.hasFocus)
    qtbot.keyClick(dialog.link, Qt.Key.Key_L, Qt.KeyboardModifier.AltModifier)
    assert QApplication.focusWidget() is dialog.length.combo
