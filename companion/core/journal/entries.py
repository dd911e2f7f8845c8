"""Journal entries: what was asked, what was flubbed, what went well, weak topics.

Entries hang off a loop and, when known, a round. Entry times are stored as UTC ISO
strings so they sort as text. Editing and undo live in :mod:`.edits`, thank-yous in
:mod:`.thankyou`, what is due now in :mod:`.due`, a loop's page in :mod:`.detail`.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import TYPE_CHECKING

from companion.core.day.loops import get_loop, get_round
from companion.core.text import clean_text, topic_key
from companion.core.timeutil import to_stored_utc

if TYPE_CHECKING:
    from sqlite_utils import Database

SEVERITIES = {1: "minor", 2: "noticeable", 3: "bad"}
ENTRY_TABLES = {"asked": "asked", "flub": "flubs", "went_well": "went_well", "weak": "weak_topics"}


@dataclass(frozen=True)
class Asked:
    id: int
    loop_id: int | None
    round_id: int | None
    question: str
    topic: str
    created_at: str


@dataclass(frozen=True)
class Flub:
    id: int
    loop_id: int | None
    round_id: int | None
    topic: str
    detail: str
    severity: int
    created_at: str
    studied_at: str | None


@dataclass(frozen=True)
class WentWell:
    id: int
    loop_id: int | None
    round_id: int | None
    text: str
    created_at: str


@dataclass(frozen=True)
class WeakTopic:
    id: int
    loop_id: int | None
    round_id: int | None
    topic: str
    note: str
    created_at: str
    studied_at: str | None


# --- helpers -----------------------------------------------------------------------


def _owner(
    db: Database, loop_id: int | None, round_id: int | None
) -> tuple[int | None, int | None]:
    """Fill the loop from the round, and check both exist."""
    if round_id:
        found = get_round(db, round_id)
        if found is None:
            raise ValueError(f"Round {round_id} does not exist.")
        if loop_id is None:
            loop_id = found.loop_id
    else:
        round_id = None
    if loop_id is not None and get_loop(db, loop_id) is None:
        raise ValueError(f"Loop {loop_id} does not exist.")
    return loop_id, round_id


def _insert(db: Database, sql: str, params: list) -> int:
    cursor = db.execute(sql, params)
    return int(cursor.lastrowid)


# --- adding and removing entries ------------------------------------------------------


def add_asked(
    db: Database,
    loop_id: int | None,
    round_id: int | None,
    question: str,
    topic: str = "",
    *,
    at: dt.datetime | None = None,
) -> int:
    loop_id, round_id = _owner(db, loop_id, round_id)
    return _insert(
        db,
        "INSERT INTO asked(loop_id, round_id, question, topic, created_at) VALUES (?, ?, ?, ?, ?)",
        [
            loop_id,
            round_id,
            clean_text(question, "The question", required=True),
            clean_text(topic, "The topic"),
            to_stored_utc(at),
        ],
    )


def add_flub(
    db: Database,
    loop_id: int | None,
    round_id: int | None,
    topic: str,
    detail: str = "",
    severity: int = 2,
    *,
    at: dt.datetime | None = None,
) -> int:
    if severity not in SEVERITIES:
        raise ValueError(f"How bad a flub was must be 1, 2 or 3, not {severity!r}.")
    loop_id, round_id = _owner(db, loop_id, round_id)
    topic = clean_text(topic, "The flubbed topic", required=True)
    return _insert(
        db,
        "INSERT INTO flubs(loop_id, round_id, topic, topic_key, detail, severity, created_at) "
        "VALUES (?, ?, ?, ?, ?, ?, ?)",
        [
            loop_id,
            round_id,
            topic,
            topic_key(topic),
            clean_text(detail, "The flub detail"),
            severity,
            to_stored_utc(at),
        ],
    )


def add_went_well(
    db: Database,
    loop_id: int | None,
    round_id: int | None,
    text: str,
    *,
    at: dt.datetime | None = None,
) -> int:
    loop_id, round_id = _owner(db, loop_id, round_id)
    return _insert(
        db,
        "INSERT INTO went_well(loop_id, round_id, text, created_at) VALUES (?, ?, ?, ?)",
        [loop_id, round_id, clean_text(text, "What went well", required=True), to_stored_utc(at)],
    )


def add_weak_topic(
    db: Database,
    topic: str,
    *,
    loop_id: int | None = None,
    round_id: int | None = None,
    note: str = "",
    at: dt.datetime | None = None,
) -> int:
    """Mark a topic weak (it goes on the study list until studied)."""
    loop_id, round_id = _owner(db, loop_id, round_id)
    topic = clean_text(topic, "The weak topic", required=True)
    return _insert(
        db,
        "INSERT INTO weak_topics(loop_id, round_id, topic, topic_key, note, created_at) "
        "VALUES (?, ?, ?, ?, ?, ?)",
        [
            loop_id,
            round_id,
            topic,
            topic_key(topic),
            clean_text(note, "The note"),
            to_stored_utc(at),
        ],
    )


def entry_table(kind: str) -> str:
    """The table of an entry kind ("asked", "flub", "went_well", "weak")."""
    table = ENTRY_TABLES.get(kind)
    if table is None:
        raise ValueError(f"Unknown journal entry kind {kind!r}.")
    return table


def delete_entry(db: Database, kind: str, entry_id: int) -> None:
    db.execute(f"DELETE FROM {entry_table(kind)} WHERE id = ?", [entry_id])


def set_loop_notes(db: Database, loop_id: int, notes: str) -> None:
    db.execute("UPDATE loops SET notes = ? WHERE id = ?", [clean_text(notes, "The notes"), loop_id])


def set_round_notes(db: Database, round_id: int, notes: str) -> None:
    db.execute(
        "UPDATE rounds SET notes = ? WHERE id = ?", [clean_text(notes, "The notes"), round_id]
    )
