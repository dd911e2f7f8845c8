"""Tables of the story bank: its document and revisions (shaped like the one-pager's),
which story was used in which round, the topics expected per round, and the topics a
round asked that were not expected (they join the study list)."""

from companion.core.storage.schema.steps import Steps

migrations = Steps("companion.stories")


@migrations()
def m001_stories_use_and_expected_topics(db):
    db["stories_document"].create(
        {"id": int, "text": str, "saved_at": str, "revision_id": int},
        pk="id",
        not_null={"text", "saved_at"},
    )
    db["stories_revisions"].create(
        {"id": int, "text": str, "saved_at": str, "reason": str, "words": int, "chars": int},
        pk="id",
        not_null={"text", "saved_at"},
        defaults={"reason": "autosave"},
    )
    # a story told in a round (the card's key); story is the title's slug
    db.execute(
        """CREATE TABLE story_use (
            round_id INTEGER NOT NULL REFERENCES rounds(id) ON DELETE CASCADE,
            story TEXT NOT NULL,
            title TEXT NOT NULL DEFAULT '',
            used_at TEXT NOT NULL,
            PRIMARY KEY (round_id, story)
        )"""
    )
    # the topics you expect in a round: a JSON list of text. Its own table, not a column
    # of rounds: an update of rounds re-indexes the row for search (journal_fts)
    db.execute(
        """CREATE TABLE round_expected (
            round_id INTEGER PRIMARY KEY REFERENCES rounds(id) ON DELETE CASCADE,
            topics TEXT NOT NULL
        )"""
    )
    # asked but not expected: recomputed from a round's debrief, ranked on the study list
    db.execute(
        """CREATE TABLE study_surprises (
            round_id INTEGER NOT NULL REFERENCES rounds(id) ON DELETE CASCADE,
            topic_key TEXT NOT NULL,
            topic TEXT NOT NULL,
            severity INTEGER NOT NULL DEFAULT 3 CHECK (severity BETWEEN 1 AND 3),
            created_at TEXT NOT NULL,
            studied_at TEXT,
            PRIMARY KEY (round_id, topic_key)
        )"""
    )
    db.execute(
        "CREATE INDEX study_surprises_open ON study_surprises(topic_key) WHERE studied_at IS NULL"
    )
