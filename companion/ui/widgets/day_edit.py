"""A date field that reads a typed day in words ("3 March", "Mar 3 2026") as well as the
calendar picker: QDateEdit's own typing takes only the digits of its display format."""

from __future__ import annotations

import datetime as dt

from PySide6.QtCore import QDate, QDateTime
from PySide6.QtGui import QValidator
from PySide6.QtWidgets import QDateEdit

from companion.core.day.dates import parse_day

DISPLAY = "ddd d MMM yyyy"


class DayEdit(QDateEdit):
    def __init__(self, day: dt.date, today: dt.date | None = None, parent=None):
        super().__init__(QDate(day), parent)
        self.today = today or day
        self.setDisplayFormat(DISPLAY)
        self.setCalendarPopup(True)
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
        day = self._parsed(text)
        if day is None:
            return self.dateTime()
        return QDateTime(QDate(day), self.time())
