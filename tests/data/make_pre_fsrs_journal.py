"""Made with the version before FSRS (main at d1c3192): PYTHONPATH=<that checkout>."""

import datetime as dt
import sys
from pathlib import Path

from companion.core.content.loader import QuizQuestion
from companion.core.day.loops import add_round, create_loop
from companion.core.journal import entries
from companion.core.selfcheck import quiz
from companion.core.storage.store import open_store
from companion.core.study.ranking import mark_studied, study_list

tz = dt.timezone(dt.timedelta(hours=1))
t0 = dt.datetime(2026, 11, 1, 20, 0, tzinfo=tz)
day = dt.timedelta(days=1)
store = open_store(Path(sys.argv[1]), now=lambda: t0)
db = store.db
qs = [
    QuizQuestion(f"fix-q{n}", f"Fixture question {n}?", f"Answer {n}.", ("traps",), "basics")
    for n in range(1, 6)
]
quiz.record_mark(db, qs[0], "got", t0)
quiz.record_mark(db, qs[0], "got", t0 + day)
quiz.record_mark(db, qs[0], "got", t0 + 4 * day)
quiz.record_mark(db, qs[1], "missed", t0 + 2 * day)
quiz.record_mark(db, qs[2], "shaky", t0 + 3 * day)
quiz.record_mark(db, qs[2], "got", t0 + 5 * day)
quiz.set_flag(db, qs[3], True, t0 + 5 * day)
quiz.set_flag(db, qs[1], True, t0 + 5 * day)
loop = create_loop(db, "Fixture Co", "SRE", starts_on="2026-11-03")
rnd = add_round(db, loop, "coding", scheduled_at=dt.datetime(2026, 11, 3, 10, 0, tzinfo=tz))
entries.add_flub(
    db,
    loop,
    rnd,
    "Consistent hashing",
    "forgot virtual nodes",
    3,
    at=t0 + 2 * day + dt.timedelta(hours=2),
)
entries.add_flub(db, loop, rnd, "Raft leader election", "", 2, at=t0 + 2 * day)
entries.add_weak_topic(db, "Backpressure", loop_id=loop, at=t0 + 2 * day)
for item in study_list(db, t0 + 6 * day):
    if item.topic == "Raft leader election" or item.key == "quiz:fix-q2":
        mark_studied(db, item, t0 + 6 * day)
later = create_loop(db, "Later Co", "SRE", starts_on="2026-12-15")
add_round(db, later, "design", scheduled_at=dt.datetime(2026, 12, 15, 10, 0, tzinfo=tz))
db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
db.execute("PRAGMA journal_mode = DELETE")
for table in ("quiz_cards", "quiz_reviews", "flubs", "weak_topics", "study_marks"):
    print(table, db.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0])
