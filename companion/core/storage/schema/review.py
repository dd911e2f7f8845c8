"""Tables of spaced review (FSRS): one card per quiz question or study topic, and the log
of every review. A card's scheduling columns are a replay of its log
(:mod:`companion.core.review.cards`); times are UTC ISO text.
"""

from sqlite_utils import Migrations

from companion.core.review.migrate import migrate

migrations = Migrations("companion.review")


@migrations()
def m001_review_cards_from_leitner_and_marks(db):
    db.execute(
        """
        CREATE TABLE review_cards (
            key TEXT PRIMARY KEY,
            kind TEXT NOT NULL CHECK (kind IN ('quiz', 'topic')),
            ref TEXT NOT NULL,
            title TEXT NOT NULL DEFAULT '',
            state INTEGER NOT NULL DEFAULT 1 CHECK (state BETWEEN 1 AND 3),
            step INTEGER,
            stability REAL,
            difficulty REAL,
            due TEXT NOT NULL,
            last_review TEXT,
            reviews INTEGER NOT NULL DEFAULT 0,
            created_at TEXT NOT NULL
        )
        """
    )
    db.execute(
        """
        CREATE TABLE review_log (
            id INTEGER PRIMARY KEY,
            card_key TEXT NOT NULL REFERENCES review_cards (key) ON DELETE CASCADE,
            rating TEXT NOT NULL CHECK (rating IN ('again', 'hard', 'good', 'easy')),
            reviewed_at TEXT NOT NULL,
            source TEXT NOT NULL,
            UNIQUE (card_key, reviewed_at, rating, source)
        )
        """
    )
    db.execute("CREATE INDEX idx_review_cards_due ON review_cards (due)")
    sources = ("quiz_cards", "flubs", "weak_topics", "study_marks")
    if any(db.execute(f"SELECT 1 FROM {t} LIMIT 1").fetchone() for t in sources):
        # a fresh journal has nothing to bring over (and its first start skips the import)

        migrate(db)
