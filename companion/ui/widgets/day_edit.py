"""Day, and day-and-time, fields that read what is typed ("3 March", "Mar 3 2026",
"tomorrow 2pm", "14:30") as well as a calendar picker.

Line edits, not QDateEdit: QDateTimeEdit edits its display format section by section, so
in a selected field a typed "3" became the day and the next "0" the year 2000. Here the
text is text. It is read on Enter or on leaving the field; text that names no day is put
back to the last value (nothing the user had is lost or changed) and ``unreadable`` says
why in one line. Up and Down step the value, Alt+Down or F4 opens the calendar.
"""

from __future__ import annotations

import datetime as dt

from PySide6.QtCore import QDate, QDateTime, Qt, QTime, Signal
from PySide6.QtWidgets import QCalendarWidget, QLineEdit, QMenu, QToolButton, QWidgetAction

from companion.core.day.dates import parse_day, parse_day_time
from companion.ui.icons import icon

DISPLAY = "ddd d MMM yyyy"
DAY_TIME_DISPLAY = "ddd d MMM yyyy  HH:mm"


class _MomentEdit(QLineEdit):
    """What DayEdit and DayTimeEdit share: the text, the calendar, the keys."""

    unreadable = Signal(str)  # a one-line message: what could not be read, what was kept
    EXAMPLES = ""

    def __init__(self, today: dt.date, parent=None):
        super().__init__(parent)
        self.today = today
        self.calendar_action = self.addAction(
            icon("today"), QLineEdit.ActionPosition.TrailingPosition
        )
        self.calendar_action.setToolTip("Pick on a calendar (Alt+Down)")
        self.calendar_action.triggered.connect(self.open_calendar)
        for button in self.findChildren(QToolButton):  # the action's button, for readers
            button.setAccessibleName("Pick on a calendar")
        self.setAccessibleDescription("Alt+Down or F4 opens a calendar; Up and Down step it")
        self.editingFinished.connect(self.interpretText)

    # what the subclasses give -----------------------------------------------------------

    def _show(self) -> str:  # pragma: no cover - overridden
        raise NotImplementedError

    def _read(self, text: str) -> bool:  # pragma: no cover - overridden
        """Take the value ``text`` names; False when it names none."""
        raise NotImplementedError

    def _step(self, steps: int) -> None:  # pragma: no cover - overridden
        raise NotImplementedError

    def _day(self) -> dt.date:  # pragma: no cover - overridden
        raise NotImplementedError

    def _set_day(self, day: dt.date) -> None:  # pragma: no cover - overridden
        raise NotImplementedError

    # shared ----------------------------------------------------------------------------

    def lineEdit(self) -> QLineEdit:  # noqa: N802 (the QDateEdit name the dialogs used)
        return self

    def interpretText(self) -> None:  # noqa: N802 (Qt's name for "read what is typed")
        text = self.text()
        if text == self._show():
            return
        if not self._read(text):
            shown = self._show()
            self.setText(shown)
            self.unreadable.emit(
                f"“{text.strip()[:60]}” is not a {self.WHAT} this field can read "
                f"(try {self.EXAMPLES}); kept {shown.strip()}."
            )
            return
        self.setText(self._show())

    def keyPressEvent(self, event) -> None:  # noqa: N802 (Qt API)
        key, mods = event.key(), event.modifiers()
        if key in (Qt.Key.Key_Up, Qt.Key.Key_Down) and not mods & Qt.KeyboardModifier.AltModifier:
            self.interpretText()
            self._step(1 if key == Qt.Key.Key_Up else -1)
            self.setText(self._show())
            return
        if key == Qt.Key.Key_F4 or (
            key == Qt.Key.Key_Down and mods & Qt.KeyboardModifier.AltModifier
        ):
            self.open_calendar()
            return
        super().keyPressEvent(event)

    def open_calendar(self) -> None:
        self.interpretText()
        menu = QMenu(self)
        calendar = QCalendarWidget(menu)
        calendar.setAccessibleName("Pick a day")
        calendar.setSelectedDate(QDate(self._day()))
        calendar.setGridVisible(False)
        action = QWidgetAction(menu)
        action.setDefaultWidget(calendar)
        menu.addAction(action)

        def picked(day: QDate) -> None:
            self._set_day(day.toPython())
            self.setText(self._show())
            menu.close()

        calendar.clicked.connect(picked)
        calendar.activated.connect(picked)
        menu.aboutToShow.connect(calendar.setFocus)
        menu.aboutToHide.connect(self.setFocus)
        menu.aboutToHide.connect(menu.deleteLater)
        menu.popup(self.mapToGlobal(self.rect().bottomLeft()))  # no loop of its own


