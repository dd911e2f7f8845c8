"""Checking a journal file before anything is imported: the schema check that names the
place of the first problem (``loops[2].flubs[0].severity``), one loop at a time.

A checked file becomes a :class:`CheckedJournal`: plain rows per table, ready to insert
table by table (:mod:`.importer`). The strict JSON reader is :mod:`.stream`; the format
itself is described in :mod:`companion.core.journal.files`.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from pathlib import Path

from companion.core.journal.entries import topic_key
from companion.core.journal.stream import STREAMED, JournalImportError, load_json, scan_document
from companion.core.text import (
    MAX_TEXT,
    UNUSUAL,
    FieldTextError,
    clean_field,
    json_may_hold_lone_surrogate,
    json_plain,
    lone_surrogate,
)
from companion.core.timeutil import to_stored_utc

__all__ = ["JournalImportError", "load_json", "parse_journal", "read_journal", "CheckedJournal"]

JOURNAL_FORMAT = "interview-companion-journal"
VERSION = 1

ENTRY_KINDS = {
    # list name: (table, text fields, optional fields)
    "asked": ("asked", ("question", "topic", "created_at"), ()),
    "flubs": ("flubs", ("topic", "detail", "severity", "created_at"), ("studied_at",)),
    "went_well": ("went_well", ("text", "created_at"), ()),
    "weak_topics": ("weak_topics", ("topic", "note", "created_at"), ("studied_at",)),
}


# Text from a file follows the field rule of companion.core.text (strip C0 controls but
# tab/newline/return, and DEL; refuse lone surrogates), in the careful check and the quick
# path alike.
_STRIPPED = [0]  # control characters removed by the current parse_journal
MIN_YEAR, MAX_YEAR = 1970, 2200  # every date the app shows must fit here


# --- validation --------------------------------------------------------------------------


def _fail(where: str, message: str):
    raise JournalImportError(f"{where}: {message}")


def _text(obj: dict, key: str, where: str, *, required: bool = False, nullable: bool = False):
    value = obj.get(key, None if nullable else "")
    if value is None:
        if nullable:
            return None
        value = ""
    if not isinstance(value, str):
        _fail(f"{where}.{key}", f"must be text, not {type(value).__name__}")
    if len(value) > MAX_TEXT:  # as the app's own fields: a pasted novel is not a company
        _fail(f"{where}.{key}", f"is {len(value):,} characters; the limit is {MAX_TEXT:,}")
    try:
        value, removed = clean_field(value)
    except FieldTextError as exc:
        _fail(f"{where}.{key}", str(exc))
    _STRIPPED[0] += removed
    if required and not value.strip():
        _fail(f"{where}.{key}", "is empty")
    return value


def _stamp(obj: dict, key: str, where: str, *, nullable: bool = True):
    value = _text(obj, key, where, nullable=nullable)
    if value:
        try:
            moment = dt.datetime.fromisoformat(value)
        except ValueError:
            _fail(f"{where}.{key}", f"{value[:40]!r} is not an ISO 8601 date or time")
        if not MIN_YEAR <= moment.year <= MAX_YEAR:
            _fail(f"{where}.{key}", f"{value[:40]!r} is outside {MIN_YEAR}-{MAX_YEAR}")
    return value or (None if nullable else "")


def _list(obj: dict, key: str, where: str) -> list:
    value = obj.get(key, [])
    if value is None:
        return []
    if not isinstance(value, list):
        _fail(f"{where}.{key}", "must be a list")
    for n, entry in enumerate(value):
        if not isinstance(entry, dict):
            _fail(f"{where}.{key}[{n}]", "must be an object")
    return value


def _round_ref(entry: dict, refs: set[int], where: str):
    ref = entry.get("round")
    if ref is None:
        return None
    if not isinstance(ref, int) or isinstance(ref, bool) or ref not in refs:
        _fail(f"{where}.round", f"{ref!r} names no round of this loop")
    return ref


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


def _check_group(group: dict, where: str) -> dict:
    """Validate one loop-like group; return it normalised. A missing ``created_at`` is
    left empty: :class:`CheckedJournal` fills it in and marks the row undated."""
    rounds = []
    refs: set[int] = set()
    for n, r in enumerate(_list(group, "rounds", where)):
        w = f"{where}.rounds[{n}]"
        ref = r.get("ref")
        if not isinstance(ref, int) or isinstance(ref, bool) or ref in refs:
            _fail(f"{w}.ref", "must be a whole number, unique in the loop")
        refs.add(ref)
        clean = {"ref": ref, "type": _text(r, "type", w)}
        for key in ("interviewer_role", "interviewer_name", "notes", "organizer"):
            clean[key] = _text(r, key, w)
        for key in ("scheduled_at", "started_at", "ended_at"):
            clean[key] = _stamp(r, key, w)
        rounds.append(clean)
    out: dict = {"rounds": rounds}
    for name, (_table, fields, optional) in ENTRY_KINDS.items():
        entries = []
        for n, e in enumerate(_list(group, name, where)):
            w = f"{where}.{name}[{n}]"
            clean = {"round": _round_ref(e, refs, w)}
            for key in fields:
                if key == "severity":
                    sev = e.get("severity", 2)
                    if sev not in (1, 2, 3) or isinstance(sev, bool):
                        _fail(f"{w}.severity", f"must be 1, 2 or 3, not {sev!r}")
                    clean[key] = sev
                elif key == "created_at":
                    clean[key] = _stamp(e, key, w, nullable=False)
                else:
                    required = key in ("question", "text") or (key == "topic" and name != "asked")
                    clean[key] = _text(e, key, w, required=required)
            for key in optional:
                clean[key] = _stamp(e, key, w)
            entries.append(clean)
        out[name] = entries
    asked_them = []
    for n, q in enumerate(_list(group, "asked_them", where)):
        w = f"{where}.asked_them[{n}]"
        asked_them.append(
            {
                "round": _round_ref(q, refs, w),
                "text": _text(q, "text", w, required=True),
                "audience": _text(q, "audience", w),
                "asked_at": _stamp(q, "asked_at", w),
            }
        )
    out["asked_them"] = asked_them
    ty = group.get("thank_you")
    if ty is not None:
        if not isinstance(ty, dict):
            _fail(f"{where}.thank_you", "must be an object or null")
        ty = {
            "to_whom": _text(ty, "to_whom", f"{where}.thank_you"),
            "draft": _text(ty, "draft", f"{where}.thank_you"),
            "sent_at": _stamp(ty, "sent_at", f"{where}.thank_you"),
        }
    out["thank_you"] = ty
    return out


# --- the quick check of a plain loop --------------------------------------------------
# A journal file the app wrote holds only plain values, and checking 20,000 loops field
# by field through the careful checker above (which builds each value's place name and
# a dict per entry) took most of an import's time. _plain_loop accepts exactly what the
# careful check accepts unchanged and gives the same rows; anything else (a wrong type,
# a character to strip, a time that does not parse, a bad round) raises _NotPlain and
# the careful check runs on that loop, so every message still names its place.


class _NotPlain(Exception):
    pass


def _never(_value: str) -> None:
    return None


def _plain_reader(default: str, plain: bool):
    """The quick check of one loop: its rows (loop row, rounds, entries by kind,
    asked_them, thank_you or None), or _NotPlain. ``plain``: the file's bytes were seen
    by :func:`~companion.core.text.json_plain` to hold no character the field rule strips
    or refuses, so strings are not searched again (a claim only the file's bytes make)."""
    unusual = _never if plain else UNUSUAL.search
    fromiso = dt.datetime.fromisoformat

    def text(obj: dict, key: str, required: bool = False) -> str:
        value = obj.get(key, "")
        if value is None:
            value = ""
        elif value.__class__ is not str or len(value) > MAX_TEXT or unusual(value):
            raise _NotPlain  # the careful check names what is wrong
        if required and not value.strip():
            raise _NotPlain
        return value

    def stamp(obj: dict, key: str, empty: str | None = None) -> str | None:
        """A time, or ``empty`` for a missing one (None, or "" where it is not null)."""
        value = obj.get(key)
        if value is None or value == "":
            return empty
        if value.__class__ is not str or unusual(value):
            raise _NotPlain
        try:
            year = fromiso(value).year
        except ValueError:
            raise _NotPlain from None
        if not MIN_YEAR <= year <= MAX_YEAR:
            raise _NotPlain
        return value

    def objects(obj: dict, key: str) -> list:
        value = obj.get(key)
        if value is None:
            return []
        if value.__class__ is not list:
            raise _NotPlain
        for entry in value:
            if entry.__class__ is not dict:
                raise _NotPlain
        return value

    def ref_in(entry: dict, refs: set[int]) -> int | None:
        ref = entry.get("round")
        if ref is None:
            return None
        if ref.__class__ is not int or ref not in refs:
            raise _NotPlain
        return ref

    # per kind, each field's check: 0 text, 1 required text, 2 severity, 3 created_at
    plans = {
        name: [
            (key, 2 if key == "severity" else 3 if key == "created_at" else int(required))
            for key in fields
            for required in [key in ("question", "text") or (key == "topic" and name != "asked")]
        ]
        for name, (_table, fields, _optional) in ENTRY_KINDS.items()
    }

    def entry(index: int, plan: list, optional: tuple, e: dict, refs: set[int]) -> tuple:
        row = [index, ref_in(e, refs)]
        dated = True
        for key, check in plan:
            if check < 2:
                row.append(text(e, key, check))
            elif check == 2:
                sev = e.get("severity", 2)
                if sev.__class__ is not int or not 1 <= sev <= 3:
                    raise _NotPlain
                row.append(sev)
            else:
                at = stamp(e, key, "")
                dated = bool(at)
                row.append(at or default)
        for key in optional:
            row.append(stamp(e, key))
        row.append(dated)
        return tuple(row)

    def loop_rows(loop: dict, index: int):
        """The rows of the loop that will be ``index`` in the journal's list of loops."""
        company = text(loop, "company", required=True).strip()
        role, notes = text(loop, "role"), text(loop, "notes")
        status = text(loop, "status") or "planned"
        created = stamp(loop, "created_at", "")
        starts, ends = stamp(loop, "starts_on"), stamp(loop, "ends_on")
        row = (company, role, starts, ends, status, notes, created or default, bool(created))
        rounds, refs = [], set()
        for r in objects(loop, "rounds"):
            ref = r.get("ref")
            if ref.__class__ is not int or ref in refs:
                raise _NotPlain
            refs.add(ref)
            rounds.append(
                (
                    index,
                    ref,
                    text(r, "type"),
                    text(r, "interviewer_role"),
                    text(r, "interviewer_name"),
                    stamp(r, "scheduled_at"),
                    stamp(r, "started_at"),
                    stamp(r, "ended_at"),
                    text(r, "notes"),
                    text(r, "organizer"),
                )
            )
        entries = {
            name: [entry(index, plans[name], optional, e, refs) for e in objects(loop, name)]
            for name, (_table, _fields, optional) in ENTRY_KINDS.items()
        }
        asked_them = [
            (
                index,
                ref_in(q, refs),
                text(q, "text", True),
                text(q, "audience"),
                stamp(q, "asked_at"),
            )
            for q in objects(loop, "asked_them")
        ]
        ty = loop.get("thank_you")
        if ty is not None:
            if ty.__class__ is not dict:
                raise _NotPlain
            ty = (index, text(ty, "to_whom"), text(ty, "draft"), stamp(ty, "sent_at"))
        return row, rounds, entries, asked_them, ty

    return loop_rows


def _check_head(data: object) -> None:
    if not isinstance(data, dict) or data.get("format") != JOURNAL_FORMAT:
        raise JournalImportError(
            f'This is not an Interview Companion journal export (no "format": "{JOURNAL_FORMAT}").'
        )
    version = data.get("version")
    if type(version) is not int or version != VERSION:  # not True, not 1.0
        raise JournalImportError(
            f"This journal file is version {version!r}; this app reads version {VERSION}."
        )


def _default_stamp(head: dict, now: dt.datetime | None) -> str:
    """What a missing created_at or studied_at becomes: the file's own exported_at when it
    is a sane time, else now. It is shown, never used as a key (see CheckedJournal)."""
    value = head.get("exported_at")
    if isinstance(value, str):
        try:
            if MIN_YEAR <= dt.datetime.fromisoformat(value).year <= MAX_YEAR:
                return value
        except ValueError:
            pass
    return to_stored_utc(now)


@dataclass
class CheckedJournal:
    """A checked journal file as plain rows per table, in file order, ready to insert
    table by table. ``loop`` is an index into :attr:`loops` (None: unfiled); ``ref`` is a
    round's number inside its loop. Every row that can lack its time ends in ``dated``:
    False when the file left the time out (it was set to :attr:`default_stamp`), so the
    import keys that row by its content instead of by a time that changes per import."""

    default_stamp: str
    loops: list[tuple] = field(default_factory=list)  # (*LOOP_FIELDS, dated)
    rounds: list[tuple] = field(default_factory=list)  # (loop, ref, *ROUND_FIELDS)
    # name -> [(loop, ref, *fields, *optional, dated)]
    entries: dict[str, list[tuple]] = field(
        default_factory=lambda: {name: [] for name in ENTRY_KINDS}
    )
    thank_yous: list[tuple] = field(default_factory=list)  # (loop, to_whom, draft, sent_at)
    asked_them: list[tuple] = field(default_factory=list)  # (loop, ref, text, audience, asked_at)
    study_marks: list[tuple] = field(default_factory=list)  # (key, topic, source, at, dated)
    review: dict = field(default_factory=dict)  # checked by companion.core.review.transfer
    stories: dict = field(default_factory=dict)  # checked by companion.core.stories.transfer
    takes: list = field(default_factory=list)  # checked by companion.core.about.takes
    stripped: int = 0  # control characters removed
    plain_text: bool = False  # json_plain said so of the file's bytes
    surrogate_keys: bool = False  # the file may hold a lone surrogate: its keys are checked

    def __post_init__(self) -> None:
        self._plain_rows = _plain_reader(self.default_stamp, self.plain_text)

    def add_loop(self, n: int, loop: dict) -> None:
        if self.surrogate_keys:
            _check_keys(loop, f"loops[{n}]")
        if not self._add_plain(loop):
            self._add_checked(n, loop)

    def _add_checked(self, n: int, loop: dict) -> None:
        """The careful check of one loop, field by field; a problem names its place."""
        where = f"loops[{n}]"
        clean = {"company": _text(loop, "company", where, required=True).strip()}
        for key in ("role", "status", "notes"):
            clean[key] = _text(loop, key, where)
        clean["status"] = clean["status"] or "planned"
        for key in ("starts_on", "ends_on"):
            clean[key] = _stamp(loop, key, where)
        created = _stamp(loop, "created_at", where, nullable=False)
        clean["created_at"] = created or self.default_stamp
        group = _check_group(loop, where)
        self.loops.append((*(clean[k] for k in LOOP_FIELDS), bool(created)))
        self._add_group(len(self.loops) - 1, group)

    def _add_plain(self, loop: dict) -> bool:
        """Add a loop whose every value is plain (the export's own shape: text as text, no
        character to strip, times that parse) the quick way, as :meth:`add_loop` would; or
        add nothing and return False, and the careful check names the place."""
        try:
            row, rounds, entries, asked_them, thank_you = self._plain_rows(loop, len(self.loops))
        except _NotPlain:
            return False
        self.loops.append(row)
        self.rounds += rounds
        for name, rows in entries.items():
            self.entries[name] += rows
        self.asked_them += asked_them
        if thank_you is not None:
            self.thank_yous.append(thank_you)
        return True

    def _add_group(self, loop: int | None, group: dict) -> None:
        for r in group["rounds"]:
            self.rounds.append((loop, r["ref"], *(r[k] for k in ROUND_FIELDS)))
        for name, (_table, fields, optional) in ENTRY_KINDS.items():
            rows = self.entries[name]
            for e in group[name]:
                dated = bool(e["created_at"])
                if not dated:
                    e["created_at"] = self.default_stamp
                rows.append((loop, e["round"], *(e[k] for k in (*fields, *optional)), dated))
        for q in group["asked_them"]:
            self.asked_them.append((loop, q["round"], q["text"], q["audience"], q["asked_at"]))
        ty = group["thank_you"]
        if ty is not None and loop is not None:
            self.thank_yous.append((loop, ty["to_whom"], ty["draft"], ty["sent_at"]))

    def finish(self, data: dict) -> None:
        """Check and add what follows the loops: unfiled rows and study marks."""
        if self.surrogate_keys:
            _check_keys({k: None for k in data}, "journal")  # its own keys; then each part's
            for key, part in data.items():
                if key != "loops":
                    _check_keys(part, key)
        unfiled = data.get("unfiled")
        if unfiled is None:
            unfiled = {}
        elif not isinstance(unfiled, dict):
            _fail("unfiled", "must be an object or null")
        for n, m in enumerate(_list(data, "study_marks", "journal")):
            w = f"study_marks[{n}]"
            topic = _text(m, "topic", w)
            at = _stamp(m, "studied_at", w, nullable=False)
            self.study_marks.append(
                (
                    _text(m, "topic_key", w) or topic_key(topic),
                    topic,
                    _text(m, "source", w) or "journal",
                    at or self.default_stamp,
                    bool(at),
                )
            )
        self._add_group(None, _check_group(unfiled, "unfiled"))
        self.review = _review(data)
        self.stories = _stories(data)
        self.takes = _takes(data)
        self.stripped = _STRIPPED[0]


def _check_keys(value: object, where: str) -> None:
    """Refuse a key holding a lone surrogate anywhere in ``value`` (unknown keys too: the
    file is not UTF-8 text the app could write back), naming the object that holds it."""
    todo = [(value, where)]
    while todo:  # no recursion: the strict reader allows deeper nesting than Python
        value, where = todo.pop()
        if isinstance(value, dict):
            for key, inner in value.items():
                problem = lone_surrogate(key)
                if problem:
                    _fail(where, f"a key {problem}")
                if isinstance(inner, dict | list):
                    todo.append((inner, f"{where}.{key}" if key.isidentifier() else where))
        elif isinstance(value, list):
            todo.extend((inner, f"{where}[{n}]") for n, inner in enumerate(value))


def _stories(data: dict) -> dict:
    """The story bank part (checked by its own module, companion.core.stories)."""
    from companion.core.stories.transfer import StoriesImportError, check_stories

    try:
        return check_stories(data.get("stories"))
    except StoriesImportError as exc:
        raise JournalImportError(str(exc)) from None


def _takes(data: dict) -> list:
    """The kept rehearsal takes (checked by their own module, companion.core.about)."""
    from companion.core.about.takes import TakesImportError, check_takes

    try:
        return check_takes(data.get("rehearsal_takes"))
    except TakesImportError as exc:
        raise JournalImportError(str(exc)) from None


def _review(data: dict) -> dict:
    """The review cards and log (checked by their own module, companion.core.review)."""
    from companion.core.review.transfer import ReviewImportError, check_review

    try:
        return check_review(data.get("review"))
    except ReviewImportError as exc:
        raise JournalImportError(str(exc)) from None


def _start(
    head: dict, now: dt.datetime | None, plain: bool = False, surrogates: bool = True
) -> CheckedJournal:
    _check_head(head)
    _STRIPPED[0] = 0
    return CheckedJournal(
        default_stamp=_default_stamp(head, now), plain_text=plain, surrogate_keys=surrogates
    )


def parse_journal(
    data: object, now: dt.datetime | None = None, *, surrogates: bool = True
) -> CheckedJournal:
    """Check a loaded journal document; return its rows or raise JournalImportError.
    ``surrogates``: the file may hold a lone surrogate (False only when its bytes say
    not: :func:`~companion.core.text.json_may_hold_lone_surrogate`)."""
    if isinstance(data, CheckedJournal):
        return data
    checked = _start(data, now, surrogates=surrogates)
    for n, loop in enumerate(_list(data, "loops", "journal")):
        checked.add_loop(n, loop)
    checked.finish(data)
    return checked


def check_text(
    text: str, now: dt.datetime | None = None, *, plain: bool = False, surrogates: bool = True
) -> CheckedJournal:
    """Parse and check a journal file's text, one loop at a time (see :mod:`.stream`);
    ``plain`` and ``surrogates``: what :func:`~companion.core.text.json_plain` and
    :func:`~companion.core.text.json_may_hold_lone_surrogate` said of its bytes."""
    state: dict[str, CheckedJournal] = {}

    def on_head(head: dict) -> None:
        state["checked"] = _start(head, now, plain, surrogates)

    def on_loop(n: int, loop: object) -> None:
        if not isinstance(loop, dict):
            _fail(f"journal.loops[{n}]", "must be an object")
        state["checked"].add_loop(n, loop)

    head = scan_document(text, on_head, on_loop)
    if head is None:  # not an object, or loops before the format: read and check it whole
        return parse_journal(load_json(text), now, surrogates=surrogates)
    if head.get("loops") is not STREAMED:
        return parse_journal(head, now, surrogates=surrogates)
    checked = state["checked"]
    checked.finish(head)
    return checked


def read_journal(path: Path, now: dt.datetime | None = None) -> CheckedJournal:
    """A journal file read through the bounded reader and checked, as rows ready to
    import; a bad file raises :class:`JournalImportError` naming it and the place."""
    from companion.core.fileio import FileReadError, read_limited

    path = Path(path)
    try:
        data = read_limited(path, "journal")
        plain, surrogates = json_plain(data), json_may_hold_lone_surrogate(data)
        text = data.decode("utf-8-sig")  # a BOM before the JSON is allowed (RFC 8259 8.1)
        del data  # not held beside the text: a 200 MB file must stay within 5x its size
    except FileReadError as exc:
        raise JournalImportError(str(exc)) from None
    except UnicodeDecodeError as exc:
        raise JournalImportError(f"{path} is not UTF-8 text (byte {exc.start}).") from None
    try:
        return check_text(text, now, plain=plain, surrogates=surrogates)
    except JournalImportError as exc:
        raise JournalImportError(f"{path}: {exc}") from None
