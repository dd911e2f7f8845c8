"""A date field that reads a typed day in words ("3 March", "Mar 3 2026") as well as the
calendar picker: QDateEdit's own typing takes only the digits of its display format.
DayTimeEdit does the same for a day and a time ("4 March 14:30")."""

from __future__ import annotations

import datetime as dt

from PySide6.QtCore import QDate, QDateTime, QTime
from PySide6.QtGui import QValidator
from PySide6.QtWidgets import QDateEdit, QDateTimeEdit

from companion.core.day.dates import parse_day, parse_day_time

DISPLAY = "ddd d MMM yyyy"


class DayEdit(QDateEdit):
    def __init__(self, day: dt.date, today: dt.date | None = None, parent=None):
        super().__init__(QDate(day), parent)
        self.today = today or day
        self.setDisplayFormat(DISPLAY)
        self.setCalendarPopup(True)
        self.setKeyboardTracking(False)  # "3/3/2026" half way to "3/3/20266" is no value
        self.setToolTip("Type a day (3 March, Mar 3 2026, 3/3/2026) or pick one")

    def _parsed(self, text: str) -> dt.date | None:
        shown = QDateTime.fromString(text.strip(), DISPLAY)
        if shown.isValid():
            return shown.date().toPython()
        return parse_day(text, self.today)

    def validate(self, text: str, pos: int):  # noqa: D401 (Qt API)
        state = QValidator.State.Acceptable if self._parsed(text) else QValidator.State.Intermediate
        return state, text, pos

    def fixup(self, text: str) -> str:
        day = self._parsed(text)
        return QDate(day).toString(DISPLAY) if day else self.date().toString(DISPLAY)

    def dateTimeFromText(self, text: str) -> QDateTime:  # noqa: N802 (Qt API)
        moment = self.dateTime()  # a QDateEdit keeps UTC: a local midnight was yesterday
        day = self._parsed(text)
        if day is not None:
            moment.setDate(QDate(day))
        return moment


DAY_TIME_DISPLAY = "ddd d MMM yyyy  HH:mm"


def _wall(when: dt.datetime) -> QDateTime:
    """A naive datetime as a QDateTime in local wall time, to the minute."""
    return QDateTime(QDate(when.date()), QTime(when.hour, when.minute))


class DayTimeEdit(QDateTimeEdit):
    """A start field that reads a typed day and/or time ("4 March 14:30", "tomorrow
    2pm", "14:30") as well as its own display format and the calendar picker. Text it
    cannot read is Intermediate, so leaving the field puts the previous value back."""

    def __init__(self, when: dt.datetime, today: dt.date | None = None, parent=None):
        super().__init__(_wall(when), parent)
        self.today = today or when.date()
        self.setDisplayFormat(DAY_TIME_DISPLAY)
        self.setCalendarPopup(True)
        # read the text once, on Enter or leaving the field: half-typed "4 March 1" must
        # not become a value (the year 2001), nor the day a later "14:30" keeps
        self.setKeyboardTracking(False)
        self.setToolTip(
            "Type a day and time (4 March 14:30, tomorrow 2pm, Mar 4 2027 9:15),"
            " a time alone (14:30) or a day alone (4 March), or pick a day"
        )

    def _parsed(self, text: str) -> QDateTime | None:
        shown = self.locale().toDateTime(text.strip(), DAY_TIME_DISPLAY)
        if shown.isValid():
            return shown
        when = parse_day_time(text, self.today, self.dateTime().toPython())
        return _wall(when) if when else None

    def validate(self, text: str, pos: int):  # noqa: D401 (Qt API)
        state = QValidator.State.Acceptable if self._parsed(text) else QValidator.State.Intermediate
        return state, text, pos

    def fixup(self, text: str) -> str:
        return self.textFromDateTime(self._parsed(text) or self.dateTime())

    def dateTimeFromText(self, text: str) -> QDateTime:  # noqa: N802 (Qt API)
        return self._parsed(text) or self.dateTime()
