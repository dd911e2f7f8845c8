"""Two reviews of one card with the same rating in the same second are two reviews (times
are stored to the second); importing a file twice still adds nothing."""

from __future__ import annotations

import datetime as dt

from fsrs import Card, Rating, Scheduler

from companion.core.journal.importer import import_journal_data
from companion.core.review import cards as review
from companion.core.review.transfer import review_dict

AT = dt.datetime(2022, 11, 29, 12, 30, 0, tzinfo=dt.UTC)


def test_ten_quick_easy_reviews_reach_py_fsrs_stability(db):
    """py-fsrs's own test_repeated_correct_reviews: ten Easy within one second."""
    for i in range(10):
        card = review.rate(
            db, "topic", "t", "T", "easy", AT + dt.timedelta(microseconds=i), "study"
        )
    scheduler, theirs = Scheduler(enable_fuzzing=False), Card()
    for i in range(10):
        theirs, _ = scheduler.review_card(
            theirs, Rating.Easy, review_datetime=AT + dt.timedelta(microseconds=i)
        )
    assert card.reviews == 10
    assert card.difficulty == 1.0
    assert abs(card.stability - theirs.stability) < 1e-6 and card.stability > 190


def _file(db) -> dict:
    return {
        "format": "interview-companion-journal",
        "version": 1,
        "loops": [],
        "review": review_dict(db),
    }


def test_importing_repeated_reviews_twice_adds_them_once(db, ctx):
    for _ in range(3):
        review.rate(db, "topic", "t", "T", "good", AT, "study")
    data = _file(db)
    assert len(data["review"]["log"]) == 3
    db.execute("DELETE FROM review_log")
    first = import_journal_data(db, data)
    again = import_journal_data(db, data)
    assert (first.reviews_added, again.reviews_added) == (3, 0)
    assert "3 reviews" in first.summary()
    assert db.execute("SELECT COUNT(*) FROM review_log").fetchone()[0] == 3


def test_a_journal_before_the_count_keeps_its_reviews_and_takes_repeats(data_dir):
    import sqlite3

    from companion.core.storage.store import open_store

    path = data_dir / "companion.sqlite3"
    open_store(path).close()
    conn = sqlite3.connect(path)  # the review log as m001 made it before m002
    conn.executescript(
        """
        DROP TABLE review_log;
        CREATE TABLE review_log (
            id INTEGER PRIMARY KEY,
            card_key TEXT NOT NULL REFERENCES review_cards (key) ON DELETE CASCADE,
            rating TEXT NOT NULL CHECK (rating IN ('again', 'hard', 'good', 'easy')),
            reviewed_at TEXT NOT NULL,
            source TEXT NOT NULL,
            UNIQUE (card_key, reviewed_at, rating, source)
        );
        INSERT INTO review_cards (key, kind, ref, due, created_at)
            VALUES ('topic:t', 'topic', 't', '2022-11-29T12:30:00+00:00', '2022-11-29T12:30:00+00:00');
        INSERT INTO review_log (card_key, rating, reviewed_at, source)
            VALUES ('topic:t', 'good', '2022-11-29T12:30:00+00:00', 'study');
        DELETE FROM _sqlite_migrations WHERE name = 'm002_repeated_reviews_in_one_second';
        PRAGMA user_version = 0;
        """
    )
    conn.commit()
    conn.close()
    store = open_store(path)
    db = store.db
    assert db.execute("SELECT card_key, nth FROM review_log").fetchall() == [("topic:t", 0)]
    review.rate(db, "topic", "t", "T", "good", AT, "study")
    assert db.execute("SELECT nth FROM review_log ORDER BY nth").fetchall() == [(0,), (1,)]
    store.close()
