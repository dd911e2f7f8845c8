"""Where the About-me one-pager lives: the current text, its revisions, the speaking rate
and the last rehearsal, all in the journal database (tables in schema/about.py).

Every write is one short transaction, so a process killed mid-way leaves either the old or
the new text, never a mix. Revisions are snapshots: one at most every
:data:`REVISION_EVERY` while typing, plus one on every explicit save, import and restore.
"""

from __future__ import annotations

import datetime as dt
import json
import sqlite3
from dataclasses import dataclass
from typing import TYPE_CHECKING

from companion.core.about.spoken import DEFAULT_WPM, MAX_WPM, MIN_WPM, clamp_wpm
from companion.core.settings import Settings
from companion.core.timeutil import parse_stored

if TYPE_CHECKING:  # the caller's open journal; importing sqlite-utils costs 10 MiB
    from sqlite_utils import Database

REVISION_EVERY = dt.timedelta(minutes=2)
KEEP_REVISIONS = 200
KEEP_REVISION_BYTES = 20_000_000
KEEP_REHEARSALS = 20
WPM_KEY = "about.words_per_minute"
# documents kept this way: the one-pager ("about") and the story bank ("stories", whose
# tables are in schema/stories.py); each has a ``<doc>_document`` and ``<doc>_revisions``
DOCUMENTS = ("about", "stories")


def _doc(doc: str) -> str:
    if doc not in DOCUMENTS:
        raise ValueError(f"No document {doc!r}")
    return doc


@dataclass(frozen=True)
class RevisionInfo:
    id: int
    saved_at: str
    reason: str
    words: int
    chars: int


@dataclass(frozen=True)
class RehearsalSegment:
    id: str
    title: str
    budget_seconds: float
    seconds: float

    @property
    def delta_seconds(self) -> float:
        return self.seconds - self.budget_seconds


@dataclass(frozen=True)
class RehearsalRecord:
    id: int
    started_at: str
    total_seconds: float
    segments: tuple[RehearsalSegment, ...]


def load_document(db: Database | sqlite3.Connection, *, doc: str = "about") -> str | None:
    """The saved one-pager, or None when the user has never saved one (show the template).
    ``db`` may be the store's bare connection: a command that only reads this does not
    import sqlite-utils."""
    row = db.execute(f"SELECT text FROM {_doc(doc)}_document WHERE id = 1").fetchone()
    return None if row is None else row[0]


def load_text(db: Database, *, doc: str = "about") -> str:
    """The current one-pager ("" if none)."""
    return load_document(db, doc=doc) or ""


def save_text(
    db: Database,
    text: str,
    now: dt.datetime,
    *,
    reason: str = "autosave",
    revision_every: dt.timedelta = REVISION_EVERY,
    doc: str = "about",
) -> int | None:
    """Store ``text`` as the current one-pager; also snapshot a revision when ``reason`` is
    not "autosave" or the last revision is older than ``revision_every``. Returns the new
    revision's id, if one was made."""
    stamp = now.isoformat()
    conn = db.conn
    doc = _doc(doc)
    # a savepoint is a transaction of its own, and nests if a caller already opened one
    conn.execute("SAVEPOINT about_save")
    try:
        revision_id = None
        last = conn.execute(
            f"SELECT id, text, saved_at FROM {doc}_revisions ORDER BY id DESC LIMIT 1"
        ).fetchone()
        due = reason != "autosave" or last is None or _older_than(last[2], now, revision_every)
        if due and (last is None or last[1] != text):
            revision_id = _insert_revision(conn, text, stamp, reason, doc)
        conn.execute(
            f"INSERT INTO {doc}_document (id, text, saved_at, revision_id) VALUES (1, ?, ?, ?) "
            "ON CONFLICT(id) DO UPDATE SET text = excluded.text, saved_at = excluded.saved_at, "
            f"revision_id = COALESCE(excluded.revision_id, {doc}_document.revision_id)",
            [text, stamp, revision_id],
        )
        conn.execute("RELEASE about_save")
    except BaseException:
        conn.execute("ROLLBACK TO about_save")
        conn.execute("RELEASE about_save")
        raise
    if revision_id is not None:
        _prune(conn, doc)
    return revision_id


def snapshot(
    db: Database, text: str, now: dt.datetime, reason: str, *, doc: str = "about"
) -> int | None:
    """Keep ``text`` as a revision (e.g. before it is replaced by an import or a restore),
    unless the newest revision already holds exactly this text."""
    doc = _doc(doc)
    last = db.execute(f"SELECT text FROM {doc}_revisions ORDER BY id DESC LIMIT 1").fetchone()
    if last is not None and last[0] == text:
        return None
    return _insert_revision(db.conn, text, now.isoformat(), reason, doc)


