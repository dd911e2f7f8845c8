"""Study-list topics as cards: a flub is a lapse (Again), a topic marked weak a Hard, a
topic marked studied a Good. Read from the journal's own rows every time, so a flub
written anywhere (capture, import, an older version) becomes a card without a hook, and
running it twice adds nothing (the log's natural key)."""

from __future__ import annotations

from companion.core.review.cards import (
    LogEntry,
    add_log,
    card_key,
    ensure_card,
    parse_utc,
    rebuild,
)

_SOURCES_SQL = """
SELECT topic_key, topic, created_at, 'again', 'flub' FROM flubs
UNION ALL
SELECT topic_key, topic, created_at, 'hard', 'weak' FROM weak_topics
UNION ALL
SELECT topic_key, topic, studied_at, 'good', 'study' FROM study_marks
"""


def sync_topics(db) -> list[str]:
    """Bring every flub, weak topic and study mark into the cards; returns changed keys."""
    have = {
        (k, at, r, s)
        for k, at, r, s in db.execute(
            "SELECT card_key, reviewed_at, rating, source FROM review_log "
            "WHERE source IN ('flub', 'weak', 'study')"
        ).fetchall()
    }
    new: dict[str, list[tuple[str, LogEntry]]] = {}
    for topic_key, topic, at_text, rating, source in db.execute(_SOURCES_SQL).fetchall():
        at = parse_utc(at_text)
        if at is None or not topic_key:
            continue
        if topic_key.startswith("quiz:"):  # a quiz question studied from the study list
            kind, ref = "quiz", topic_key[5:]
        else:
            kind, ref = "topic", topic_key
        key = card_key(kind, ref)
        if (key, at.isoformat(), rating, source) in have:
            continue
        new.setdefault(key, []).append((topic, LogEntry(key, rating, at, source)))
    if not new:
        return []
    with db.atomic():
        for key, entries in new.items():
            kind, ref = key.split(":", 1)
            first = min(entry.at for _t, entry in entries)
            title = entries[-1][0] if kind == "topic" else ""
            ensure_card(db, kind, ref, title, first)
            add_log(db, [entry for _t, entry in entries])
        rebuild(db, new)
    return list(new)
