"""Editing journal entries in place and undoing deletes.

The Journal page edits entries in place and undoes deletes by putting the very row back
(same id when it is free), so search (kept in sync by triggers) follows along.
"""

from __future__ import annotations

import dataclasses

from sqlite_utils import Database

from companion.core.journal.entries import (
    SEVERITIES,
    Asked,
    Flub,
    WeakTopic,
    WentWell,
    entry_table,
    topic_key,
)
from companion.core.storage.rows import set_columns
from companion.core.text import clean_text

ENTRY_LABELS = {
    "asked": "question",
    "flub": "flub",
    "went_well": "went-well note",
    "weak": "weak topic",
}
_ENTRY_CLASSES = {"asked": Asked, "flub": Flub, "went_well": WentWell, "weak": WeakTopic}
# the columns of each dataclass, in order
_ENTRY_ORDER = {
    kind: tuple(f.name for f in dataclasses.fields(cls)) for kind, cls in _ENTRY_CLASSES.items()
}
# every column of the table (a topic's grouping key is stored, not a dataclass field)
_ENTRY_COLUMNS = {
    kind: order + ("topic_key",) if kind in ("flub", "weak") else order
    for kind, order in _ENTRY_ORDER.items()
}
_EDITABLE = {
    # kind: {field: (label, required)}
    "asked": {"question": ("The question", True), "topic": ("The topic", False)},
    "flub": {"topic": ("The flubbed topic", True), "detail": ("The flub detail", False)},
    "went_well": {"text": ("What went well", True)},
    "weak": {"topic": ("The weak topic", True), "note": ("The note", False)},
}


def entry_kind_of(entry: object) -> str:
    """The kind name ("asked", "flub", "went_well", "weak") of an entry object."""
    for kind, cls in _ENTRY_CLASSES.items():
        if isinstance(entry, cls):
            return kind
    raise ValueError(f"{type(entry).__name__} is not a journal entry.")


def get_entry(db: Database, kind: str, entry_id: int) -> Asked | Flub | WentWell | WeakTopic | None:
    table = entry_table(kind)
    cols = ", ".join(_ENTRY_ORDER[kind])
    row = db.execute(f"SELECT {cols} FROM {table} WHERE id = ?", [entry_id]).fetchone()
    return _ENTRY_CLASSES[kind](*row) if row else None


def clean_entry_fields(kind: str, fields: dict) -> dict:
    """Check and tidy edited entry fields; ValueError names the field that is wrong."""
    allowed = _EDITABLE.get(kind)
    if allowed is None:
        raise ValueError(f"Unknown journal entry kind {kind!r}.")
    out: dict = {}
    for name, value in fields.items():
        if name == "severity" and kind == "flub":
            try:
                severity = int(value)
            except (TypeError, ValueError):
                severity = 0
            if severity not in SEVERITIES:
                raise ValueError(f"How bad a flub was must be 1, 2 or 3, not {value!r}.")
            out[name] = severity
        elif name in allowed:
            label, required = allowed[name]
            out[name] = clean_text(value, label, required=required)
        else:
            raise ValueError(f"A {ENTRY_LABELS[kind]} has no field {name!r}.")
    if "topic" in out and kind in ("flub", "weak"):
        out["topic_key"] = topic_key(out["topic"])
    return out


def update_entry(db: Database, kind: str, entry_id: int, **fields) -> dict:
    """Change some fields of an entry; returns their previous values (for undo)."""
    current = get_entry(db, kind, entry_id)
    if current is None:
        raise ValueError(f"That {ENTRY_LABELS.get(kind, 'entry')} no longer exists.")
    values = clean_entry_fields(kind, fields)
    previous = {name: getattr(current, name) for name in fields}
    set_columns(db, entry_table(kind), entry_id, values)
    return previous


def entry_row(db: Database, kind: str, entry_id: int) -> dict | None:
    """Every column of one entry, to put it back exactly with :func:`restore_entry`."""
    table = entry_table(kind)
    cols = _ENTRY_COLUMNS[kind]
    row = db.execute(f"SELECT {', '.join(cols)} FROM {table} WHERE id = ?", [entry_id]).fetchone()
    return dict(zip(cols, row, strict=True)) if row else None


def restore_entry(db: Database, kind: str, row: dict) -> int:
    """Put a deleted entry back; same id when it is still free. Returns its id."""
    import sqlite3

    table = entry_table(kind)
    cols = [c for c in _ENTRY_COLUMNS[kind] if c in row]
    taken = (
        row.get("id") is not None
        and db.execute(f"SELECT 1 FROM {table} WHERE id = ?", [row["id"]]).fetchone()
    )
    if taken:
        cols.remove("id")
    try:
        cursor = db.execute(
            f"INSERT INTO {table}({', '.join(cols)}) VALUES ({', '.join('?' * len(cols))})",
            [row[c] for c in cols],
        )
        return int(cursor.lastrowid)
    except sqlite3.IntegrityError as exc:
        raise ValueError(
            f"The {ENTRY_LABELS[kind]} cannot be put back: its loop or round was deleted."
        ) from exc
