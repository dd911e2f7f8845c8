"""The typed-day fields (companion/ui/widgets/day_edit.py): typed text becomes the value,
keys go to the field as a user's do, and text they cannot read never replaces the value
they had."""

from __future__ import annotations

import datetime as dt

import pytest
from PySide6.QtCore import Qt
from user_input import type_into

from companion.ui.widgets.day_edit import DayEdit, DayTimeEdit

pytestmark = pytest.mark.gui

START = dt.datetime(2026, 12, 1, 10, 0)


@pytest.fixture
def field(qtbot):
    edit = DayTimeEdit(START, today=dt.date(2026, 11, 30))
    qtbot.addWidget(edit)
    return edit


def test_the_start_field_shows_its_format_a_calendar_and_says_what_to_type(field):
    assert field.text() == "Tue 1 Dec 2026  10:00"
    assert field.calendar_action.isVisible() and "calendar" in field.calendar_action.toolTip()
    for example in ("4 March 14:30", "tomorrow 2pm", "14:30"):
        assert example in field.toolTip()


def test_ctrl_a_and_typing_replace_the_whole_day(qtbot):
    """As a user does it, keys to the field itself: QDateEdit took the typed "3" as the
    day section and the "0" as the year, and stored 30 Nov 2000."""
    edit = DayEdit(dt.date(2026, 11, 30))
    qtbot.addWidget(edit)
    edit.show()
    edit.activateWindow()
    edit.setFocus()
    qtbot.waitUntil(edit.hasFocus)
    qtbot.keyClick(edit, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClicks(edit, "30 December")
    qtbot.keyClick(edit, Qt.Key.Key_Return)
    assert edit.date().toPython() == dt.date(2026, 12, 30)
    assert edit.text() == "Wed 30 Dec 2026"


def test_unreadable_text_is_put_back_and_said_in_one_line(qtbot, field):
    said = []
    field.unreadable.connect(said.append)
    type_into(qtbot, field, "next blursday")
    assert field.text() == "Tue 1 Dec 2026  10:00"
    assert field.dateTime().toPython() == START
    assert len(said) == 1 and "\n" not in said[0]
    assert "next blursday" in said[0] and "kept Tue 1 Dec 2026  10:00" in said[0]


def test_up_and_down_step_the_value(qtbot, field):
    day = DayEdit(dt.date(2026, 11, 30))
    qtbot.addWidget(day)
    qtbot.keyClick(day, Qt.Key.Key_Up)
    assert day.date().toPython() == dt.date(2026, 12, 1)
    qtbot.keyClick(field, Qt.Key.Key_Down)
    assert field.dateTime().toPython() == START - dt.timedelta(minutes=5)


@pytest.mark.qt_log_ignore("This plugin does not support")  # offscreen: no popup grabs
def test_the_calendar_picks_a_day_and_keeps_the_time(qtbot, field):
    from PySide6.QtWidgets import QApplication, QCalendarWidget

    field.show()
    qtbot.keyClick(field, Qt.Key.Key_F4)  # opens the calendar as a popup and returns
    popup = QApplication.activePopupWidget()
    calendar = popup.findChild(QCalendarWidget)
    target = calendar.focusWidget() or calendar
    qtbot.keyClick(target, Qt.Key.Key_Right)  # the next day
    qtbot.keyClick(target, Qt.Key.Key_Return)
    assert not popup.isVisible()
    assert field.dateTime().toPython() == START + dt.timedelta(days=1)


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
