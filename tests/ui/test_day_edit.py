"""The typed-day fields (companion/ui/widgets/day_edit.py): what they accept while the
user types, and that text they cannot read never replaces the value they had."""

from __future__ import annotations

import datetime as dt

import pytest
from PySide6.QtCore import QDate, QDateTime, Qt, QTime
from PySide6.QtGui import QValidator

from companion.ui.widgets.day_edit import DayEdit, DayTimeEdit

pytestmark = pytest.mark.gui

START = dt.datetime(2026, 12, 1, 10, 0)


@pytest.fixture
def field(qtbot):
    edit = DayTimeEdit(START, today=dt.date(2026, 11, 30))
    qtbot.addWidget(edit)
    return edit


def type_into(qtbot, edit, text: str) -> None:
    """Focus ``edit`` in a shown window, replace its text with ``text``, press Enter."""
    edit.show()
    edit.activateWindow()
    qtbot.waitUntil(edit.isActiveWindow)
    edit.setFocus()
    qtbot.waitUntil(edit.hasFocus)
    edit.lineEdit().selectAll()
    qtbot.keyClicks(edit, text)
    qtbot.keyClick(edit, Qt.Key.Key_Return)


def test_the_start_field_shows_its_format_a_picker_and_says_what_to_type(field):
    assert field.text() == "Tue 1 Dec 2026  10:00"
    assert field.calendarPopup()
    assert field.keyboardTracking() is False
    for example in ("4 March 14:30", "tomorrow 2pm", "14:30"):
        assert example in field.toolTip()


@pytest.mark.parametrize(
    ("text", "state"),
    [
        ("4 March 14:30", QValidator.State.Acceptable),
        ("Thu 4 Mar 2027  14:30", QValidator.State.Acceptable),
        ("tomorrow 2pm", QValidator.State.Acceptable),
        ("4 Mar", QValidator.State.Acceptable),
        ("4 March 14:", QValidator.State.Intermediate),  # half typed: not refused
        ("4 March 25:00", QValidator.State.Intermediate),
        ("next blursday", QValidator.State.Intermediate),
    ],
)
def test_text_is_acceptable_only_when_it_reads_as_a_moment(field, text, state):
    assert field.validate(text, len(text))[0] == state


def test_fixup_writes_what_was_read_in_the_display_format_or_the_old_value(field):
    assert field.fixup("4 March 14:30") == "Thu 4 Mar 2027  14:30"
    assert field.fixup("tomorrow 9am") == "Tue 1 Dec 2026  09:00"  # today is 30 Nov
    assert field.fixup("nonsense") == "Tue 1 Dec 2026  10:00"


def test_reading_the_text_gives_the_moment_or_keeps_the_value(field):
    assert field.dateTimeFromText("16:45") == QDateTime(QDate(2026, 12, 1), QTime(16, 45))
    assert field.dateTimeFromText("nonsense") == field.dateTime()


def test_a_typed_start_becomes_the_value(qtbot, field):
    type_into(qtbot, field, "Mar 4 2027 2:30 pm")
    assert field.dateTime().toPython() == dt.datetime(2027, 3, 4, 14, 30)


@pytest.mark.parametrize("text", ["4 March 2027 14:75", "4 March 14:30 and 15:00"])
def test_text_that_reads_only_half_way_keeps_the_start_it_had(qtbot, field, text):
    """A prefix ("4 March 2027 14:7") may read as a moment; what was finally typed does
    not, so the field keeps the value it had before the user started typing."""
    type_into(qtbot, field, text)
    assert field.dateTime().toPython() == START


@pytest.mark.parametrize("text", ["3/3/20266", "3 March 2027 99:99x"])
def test_a_day_field_keeps_its_day_when_the_text_reads_only_half_way(qtbot, text):
    edit = DayEdit(dt.date(2026, 11, 30))
    qtbot.addWidget(edit)
    type_into(qtbot, edit, text)
    assert edit.date().toPython() == dt.date(2026, 11, 30)


@pytest.fixture
def east_of_utc(monkeypatch):
    """Local time 14 hours ahead of UTC, where local midnight is yesterday in UTC."""
    import time

    monkeypatch.setenv("TZ", "Pacific/Kiritimati")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


def test_a_typed_day_is_that_day_east_of_utc(qtbot, east_of_utc):
    edit = DayEdit(dt.date(2026, 11, 30))
    qtbot.addWidget(edit)
    type_into(qtbot, edit, "3 March 2027")
    assert edit.date().toPython() == dt.date(2027, 3, 3)


def test_a_typed_start_is_that_wall_time_east_of_utc(qtbot, east_of_utc):
    edit = DayTimeEdit(START)
    qtbot.addWidget(edit)
    type_into(qtbot, edit, "4 March 2027 00:30")
    assert edit.dateTime().toPython() == dt.datetime(2027, 3, 4, 0, 30)


def test_the_add_loop_dialog_reads_the_typed_day_while_the_field_still_has_focus(qtbot):
    from companion.ui.widgets.loop_dialogs import LoopDialog

    dialog = LoopDialog(dt.date(2026, 11, 30))
    qtbot.addWidget(dialog)
    dialog.show()
    dialog.activateWindow()
    qtbot.waitUntil(dialog.isActiveWindow)
    dialog.day.setFocus()
    qtbot.waitUntil(dialog.day.hasFocus)
    dialog.day.lineEdit().selectAll()
    qtbot.keyClicks(dialog.day, "3 March 2027")
    assert dialog.day.hasFocus()
    assert dialog.values()[2] == "2027-03-03"  # what Ctrl+Enter saves
