"""The careful check of a journal file, field by field: each problem names its place
(``loops[2].flubs[0].severity``). The quick path for the export's own plain values is
:mod:`.quick_check`; both keep the field rule of :mod:`companion.core.text`."""

from __future__ import annotations

import datetime as dt

from companion.core.journal.stream import JournalImportError
from companion.core.text import MAX_TEXT, FieldTextError, clean_field, lone_surrogate

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
STRIPPED = [0]  # control characters removed by the current parse_journal
MIN_YEAR, MAX_YEAR = 1970, 2200  # every date the app shows must fit here


def fail(where: str, message: str):
    raise JournalImportError(f"{where}: {message}")


def field_text(obj: dict, key: str, where: str, *, required: bool = False, nullable: bool = False):
    value = obj.get(key, None if nullable else "")
    if value is None:
        if nullable:
            return None
        value = ""
    if not isinstance(value, str):
        fail(f"{where}.{key}", f"must be text, not {type(value).__name__}")
    if len(value) > MAX_TEXT:  # as the app's own fields: a pasted novel is not a company
        fail(f"{where}.{key}", f"is {len(value):,} characters; the limit is {MAX_TEXT:,}")
    try:
        value, removed = clean_field(value)
    except FieldTextError as exc:
        fail(f"{where}.{key}", str(exc))
    STRIPPED[0] += removed
    if required and not value.strip():
        fail(f"{where}.{key}", "is empty")
    return value


def field_stamp(obj: dict, key: str, where: str, *, nullable: bool = True):
    value = field_text(obj, key, where, nullable=nullable)
    if value:
        try:
            moment = dt.datetime.fromisoformat(value)
        except ValueError:
            fail(f"{where}.{key}", f"{value[:40]!r} is not an ISO 8601 date or time")
        if not MIN_YEAR <= moment.year <= MAX_YEAR:
            fail(f"{where}.{key}", f"{value[:40]!r} is outside {MIN_YEAR}-{MAX_YEAR}")
    return value or (None if nullable else "")


def field_list(obj: dict, key: str, where: str) -> list:
    value = obj.get(key, [])
    if value is None:
        return []
    if not isinstance(value, list):
        fail(f"{where}.{key}", "must be a list")
    for n, entry in enumerate(value):
        if not isinstance(entry, dict):
            fail(f"{where}.{key}[{n}]", "must be an object")
    return value


def round_ref(entry: dict, refs: set[int], where: str):
    ref = entry.get("round")
    if ref is None:
        return None
    if not isinstance(ref, int) or isinstance(ref, bool) or ref not in refs:
        fail(f"{where}.round", f"{ref!r} names no round of this loop")
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


def check_group(group: dict, where: str) -> dict:
    """Validate one loop-like group; return it normalised. A missing ``created_at`` is
    left empty: :class:`CheckedJournal` fills it in and marks the row undated."""
    rounds = []
    refs: set[int] = set()
    for n, r in enumerate(field_list(group, "rounds", where)):
        w = f"{where}.rounds[{n}]"
        ref = r.get("ref")
        if not isinstance(ref, int) or isinstance(ref, bool) or ref in refs:
            fail(f"{w}.ref", "must be a whole number, unique in the loop")
        refs.add(ref)
        clean = {"ref": ref, "type": field_text(r, "type", w)}
        for key in ("interviewer_role", "interviewer_name", "notes", "organizer"):
            clean[key] = field_text(r, key, w)
        for key in ("scheduled_at", "started_at", "ended_at"):
            clean[key] = field_stamp(r, key, w)
        rounds.append(clean)
    out: dict = {"rounds": rounds}
    for name, (_table, fields, optional) in ENTRY_KINDS.items():
        entries = []
        for n, e in enumerate(field_list(group, name, where)):
            w = f"{where}.{name}[{n}]"
            clean = {"round": round_ref(e, refs, w)}
            for key in fields:
                if key == "severity":
                    sev = e.get("severity", 2)
                    if sev not in (1, 2, 3) or isinstance(sev, bool):
                        fail(f"{w}.severity", f"must be 1, 2 or 3, not {sev!r}")
                    clean[key] = sev
                elif key == "created_at":
                    clean[key] = field_stamp(e, key, w, nullable=False)
                else:
                    required = key in ("question", "text") or (key == "topic" and name != "asked")
                    clean[key] = field_text(e, key, w, required=required)
            for key in optional:
                clean[key] = field_stamp(e, key, w)
            entries.append(clean)
        out[name] = entries
    asked_them = []
    for n, q in enumerate(field_list(group, "asked_them", where)):
        w = f"{where}.asked_them[{n}]"
        asked_them.append(
            {
                "round": round_ref(q, refs, w),
                "text": field_text(q, "text", w, required=True),
                "audience": field_text(q, "audience", w),
                "asked_at": field_stamp(q, "asked_at", w),
            }
        )
    out["asked_them"] = asked_them
    ty = group.get("thank_you")
    if ty is not None:
        if not isinstance(ty, dict):
            fail(f"{where}.thank_you", "must be an object or null")
        ty = {
            "to_whom": field_text(ty, "to_whom", f"{where}.thank_you"),
            "draft": field_text(ty, "draft", f"{where}.thank_you"),
            "sent_at": field_stamp(ty, "sent_at", f"{where}.thank_you"),
        }
    out["thank_you"] = ty
    return out


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
