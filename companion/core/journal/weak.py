"""The weak-topic list: topics marked weak until studied, one open mark per topic."""

from __future__ import annotations

import datetime as dt

from sqlite_utils import Database

from companion.core.journal.edits import entry_row
from companion.core.journal.entries import WeakTopic, add_weak_topic
from companion.core.text import clean_text, topic_key


def open_weak_topics(db: Database) -> list[WeakTopic]:
    """Topics marked weak and not yet studied, newest first."""
    rows = db.execute(
        "SELECT id, loop_id, round_id, topic, note, created_at, studied_at FROM weak_topics "
        "WHERE studied_at IS NULL ORDER BY created_at DESC, id DESC"
    ).fetchall()
    return [WeakTopic(*row) for row in rows]


def is_weak(db: Database, topic: str) -> bool:
    """Whether a topic (compared by :func:`topic_key`) is marked weak and not studied."""
    row = db.execute(
        "SELECT 1 FROM weak_topics WHERE topic_key = ? AND studied_at IS NULL LIMIT 1",
        [topic_key(topic)],
    ).fetchone()
    return row is not None


def mark_weak(
    db: Database,
    topic: str,
    *,
    loop_id: int | None = None,
    round_id: int | None = None,
    note: str = "",
    at: dt.datetime | None = None,
) -> int | None:
    """Mark a topic weak unless it already is (then None): one open mark per topic."""
    topic = clean_text(topic, "The weak topic", required=True)
    if is_weak(db, topic):
        return None
    return add_weak_topic(db, topic, loop_id=loop_id, round_id=round_id, note=note, at=at)


def unmark_weak(db: Database, key: str) -> list[dict]:
    """Take a topic off the weak list (its open marks are removed); returns the removed
    rows so :func:`restore_entry` can put them back."""
    ids = [
        r[0]
        for r in db.execute(
            "SELECT id FROM weak_topics WHERE topic_key = ? AND studied_at IS NULL ORDER BY id",
            [topic_key(key)],
        ).fetchall()
    ]
    rows = [entry_row(db, "weak", i) for i in ids]
    with db.atomic():
        for i in ids:
            db.execute("DELETE FROM weak_topics WHERE id = ?", [i])
    return [r for r in rows if r is not None]
