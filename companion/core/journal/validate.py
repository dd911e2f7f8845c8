"""Checking a journal file before anything is imported: the strict JSON reader and the
schema check that names the place of the first problem (``loops[2].flubs[0].severity``).

The format itself is described in :mod:`companion.core.journal.files`.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from pathlib import Path

from companion.core.journal.entries import topic_key
from companion.core.timeutil import to_stored_utc

JOURNAL_FORMAT = "interview-companion-journal"
VERSION = 1

ENTRY_KINDS = {
    # list name: (table, text fields, optional fields)
    "asked": ("asked", ("question", "topic", "created_at"), ()),
    "flubs": ("flubs", ("topic", "detail", "severity", "created_at"), ("studied_at",)),
    "went_well": ("went_well", ("text", "created_at"), ()),
    "weak_topics": ("weak_topics", ("topic", "note", "created_at"), ("studied_at",)),
}


# Text from a file: tab, newline and carriage return are kept; other C0 controls (NUL
# included) and DEL are stripped at the door and counted; lone surrogates, which cannot
# be stored as UTF-8, refuse the file with their place.
CONTROL_CHARS = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
_SURROGATE = re.compile(r"[\ud800-\udfff]")
_STRIPPED = [0]  # control characters removed by the current parse_journal
MIN_YEAR, MAX_YEAR = 1970, 2200  # every date the app shows must fit here


class JournalImportError(ValueError):
    """The file is not a journal this version can read; the message says where."""


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
    lone = _SURROGATE.search(value)
    if lone:
        _fail(
            f"{where}.{key}",
            f"holds a lone surrogate (U+{ord(lone.group()):04X}) at position {lone.start()}",
        )
    value, removed = CONTROL_CHARS.subn("", value)
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


def _check_group(group: dict, where: str) -> dict:
    """Validate one loop-like group; return it normalised."""
    rounds = []
    refs: set[int] = set()
    for n, r in enumerate(_list(group, "rounds", where)):
        w = f"{where}.rounds[{n}]"
        ref = r.get("ref")
        if not isinstance(ref, int) or isinstance(ref, bool) or ref in refs:
            _fail(f"{w}.ref", "must be a whole number, unique in the loop")
        refs.add(ref)
        clean = {"ref": ref, "type": _text(r, "type", w)}
        for key in ("interviewer_role", "interviewer_name", "notes"):
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
                    clean[key] = _stamp(e, key, w, nullable=False) or to_stored_utc()
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


def parse_journal(data: object) -> dict:
    """Check a loaded journal document; return it normalised or raise JournalImportError."""
    if not isinstance(data, dict) or data.get("format") != JOURNAL_FORMAT:
        raise JournalImportError(
            f'This is not an Interview Companion journal export (no "format": "{JOURNAL_FORMAT}").'
        )
    _STRIPPED[0] = 0
    version = data.get("version")
    if type(version) is not int or version != VERSION:  # not True, not 1.0
        raise JournalImportError(
            f"This journal file is version {version!r}; this app reads version {VERSION}."
        )
    loops = []
    for n, loop in enumerate(_list(data, "loops", "journal")):
        where = f"loops[{n}]"
        clean = {"company": _text(loop, "company", where, required=True).strip()}
        for key in ("role", "status", "notes"):
            clean[key] = _text(loop, key, where)
        clean["status"] = clean["status"] or "planned"
        for key in ("starts_on", "ends_on"):
            clean[key] = _stamp(loop, key, where)
        clean["created_at"] = _stamp(loop, "created_at", where, nullable=False) or to_stored_utc()
        clean.update(_check_group(loop, where))
        loops.append(clean)
    unfiled = data.get("unfiled") or {}
    if not isinstance(unfiled, dict):
        _fail("unfiled", "must be an object")
    marks = []
    for n, m in enumerate(_list(data, "study_marks", "journal")):
        w = f"study_marks[{n}]"
        topic = _text(m, "topic", w)
        marks.append(
            {
                "topic_key": _text(m, "topic_key", w) or topic_key(topic),
                "topic": topic,
                "source": _text(m, "source", w) or "journal",
                "studied_at": _stamp(m, "studied_at", w, nullable=False) or to_stored_utc(),
            }
        )
    unfiled = _check_group(unfiled, "unfiled")
    return {
        "loops": loops,
        "unfiled": unfiled,
        "study_marks": marks,
        "review": _review(data),
        "stories": _stories(data),
        "stripped": _STRIPPED[0],
    }


def _review(data: dict) -> dict:
    """The review cards and log (checked by their own module, companion.core.review)."""
    from companion.core.review.transfer import ReviewImportError, check_review

    try:
        return check_review(data.get("review"))
    except ReviewImportError as exc:
        raise JournalImportError(str(exc)) from None


def _stories(data: dict) -> dict:
    """The story bank part (checked by its own module, companion.core.stories)."""
    from companion.core.stories.transfer import StoriesImportError, check_stories

    try:
        return check_stories(data.get("stories"))
    except StoriesImportError as exc:
        raise JournalImportError(str(exc)) from None


MAX_INT_DIGITS = 18


def _parse_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_INT_DIGITS:
        raise JournalImportError(f"a number with {len(text)} digits is not a journal value")
    return int(text)


def _parse_constant(name: str):
    raise JournalImportError(f"{name} is not a journal value")


def _no_duplicates(pairs: list[tuple[str, object]]) -> dict:
    out: dict = {}
    for key, value in pairs:
        if key in out:
            raise JournalImportError(f"the key {key[:40]!r} appears twice in one object")
        out[key] = value
    return out


def load_json(text: str) -> object:
    """Parse a journal file strictly: duplicate keys, huge numbers, NaN/Infinity and
    nesting deeper than Python's recursion limit are refused with
    :class:`JournalImportError`."""
    try:
        return json.loads(
            text,
            object_pairs_hook=_no_duplicates,
            parse_int=_parse_int,
            parse_constant=_parse_constant,
        )
    except json.JSONDecodeError as exc:
        raise JournalImportError(
            f"not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})."
        ) from None
    except RecursionError:
        raise JournalImportError("it nests too deeply; not a journal export") from None
    except ValueError as exc:
        raise JournalImportError(str(exc).split("\n")[0]) from None


def read_journal(path: Path) -> object:
    """The parsed JSON of a journal file (through the bounded reader); a bad file raises
    :class:`JournalImportError` naming it. Nothing is checked against the schema yet."""
    from companion.core.fileio import FileReadError, read_limited

    path = Path(path)
    try:
        text = read_limited(path, "journal").decode("utf-8")
    except FileReadError as exc:
        raise JournalImportError(str(exc)) from None
    except UnicodeDecodeError as exc:
        raise JournalImportError(f"{path} is not UTF-8 text (byte {exc.start}).") from None
    try:
        data = load_json(text)
        parse_journal(data)  # check it all before anything is added
    except JournalImportError as exc:
        raise JournalImportError(f"{path}: {exc}") from None
    return data
