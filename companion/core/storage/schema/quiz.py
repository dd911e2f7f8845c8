"""Tables of the quiz feature: Leitner cards, the review history and planned questions.

Planned questions reference loops and rounds with ON DELETE clauses so that deleting a
loop or a round elsewhere in the app never fails because of a plan row.
"""

from companion.core.storage.schema.steps import Steps

migrations = Steps("companion.quiz")


@migrations()
def m001_quiz_cards_and_planned_questions(db):
    # One row per quiz question the user has ever marked or flagged. The question text and
    # its "see" sections are snapshotted so the study list works without the content.
    db.execute(
        """
        CREATE TABLE quiz_cards (
            question_id TEXT PRIMARY KEY,
            question TEXT NOT NULL DEFAULT '',
            see TEXT NOT NULL DEFAULT '',
            set_name TEXT NOT NULL DEFAULT '',
            box INTEGER NOT NULL DEFAULT 1 CHECK (box BETWEEN 1 AND 5),
            state TEXT NOT NULL DEFAULT 'new'
                CHECK (state IN ('new', 'got', 'shaky', 'missed')),
            flagged INTEGER NOT NULL DEFAULT 0 CHECK (flagged IN (0, 1)),
            flagged_at TEXT,
            due_at TEXT,
            last_seen TEXT,
            reviews INTEGER NOT NULL DEFAULT 0
        )
        """
    )
    db.execute(
        """
        CREATE TABLE quiz_reviews (
            id INTEGER PRIMARY KEY,
            question_id TEXT NOT NULL,
            mark TEXT NOT NULL CHECK (mark IN ('got', 'shaky', 'missed')),
            box_before INTEGER NOT NULL,
            box_after INTEGER NOT NULL,
            at TEXT NOT NULL
        )
        """
    )
    db.execute("CREATE INDEX idx_quiz_reviews_question ON quiz_reviews (question_id)")
    db.execute(
        """
        CREATE TABLE planned_questions (
            id INTEGER PRIMARY KEY,
            loop_id INTEGER NOT NULL REFERENCES loops (id) ON DELETE CASCADE,
            text TEXT NOT NULL,
            text_key TEXT NOT NULL,
            audience TEXT NOT NULL,
            suits TEXT NOT NULL DEFAULT '',
            topic TEXT NOT NULL DEFAULT '',
            source TEXT NOT NULL DEFAULT 'content' CHECK (source IN ('content', 'custom')),
            round_id INTEGER REFERENCES rounds (id) ON DELETE SET NULL,
            asked_at TEXT,
            created_at TEXT NOT NULL
        )
        """
    )
    # The planner never plans the same question twice in one loop.
    db.execute(
        "CREATE UNIQUE INDEX idx_planned_questions_loop_text "
        "ON planned_questions (loop_id, text_key)"
    )