class DayEdit(_MomentEdit):
    WHAT = "day"
    EXAMPLES = "3 March, Mar 3 2026, 3/3/2026, tomorrow"

    def __init__(self, day: dt.date, today: dt.date | None = None, parent=None):
        super().__init__(today or day, parent)
        self._value = day
        self.setText(self._show())
        self.setToolTip("Type a day (3 March, Mar 3 2026, 3/3/2026, tomorrow) or pick one")

    def date(self) -> QDate:
        return QDate(self._value)

    def setDate(self, day: QDate) -> None:  # noqa: N802 (Qt's name)
        self._value = day.toPython()
        self.setText(self._show())

    def _show(self) -> str:
        return QDate(self._value).toString(DISPLAY)

    def _read(self, text: str) -> bool:
        shown = QDateTime.fromString(text.strip(), DISPLAY)
        day = shown.date().toPython() if shown.isValid() else parse_day(text, self.today)
        if day is None:
            return False
        self._value = day
        return True

    def _step(self, steps: int) -> None:
        self._value += dt.timedelta(days=steps)

    def _day(self) -> dt.date:
        return self._value

    def _set_day(self, day: dt.date) -> None:
        self._value = day


def _wall(when: dt.datetime) -> QDateTime:
    """A naive datetime as a QDateTime in local wall time, to the minute."""
    return QDateTime(QDate(when.date()), QTime(when.hour, when.minute))


class DayTimeEdit(_MomentEdit):
    """A start: a day and a time ("4 March 14:30", "tomorrow 2pm"), a time alone ("14:30",
    the same day) or a day alone ("4 March", the same time). Up and Down step 5 minutes."""

    WHAT = "day and time"
    EXAMPLES = "4 March 14:30, tomorrow 2pm, 14:30"
    STEP = dt.timedelta(minutes=5)

    def __init__(self, when: dt.datetime, today: dt.date | None = None, parent=None):
        super().__init__(today or when.date(), parent)
        self._value = when.replace(second=0, microsecond=0, tzinfo=None)
        self.setText(self._show())
        self.setToolTip(
            "Type a day and time (4 March 14:30, tomorrow 2pm, Mar 4 2027 9:15),"
            " a time alone (14:30) or a day alone (4 March), or pick a day"
        )

    def dateTime(self) -> QDateTime:  # noqa: N802 (Qt's name)
        return _wall(self._value)

    def setDateTime(self, when: QDateTime) -> None:  # noqa: N802 (Qt's name)
        self._value = when.toPython().replace(second=0, microsecond=0, tzinfo=None)
        self.setText(self._show())

    def date(self) -> QDate:
        return QDate(self._value.date())

    def _show(self) -> str:
        return _wall(self._value).toString(DAY_TIME_DISPLAY)

    def _read(self, text: str) -> bool:
        shown = QDateTime.fromString(text.strip(), DAY_TIME_DISPLAY)
        when = shown.toPython() if shown.isValid() else None
        if when is None:
            when = parse_day_time(text, self.today, self._value)
        if when is None:
            return False
        self._value = when.replace(second=0, microsecond=0, tzinfo=None)
        return True

    def _step(self, steps: int) -> None:
        self._value += steps * self.STEP

    def _day(self) -> dt.date:
        return self._value.date()

    def _set_day(self, day: dt.date) -> None:
        self._value = dt.datetime.combine(day, self._value.time())
