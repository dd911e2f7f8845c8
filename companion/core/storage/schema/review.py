"""Tables of spaced review (FSRS): one card per quiz question or study topic, and the log
of every review. A card's scheduling columns are a replay of its log
(:mod:`companion.core.review.cards`); times are UTC ISO text.
"""

from companion.core.storage.schema.steps import Steps

migrations = Steps("companion.review")

# the review log: nth tells apart repeated reviews in one second (m002)
REVIEW_LOG = """
    CREATE TABLE {name} (
        id INTEGER PRIMARY KEY,
        card_key TEXT NOT NULL REFERENCES review_cards (key) ON DELETE CASCADE,
        rating TEXT NOT NULL CHECK (rating IN ('again', 'hard', 'good', 'easy')),
        reviewed_at TEXT NOT NULL,
        source TEXT NOT NULL,
        nth INTEGER NOT NULL DEFAULT 0 CHECK (nth >= 0),
        UNIQUE (card_key, reviewed_at, rating, source, nth)
    )
"""


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
    db.execute(REVIEW_LOG.format(name="review_log"))  # nth since m002: the import below writes it
    db.execute("CREATE INDEX idx_review_cards_due ON review_cards (due)")
    sources = ("quiz_cards", "flubs", "weak_topics", "study_marks")
    if any(db.execute(f"SELECT 1 FROM {t} LIMIT 1").fetchone() for t in sources):
        # a fresh journal has nothing to bring over (and its first start skips the import)
        from companion.core.review.migrate import migrate  # seam: schema step

        migrate(db)


@migrations()
def m002_repeated_reviews_in_one_second(db):
    """Two reviews of one card with the same rating in the same second (times are kept to
    the second) are two reviews: ``nth`` counts them (0, 1, ...). The UNIQUE key keeps
    it, so importing the same file twice still adds nothing. (A journal m001 made since
    has the column already.)"""
    if "nth" in db["review_log"].columns_dict:
        return
    db.execute(REVIEW_LOG.format(name="review_log_new"))
    db.execute(
        "INSERT INTO review_log_new (id, card_key, rating, reviewed_at, source) "
        "SELECT id, card_key, rating, reviewed_at, source FROM review_log"
    )
    db.execute("DROP TABLE review_log")
    db.execute("ALTER TABLE review_log_new RENAME TO review_log")
