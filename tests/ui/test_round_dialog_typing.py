"""Typing a start in words in the round dialog ("4 March 14:30"), as in the Add-loop date
field: the user selects the field, types, and leaves it with Tab or Enter."""

from __future__ import annotations

import datetime as dt

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialog

from companion.ui.widgets.loop_dialogs import RoundDialog

pytestmark = pytest.mark.gui

TYPES = [("design", "System design"), ("coding", "Coding")]


def local(*parts: int) -> dt.datetime:
    return dt.datetime(*parts).astimezone()


@pytest.fixture
def typed_start(qtbot):
    """Open a round dialog starting at ``start``, type ``text`` into its start field,
    leave the field with ``key``; give the dialog back."""

    def run(start: dt.datetime, text: str, key=Qt.Key.Key_Tab) -> RoundDialog:
        dialog = RoundDialog(TYPES, start)
        qtbot.addWidget(dialog)
        dialog.show()
        dialog.activateWindow()
        qtbot.waitUntil(dialog.isActiveWindow)
        dialog.when.setFocus()
        qtbot.waitUntil(dialog.when.hasFocus)
        dialog.when.lineEdit().selectAll()
        qtbot.keyClicks(dialog.when, text)
        qtbot.keyClick(dialog.when, key)
        return dialog

    return run


def test_a_month_name_and_time_can_be_typed_in_the_start_field(typed_start):
    dialog = typed_start(local(2026, 12, 1, 10, 0), "4 March 14:30")
    assert not dialog.when.hasFocus()  # Tab moved on, as a user's would
    # no year typed: the next 4 March after the dialog's day
    assert dialog.values()["scheduled_at"] == local(2027, 3, 4, 14, 30)
    assert "4 Mar 2027" in dialog.when.text() and "14:30" in dialog.when.text()


def test_enter_in_the_start_field_takes_the_typed_time_and_saves(typed_start):
    dialog = typed_start(local(2026, 12, 1, 10, 0), "tomorrow 2:30 pm", Qt.Key.Key_Return)
    assert dialog.result() == QDialog.DialogCode.Accepted
    assert dialog.values()["scheduled_at"] == local(2026, 12, 2, 14, 30)


def test_a_time_alone_keeps_the_day_and_a_day_alone_keeps_the_time(typed_start):
    assert typed_start(local(2026, 12, 3, 10, 0), "16:45").values()["scheduled_at"] == local(
        2026, 12, 3, 16, 45
    )
    assert typed_start(local(2026, 12, 3, 10, 0), "Mar 5 2027").values()["scheduled_at"] == local(
        2027, 3, 5, 10, 0
    )


@pytest.mark.parametrize("text", ["next blursday", "4 March 25:00", "14:75"])
def test_garbage_in_the_start_field_keeps_the_previous_start(typed_start, text):
    dialog = typed_start(local(2026, 12, 1, 10, 0), text)
    assert dialog.values()["scheduled_at"] == local(2026, 12, 1, 10, 0)
    assert dialog.when.text() == "Tue 1 Dec 2026  10:00"  # shown again, not half-typed
