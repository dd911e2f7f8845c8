"""From Leitner boxes and study marks to FSRS cards (the ``companion.review`` migration).

Every quiz card becomes a review card: its kept history (``quiz_reviews``) is replayed,
missed -> Again, shaky -> Hard, got -> Good; a card with no history (only flagged, or its
reviews never kept) starts new. Study marks, flubs and weak topics become topic cards
through :func:`companion.core.review.topics.sync_topics`. Nothing is deleted: the Leitner
tables stay as they were.
"""

from __future__ import annotations

import datetime as dt

from companion.core.review.cards import LogEntry, add_log, ensure_card, parse_utc, rebuild
from companion.core.review.topics import sync_topics

LEITNER_RATING = {"missed": "again", "shaky": "hard", "got": "good"}


def from_leitner(db, now: dt.datetime | None = None) -> list[str]:
    """A review card for every quiz card; returns their keys."""
    now = now or dt.datetime.now(dt.UTC)
    history: dict[str, list[tuple[str, dt.datetime]]] = {}
    for qid, mark, at in db.execute(
        "SELECT question_id, mark, at FROM quiz_reviews ORDER BY at, id"
    ).fetchall():
        moment = parse_utc(at)
        if moment is not None and mark in LEITNER_RATING:
            history.setdefault(qid, []).append((LEITNER_RATING[mark], moment))
    keys = []
    rows = db.execute(
        "SELECT question_id, question, flagged_at, last_seen FROM quiz_cards"
    ).fetchall()
    for qid, question, flagged_at, last_seen in rows:
        reviews = history.get(qid, [])
        first = reviews[0][1] if reviews else parse_utc(flagged_at) or parse_utc(last_seen) or now
        key = ensure_card(db, "quiz", qid, question or "", first)
        add_log(db, [LogEntry(key, rating, at, "leitner") for rating, at in reviews])
        keys.append(key)
    rebuild(db, keys)
    return keys


def migrate(db) -> None:
    with db.atomic():
        from_leitner(db)
        sync_topics(db)
