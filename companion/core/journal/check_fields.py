"""The check of a journal file's loops and unfiled rows, field by field, straight into
the rows the import inserts; each problem names its place (``loops[2].flubs[0].severity``).

One pass and one rule for every file: a field's checks raise :class:`_Bad` with the
field's key only, and the place is written when something is wrong, so a good file
pays for no place names and no dict per entry (20,000 loops are 1.2 million fields).
Text keeps the field rule of :mod:`companion.core.text`: control characters stripped
and counted, a lone surrogate refused.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import gc
from collections.abc import Iterator

from companion.core.text import (
    MAX_TEXT,
    UNUSUAL,
    FieldTextError,
    clean_field,
    lone_surrogate,
    topic_key,
)

JOURNAL_FORMAT = "interview-companion-journal"
VERSION = 1

ENTRY_KINDS = {
    # list name: (table, text fields, optional fields)
    "asked": ("asked", ("question", "topic", "created_at"), ()),
    "flubs": ("flubs", ("topic", "detail", "severity", "created_at"), ("studied_at",)),
    "went_well": ("went_well", ("text", "created_at"), ()),
    "weak_topics": ("weak_topics", ("topic", "note", "created_at"), ("studied_at",)),
}
LOOP_FIELDS = ("company", "role", "starts_on", "ends_on", "status", "notes", "created_at")
ROUND_FIELDS = (
    "type",
    "interviewer_role",
    "interviewer_name",
    "scheduled_at",
    "started_at",
    "ended_at",
    "notes",
    "organizer",  # the invitation's organizer (issue #40); absent in older files: ""
)
MIN_YEAR, MAX_YEAR = 1970, 2200  # every date the app shows must fit here


class JournalImportError(ValueError):
    """The file is not a journal this version can read; the message says where, as a
    sentence (callers append "Nothing was imported.")."""

    def __str__(self) -> str:
        text = super().__str__()
        return text if text.endswith((".", "?", "!")) else f"{text}."


def fail(where: str, message: str):
    raise JournalImportError(f"{where}: {message}")


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    """Python's cycle collector off for the block. A journal file's document and rows
    hold no cycle, yet the collector walks all of them again and again as they pile up:
    about 1 s of a 20,000-loop import's CPU, reading and inserting."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


class _Bad(Exception):
    """A field's problem before its place is known: the caller adds the place."""

    def __init__(self, key: str, message: str):
        super().__init__(key, message)
        self.key, self.message = key, message


def _placed(where: str, bad: _Bad):
    raise JournalImportError(f"{where}.{bad.key}: {bad.message}") from None


def _nothing(_value: str) -> None:
    return None