def _insert_revision(
    conn: sqlite3.Connection, text: str, stamp: str, reason: str, doc: str = "about"
) -> int:
    cursor = conn.execute(
        f"INSERT INTO {_doc(doc)}_revisions (text, saved_at, reason, words, chars) "
        "VALUES (?, ?, ?, ?, ?)",
        [text, stamp, reason, len(text.split()), len(text)],
    )
    return int(cursor.lastrowid)


def _older_than(stamp: str, now: dt.datetime, age: dt.timedelta) -> bool:
    then = parse_stored(stamp)
    if then is None:
        return True
    now = now if now.tzinfo else now.astimezone()
    return now - then >= age or now < then


def _prune(conn: sqlite3.Connection, doc: str = "about") -> None:
    """Keep the newest KEEP_REVISIONS revisions and about KEEP_REVISION_BYTES of text."""
    table = f"{_doc(doc)}_revisions"
    rows = conn.execute(f"SELECT id, chars FROM {table} ORDER BY id DESC").fetchall()
    total = 0
    doomed = []
    for index, (revision_id, chars) in enumerate(rows):
        total += chars or 0
        if index >= KEEP_REVISIONS or (index > 0 and total > KEEP_REVISION_BYTES):
            doomed.append(revision_id)
    if doomed:
        conn.executemany(f"DELETE FROM {table} WHERE id = ?", [(i,) for i in doomed])


def list_revisions(db: Database, *, doc: str = "about") -> list[RevisionInfo]:
    """Revisions, newest first."""
    rows = db.execute(
        f"SELECT id, saved_at, reason, words, chars FROM {_doc(doc)}_revisions ORDER BY id DESC"
    ).fetchall()
    return [RevisionInfo(*row) for row in rows]


def revision_text(db: Database, revision_id: int, *, doc: str = "about") -> str:
    row = db.execute(
        f"SELECT text FROM {_doc(doc)}_revisions WHERE id = ?", [revision_id]
    ).fetchone()
    if row is None:
        raise KeyError(f"No revision {revision_id}")
    return row[0]


def words_per_minute(db: Database) -> float:
    """The user's speaking rate (default 140)."""

    value = Settings(db).get(WPM_KEY, DEFAULT_WPM)
    return clamp_wpm(value) if isinstance(value, int | float) else DEFAULT_WPM


def set_words_per_minute(db: Database, rate: float) -> float:
    """Store the speaking rate; ValueError when it is outside 60-300."""
    if not MIN_WPM <= float(rate) <= MAX_WPM:
        raise ValueError(
            f"A speaking rate of {rate:.0f} words per minute is outside {MIN_WPM:.0f}-{MAX_WPM:.0f}."
        )

    Settings(db).set(WPM_KEY, round(float(rate), 1))
    return round(float(rate), 1)


def save_rehearsal(
    db: Database, started_at: dt.datetime, segments: list[RehearsalSegment]
) -> RehearsalRecord:
    total = round(sum(s.seconds for s in segments), 2)
    payload = json.dumps(
        [
            {
                "id": s.id,
                "title": s.title,
                "budget": s.budget_seconds,
                "seconds": round(s.seconds, 2),
            }
            for s in segments
        ]
    )
    cursor = db.conn.execute(
        "INSERT INTO about_rehearsals (started_at, total_seconds, results) VALUES (?, ?, ?)",
        [started_at.isoformat(), total, payload],
    )
    db.conn.execute(
        "DELETE FROM about_rehearsals WHERE id NOT IN "
        "(SELECT id FROM about_rehearsals ORDER BY id DESC LIMIT ?)",
        [KEEP_REHEARSALS],
    )
    return RehearsalRecord(int(cursor.lastrowid), started_at.isoformat(), total, tuple(segments))


def last_rehearsal(db: Database) -> RehearsalRecord | None:
    row = db.execute(
        "SELECT id, started_at, total_seconds, results FROM about_rehearsals "
        "ORDER BY id DESC LIMIT 1"
    ).fetchone()
    if row is None:
        return None
    try:
        items = json.loads(row[3])
        segments = tuple(
            RehearsalSegment(str(i["id"]), str(i["title"]), float(i["budget"]), float(i["seconds"]))
            for i in items
        )
    except (ValueError, KeyError, TypeError):
        return None
    return RehearsalRecord(row[0], row[1], row[2] or 0.0, segments)
