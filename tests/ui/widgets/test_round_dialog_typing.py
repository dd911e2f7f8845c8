"""Typing a start in words in the round dialog ("4 March 14:30"), as in the Add-loop date
field: the user selects the field, types, and leaves it with Tab or Enter."""

from __future__ import annotations

import datetime as dt

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialog
from user_input import type_into

from companion.ui.widgets.loop_dialogs import RoundDialog

pytestmark = pytest.mark.gui

TYPES = [("design", "System design"), ("coding", "Coding")]


def local(*parts: int) -> dt.datetime:
    return dt.datetime(*parts).astimezone()


def type_start(
    qtbot,
    dialog: RoundDialog,
    text: str,
    key=Qt.Key.Key_Tab,
    modifier=Qt.KeyboardModifier.NoModifier,
) -> None:
    """Select all of the dialog's start field, type ``text``, then press ``key`` (if any)."""
    type_into(qtbot, dialog.when, text, key, modifier)


@pytest.fixture
def typed_start(qtbot):
    """A round dialog starting at ``start`` with ``text`` typed into its start field."""

    def run(start: dt.datetime, text: str, key=Qt.Key.Key_Tab, modifier=None) -> RoundDialog:
        dialog = RoundDialog(TYPES, start)
        qtbot.addWidget(dialog)
        type_start(qtbot, dialog, text, key, modifier or Qt.KeyboardModifier.NoModifier)
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


def test_ctrl_enter_right_after_typing_saves_the_typed_start(typed_start):
    dialog = typed_start(
        local(2026, 12, 1, 10, 0),
        "4 March 14:30",
        Qt.Key.Key_Return,
        Qt.KeyboardModifier.ControlModifier,
    )
    assert dialog.result() == QDialog.DialogCode.Accepted
    assert dialog.values()["scheduled_at"] == local(2027, 3, 4, 14, 30)


def test_the_dialog_reads_the_typed_start_while_the_field_still_has_focus(typed_start):
    """Ctrl+Enter is a shortcut: the dialog checks and saves without the field being
    left, so the dialog itself reads what is typed there."""
    dialog = typed_start(local(2026, 12, 1, 10, 0), "4 March 14:30", None)
    assert dialog.when.hasFocus()
    assert dialog.values()["scheduled_at"] == local(2027, 3, 4, 14, 30)


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


def test_tomorrow_in_the_schedule_counts_from_today_not_from_the_rounds_day(
    day_service, qtbot, ctx, bus, clock, monkeypatch
):
    """Editing a round set for the day after tomorrow, "tomorrow 9:15" is tomorrow."""
    from companion.core.day.loops import add_round, create_loop, get_round
    from companion.ui.today.schedule import ScheduleEditor

    today = clock.now().astimezone().date()
    later = dt.datetime.combine(today + dt.timedelta(days=2), dt.time(10)).astimezone()
    loop_id = create_loop(ctx.db, "Acme", "SRE", starts_on=today.isoformat())
    round_id = add_round(ctx.db, loop_id, "coding", scheduled_at=later)

    editor = ScheduleEditor(ctx, bus, day_service)
    qtbot.addWidget(editor)
    editor.set_loop(loop_id)
    editor.tree.setCurrentItem(editor.tree.topLevelItem(0))
    editor.edit_selected()  # opened without a nested event loop: answered below
    assert isinstance(editor.dialog, RoundDialog)
    type_start(qtbot, editor.dialog, "tomorrow 9:15")
    editor.dialog.done(QDialog.DialogCode.Accepted)
    tomorrow = dt.datetime.combine(today + dt.timedelta(days=1), dt.time(9, 15)).astimezone()
    assert get_round(ctx.db, round_id).scheduled == tomorrow