def _is_whole(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


# each entry field's check: 0 text, 1 required text, 2 severity, 3 created_at
_PLANS = {
    name: tuple(
        (key, 2 if key == "severity" else 3 if key == "created_at" else int(required))
        for key in fields
        for required in [key in ("question", "text") or (key == "topic" and name != "asked")]
    )
    for name, (_table, fields, _optional) in ENTRY_KINDS.items()
}


class FieldCheck:
    """Checks a file's loops and unfiled group into rows; ``stripped`` counts the control
    characters removed, ``default`` is what a missing created_at or studied_at becomes
    (such a row ends in ``dated`` False; see :class:`.validate.CheckedJournal`)."""

    def __init__(self, default: str, plain: bool = False):
        self.default = default
        self.stripped = 0
        # plain: the file's bytes hold no character the field rule strips or refuses
        # (companion.core.text.json_plain, a few byte searches), so no string is scanned
        self.text, self.stamp = self._field_checks(_nothing if plain else UNUSUAL.search)

    def _field_checks(self, unusual):
        """``text(obj, key, required=False)`` and ``stamp(obj, key, empty=None)``, as
        closures: 20,000 loops are 1.5 million calls, and a method call costs more."""
        fromiso = dt.datetime.fromisoformat

        def text(obj: dict, key: str, required: bool = False) -> str:
            value = obj.get(key)
            if value is None:
                value = ""
            elif value.__class__ is not str:  # JSON gives no subclass of str
                raise _Bad(key, f"must be text, not {type(value).__name__}")
            elif len(value) > MAX_TEXT:  # as the app's own fields: a novel is not a company
                raise _Bad(key, f"is {len(value):,} characters; the limit is {MAX_TEXT:,}")
            elif unusual(value):  # rare: the one scan clean_field would make first
                value = self._clean(key, value)
            if required and not value.strip():
                raise _Bad(key, "is empty")
            return value

        def stamp(obj: dict, key: str, empty: str | None = None) -> str | None:
            """An ISO 8601 time in MIN_YEAR-MAX_YEAR, or ``empty`` when there is none."""
            value = text(obj, key)
            if not value:
                return empty
            try:
                year = fromiso(value).year
            except ValueError:
                raise _Bad(key, f"{value[:40]!r} is not an ISO 8601 date or time") from None
            if not MIN_YEAR <= year <= MAX_YEAR:
                raise _Bad(key, f"{value[:40]!r} is outside {MIN_YEAR}-{MAX_YEAR}")
            return value

        return text, stamp

    def _clean(self, key: str, value: str) -> str:
        try:
            value, removed = clean_field(value)
        except FieldTextError as exc:
            raise _Bad(key, str(exc)) from None
        self.stripped += removed
        return value

    # --- a loop, or the unfiled group -------------------------------------------------

    def loop(self, loop: dict, where: str) -> tuple:
        """``loop``'s own row: (*LOOP_FIELDS, dated)."""
        try:
            company = self.text(loop, "company", required=True).strip()
            role, status, notes = (self.text(loop, k) for k in ("role", "status", "notes"))
            starts, ends = self.stamp(loop, "starts_on"), self.stamp(loop, "ends_on")
            created = self.stamp(loop, "created_at", "")
        except _Bad as bad:
            _placed(where, bad)
        row = (company, role, starts, ends, status or "planned", notes, created or self.default)
        return (*row, bool(created))

    def group(self, group: dict, where: str, index: int | None, into) -> None:
        """Check the rounds and entries of a loop (``index``: its place in the file's list
        of loops) or of the unfiled group (None), and append their rows to ``into`` (a
        :class:`.validate.CheckedJournal`)."""
        refs: set[int] = set()
        for n, r in enumerate(field_list(group, "rounds", where)):
            ref = r.get("ref")
            if not _is_whole(ref) or ref in refs:
                fail(f"{where}.rounds[{n}].ref", "must be a whole number, unique in the loop")
            refs.add(ref)
            try:
                texts = [self.text(r, k) for k in ("type", "interviewer_role", "interviewer_name")]
                notes, organizer = self.text(r, "notes"), self.text(r, "organizer")
                times = [self.stamp(r, k) for k in ("scheduled_at", "started_at", "ended_at")]
            except _Bad as bad:
                _placed(f"{where}.rounds[{n}]", bad)
            into.rounds.append((index, ref, *texts, *times, notes, organizer))
        for name, (_table, _fields, optional) in ENTRY_KINDS.items():
            rows, plan = into.entries[name], _PLANS[name]
            for n, e in enumerate(field_list(group, name, where)):
                try:
                    rows.append(self._entry(index, e, refs, plan, optional))
                except _Bad as bad:
                    _placed(f"{where}.{name}[{n}]", bad)
        for n, q in enumerate(field_list(group, "asked_them", where)):
            try:
                ref = _round(q, refs)
                text, audience = self.text(q, "text", required=True), self.text(q, "audience")
                into.asked_them.append((index, ref, text, audience, self.stamp(q, "asked_at")))
            except _Bad as bad:
                _placed(f"{where}.asked_them[{n}]", bad)
        ty = group.get("thank_you")
        if ty is not None:
            if not isinstance(ty, dict):
                fail(f"{where}.thank_you", "must be an object or null")
            try:
                row = (self.text(ty, "to_whom"), self.text(ty, "draft"), self.stamp(ty, "sent_at"))
            except _Bad as bad:
                _placed(f"{where}.thank_you", bad)
            if index is not None:  # an unfiled thank-you has no loop to thank for
                into.thank_yous.append((index, *row))

    def study_marks(self, data: dict) -> list[tuple]:
        """The file's study marks: (topic key, topic, source, studied_at, dated)."""
        out = []
        for n, m in enumerate(field_list(data, "study_marks", "journal")):
            try:
                topic, at = self.text(m, "topic"), self.stamp(m, "studied_at", "")
                key, source = self.text(m, "topic_key"), self.text(m, "source")
            except _Bad as bad:
                _placed(f"study_marks[{n}]", bad)
            out.append(
                (key or topic_key(topic), topic, source or "journal", at or self.default, bool(at))
            )
        return out

    def _entry(self, index, e: dict, refs: set[int], plan, optional) -> tuple:
        """(loop, round ref, *fields, *optional, dated)"""
        text, stamp = self.text, self.stamp
        row = [index, _round(e, refs)]
        dated = True
        for key, check in plan:
            if check < 2:
                row.append(text(e, key, check == 1))
            elif check == 2:
                sev = e.get("severity", 2)
                if sev not in (1, 2, 3) or isinstance(sev, bool):
                    raise _Bad("severity", f"must be 1, 2 or 3, not {sev!r}")
                row.append(sev)
            else:
                at = stamp(e, key, "")
                dated = bool(at)
                row.append(at or self.default)
        for key in optional:
            row.append(stamp(e, key))
        row.append(dated)
        return tuple(row)


def _round(entry: dict, refs: set[int]) -> int | None:
    ref = entry.get("round")
    if ref is not None and (not _is_whole(ref) or ref not in refs):
        raise _Bad("round", f"{ref!r} names no round of this loop")
    return ref


def field_list(obj: dict, key: str, where: str) -> list:
    value = obj.get(key)
    if value is None:
        return []
    if not isinstance(value, list):
        fail(f"{where}.{key}", "must be a list")
    for n, entry in enumerate(value):
        if not isinstance(entry, dict):
            fail(f"{where}.{key}[{n}]", "must be an object")
    return value


def check_keys(value: object, where: str) -> None:
    """Refuse a lone surrogate in a key or a string anywhere in ``value`` (unknown keys and
    their values too: the file is not UTF-8 text the app could write back, and strict
    JSON was promised), naming the object or list that holds it."""
    todo = [(value, where)]
    while todo:  # no recursion: the strict reader allows deeper nesting than Python
        value, where = todo.pop()
        if isinstance(value, dict):
            for key, inner in value.items():
                problem = lone_surrogate(key)
                if problem:
                    fail(where, f"a key {problem}")
                if isinstance(inner, str) and lone_surrogate(inner):
                    fail(f"{where}.{key}" if key.isidentifier() else where, lone_surrogate(inner))
                if isinstance(inner, dict | list):
                    todo.append((inner, f"{where}.{key}" if key.isidentifier() else where))
        elif isinstance(value, list):
            for n, inner in enumerate(value):
                if isinstance(inner, str) and lone_surrogate(inner):
                    fail(f"{where}[{n}]", lone_surrogate(inner))
                if isinstance(inner, dict | list):
                    todo.append((inner, f"{where}[{n}]"))
