"""The one "new loop" dialog and the one round dialog, used by Today and the Journal.

Both check their fields with the core rules (:func:`companion.core.day.loops.clean_loop_fields`
and :func:`~companion.core.day.loops.clean_round_fields`) before closing.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Mapping

from PySide6.QtCore import QDateTime
from PySide6.QtWidgets import QLineEdit, QPlainTextEdit

from companion.core.day.loops import clean_loop_fields, clean_round_fields
from companion.core.day.model import DayRules
from companion.core.stories.rounds import parse_topics_line
from companion.ui.widgets.checked_dialog import CheckedDialog
from companion.ui.widgets.day_edit import DayEdit, DayTimeEdit
from companion.ui.widgets.round_fields import (
    LengthPicker,
    chosen_round_label,
    chosen_round_type,
    role_combo,
    round_type_combo,
)


def to_aware(value: QDateTime) -> dt.datetime:
    """A QDateTimeEdit value (local wall time) as an aware datetime in the system zone."""
    return value.toPython().replace(microsecond=0).astimezone()


class LoopDialog(CheckedDialog):
    """Start a loop: company, role, and its first day (a date picker, so always a date)."""

    def __init__(self, today: dt.date, parent=None):
        super().__init__("Add an interview loop", parent)
        self.company = QLineEdit()
        self.company.setAccessibleName("Company")
        self.company.setPlaceholderText("Acme")
        self.role = QLineEdit()
        self.role.setAccessibleName("Role")
        self.role.setPlaceholderText("Senior backend engineer")
        self.day = DayEdit(today)
        self.day.setAccessibleName("First interview day")
        self.day.unreadable.connect(self.show_problem)
        self.form.addRow("&Company:", self.company)
        self.form.addRow("&Role:", self.role)
        self.form.addRow("First &day:", self.day)
        # wide enough that the title bar shows the whole title (a window manager's title
        # font is larger than the dialog's text)
        self.setMinimumWidth(max(440, self.fontMetrics().horizontalAdvance(self.windowTitle()) * 2))

    def check(self) -> None:
        company, role, day = self.values()
        if not company:
            self.company.setFocus()
            raise ValueError("A loop needs a company name.")
        clean_loop_fields({"company": company, "role": role, "starts_on": day})

    def values(self) -> tuple[str, str, str]:
        self.day.interpretText()  # Ctrl+Enter saves while the day may still be being typed
        return (
            self.company.text().strip(),
            self.role.text().strip(),
            self.day.date().toPython().isoformat(),
        )


class RoundDialog(CheckedDialog):
    """Add or edit one round: its type, length, interviewer and call link; its start time
    when ``start`` is given (Today), its notes when ``notes`` is true (Journal). A typed
    day without a year, or "tomorrow", counts from ``today`` (default: the start's day).
    ``lengths`` (type id -> minutes, the content's) gives a new round its type's length,
    ``default_minutes`` (the pack's) a type the pack does not know."""

    def __init__(
        self,
        types: list[tuple[str, str]],
        start: dt.datetime | None = None,
        rnd=None,
        parent=None,
        *,
        notes: bool = False,
        focus_notes: bool = False,
        today: dt.date | None = None,
        lengths: Mapping[str, int] | None = None,
        default_minutes: int | None = None,
        topics: list[str] | None = None,
        suggest: Callable[[str], list[str]] | None = None,
    ):
        super().__init__("Edit round" if rnd else "Add a round", parent)
        self.rnd = rnd
        self.when: DayTimeEdit | None = None
        if start is not None:
            self.when = DayTimeEdit(start.astimezone().replace(tzinfo=None), today)
            self.when.setAccessibleName("Start time")
            self.when.unreadable.connect(self.show_problem)
            self.form.addRow("&Starts at:", self.when)
        # a custom type shows its own words ("Bar raiser"), never its slug
        self.type = round_type_combo(
            types, rnd.type if rnd else "", label=rnd.type_label if rnd else ""
        )
        self._lengths = dict(lengths or {})
        self._default_minutes = default_minutes
        own = rnd.length_minutes if rnd is not None else None
        self._own_length = own
        self.length = LengthPicker(own or self._type_length())
        # a new type brings its own length until the user picks one
        self._length_follows_type = not own
        self.length.picked.connect(self._length_picked)
        self.type.currentIndexChanged.connect(self._type_changed)
        self.type.editTextChanged.connect(self._type_changed)
        self.role = role_combo(rnd.interviewer_role if rnd else "")
        self.name = QLineEdit()
        self.name.setAccessibleName("Interviewer name")
        self.name.setPlaceholderText("optional")
        self.link = QLineEdit()
        self.link.setAccessibleName("Call link")
        self.link.setPlaceholderText("https://… (optional)")
        # the invitation's organizer (usually the recruiter), apart from the interviewer
        self.organizer = QLineEdit()
        self.organizer.setAccessibleName("Organizer")
        self.organizer.setPlaceholderText("who sent the invitation (optional)")
        if rnd is not None:
            self.name.setText(rnd.interviewer_name)
            self.link.setText(rnd.link)
            self.organizer.setText(rnd.organizer)
        self.form.addRow("Round &type:", self.type)
        self.form.addRow("&Length:", self.length)
        self.form.addRow("Interviewer &role:", self.role)
        self.form.addRow("Interviewer &name:", self.name)
        self.form.addRow("Call lin&k:", self.link)
        self.form.addRow("Or&ganizer:", self.organizer)
        # the topics you expect (ui/stories/expected.py): the round's own, else the
        # prefill from its type and the study list, following the type until edited
        self.topics: QLineEdit | None = None
        self._suggest = suggest
        if topics is not None or suggest is not None:
            self.topics = QLineEdit(", ".join(topics or ()))
            self.topics.setAccessibleName("Expected topics")
            self.topics.setPlaceholderText("comma-separated, e.g. conflict, kv cache")
            self.topics.setToolTip("What you expect them to ask; the debrief compares the #topics")
            self._topics_follow_type = topics is None
            self.topics.textEdited.connect(self._topics_edited)
            self.form.addRow("E&xpected topics:", self.topics)
            if topics is None:
                self._suggest_topics()
        self.notes: QPlainTextEdit | None = None
        if notes:
            self.notes = QPlainTextEdit(rnd.notes if rnd else "")
            self.notes.setAccessibleName("Round notes")
            self.notes.setTabChangesFocus(True)
            self.notes.setMinimumHeight(120)
            self.form.addRow("N&otes:", self.notes)
            self.resize(500, self.sizeHint().height())
        (self.notes if focus_notes and self.notes is not None else self.type).setFocus()

    def _type_length(self) -> int:
        fallback = self._default_minutes or DayRules.default_minutes  # the pack's, if given
        return self._lengths.get(chosen_round_type(self.type)) or fallback

    def _type_changed(self, *_args) -> None:
        if self._length_follows_type:
            self.length.set_minutes(self._type_length())
        self._suggest_topics()

    def _suggest_topics(self) -> None:
        field = getattr(self, "topics", None)  # a type change while building comes first
        if field is not None and self._topics_follow_type and self._suggest is not None:
            field.setText(", ".join(self._suggest(chosen_round_type(self.type))))

    def _topics_edited(self, _text: str) -> None:
        self._topics_follow_type = False

    def expected_topics(self) -> list[str] | None:
        """The topics typed (None when the dialog shows no such field)."""
        if self.topics is None:
            return None

        return parse_topics_line(self.topics.text())

    def _length_picked(self) -> None:
        self._length_follows_type = False

    def values(self) -> dict:
        out: dict = {}
        if self.when is not None:
            self.when.interpretText()  # Ctrl+Enter saves while the start may be half typed
            out["scheduled_at"] = to_aware(self.when.dateTime())
        out["type"] = chosen_round_type(self.type)
        own = chosen_round_label(self.type)
        if own:
            out["type_label"] = own  # a custom type keeps its words
        out["interviewer_role"] = self.role.currentData() or ""
        out["interviewer_name"] = self.name.text().strip()
        # untouched, a round keeps the content's length for its type (stored as NULL)
        follows = self._length_follows_type and self._own_length is None
        out["length_minutes"] = None if follows else self.length.minutes()
        out["link"] = self.link.text().strip()
        out["organizer"] = self.organizer.text().strip()
        if self.notes is not None:
            out["notes"] = self.notes.toPlainText()
        return out

    def check(self) -> None:
        if not self.values()["type"]:
            raise ValueError("The round type is empty; pick one or type a name.")
        clean_round_fields(self.values(), self.rnd)
