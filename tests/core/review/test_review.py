"""Spaced review with FSRS under a controllable clock: the loop caps every interval, the
list ranks by predicted recall at the round, an older database migrates with nothing
lost, and the journal export carries the cards and their log."""

from __future__ import annotations

import datetime as dt
import shutil
from pathlib import Path

import pytest

from companion.core.content.loader import QuizQuestion
from companion.core.day.loops import add_round, create_loop, update_round
from companion.core.journal import entries
from companion.core.journal import files as journal_io
from companion.core.review import cards as review
from companion.core.review.deadline import cap, effective_due, loop_starts
from companion.core.review.queue import review_list
from companion.core.selfcheck import quiz
from companion.core.storage.store import open_store

TZ = dt.timezone(dt.timedelta(hours=1))
DAY = dt.timedelta(days=1)
FIXTURE = (
    next(p for p in Path(__file__).resolve().parents if (p / "pyproject.toml").is_file())
    / "tests"
    / "data"
    / "pre-fsrs-journal.sqlite3"
)


def q(n: int) -> QuizQuestion:
    return QuizQuestion(f"q{n}", f"Question {n}?", f"Answer {n}.", ("traps",), "basics")


def loop_at(db, start: dt.datetime) -> int:
    loop_id = create_loop(db, "Acme", "SRE", starts_on=start.date().isoformat())
    add_round(db, loop_id, "coding", scheduled_at=start)
    add_round(db, loop_id, "design", scheduled_at=start + dt.timedelta(hours=2))
    return loop_id


def mature(db, question: QuizQuestion, clock, times: int = 4) -> None:
    """Good a few times, far apart: FSRS's interval grows past weeks."""
    for _ in range(times):
        quiz.record_mark(db, question, "got", clock.now())
        clock.advance(days=12)


# --- the deadline ------------------------------------------------------------------------


def test_a_card_rated_good_five_days_before_a_loop_is_due_before_the_loop(db, clock):
    mature(db, q(1), clock)
    first_round = clock.now() + 5 * DAY
    loop_at(db, first_round)
    marked = quiz.record_mark(db, q(1), "got", clock.now())  # Good
    card = review.get_card(db, "quiz:q1")
    assert card.due > first_round  # FSRS alone would schedule it after the loop
    due = effective_due(card, loop_starts(db), clock.now())
    assert clock.now() < due < first_round
    # it lands on the evening before, when the night-before list opens (17:00 there)
    assert due == dt.datetime.combine(first_round.date() - DAY, dt.time(17), tzinfo=TZ)
    # and the quiz sees the same due time
    assert marked.due == due


def test_a_fresh_card_rated_good_five_days_before_is_due_before_too(db, clock):
    first_round = clock.now() + 5 * DAY
    loop_at(db, first_round)
    for _ in range(3):  # a pass a day: learning step, then days
        card = quiz.record_mark(db, q(2), "got", clock.now())
        clock.advance(minutes=11)
    assert card.due < first_round


def test_the_cap_steps_from_evening_to_morning_to_the_round(clock):
    start = dt.datetime(2026, 12, 10, 10, 0, tzinfo=TZ)
    assert cap(start, start - 3 * DAY) == dt.datetime(2026, 12, 9, 17, 0, tzinfo=TZ)
    assert cap(start, dt.datetime(2026, 12, 9, 20, 0, tzinfo=TZ)) == dt.datetime(
        2026, 12, 10, 5, 0, tzinfo=TZ
    )
    assert cap(start, dt.datetime(2026, 12, 10, 7, 0, tzinfo=TZ)) == start


def test_after_the_loop_normal_scheduling_resumes(db, clock):
    mature(db, q(1), clock)
    first_round = clock.now() + 5 * DAY
    loop_at(db, first_round)
    card = review.rate(db, "quiz", "q1", "Question 1?", "good", clock.now(), "quiz")
    after = first_round + 3 * DAY
    assert effective_due(card, loop_starts(db), after) == card.due  # FSRS's own
    # a review after the loop is not capped by it
    later = review.rate(db, "quiz", "q1", "Question 1?", "good", after, "quiz")
    assert effective_due(later, loop_starts(db), after) == later.due > after + 7 * DAY


def test_a_skipped_first_round_moves_the_deadline_to_the_next(db, clock):
    mature(db, q(1), clock)
    first_round = clock.now() + 5 * DAY
    loop_id = loop_at(db, first_round)
    first = db.execute("SELECT MIN(id) FROM rounds WHERE loop_id = ?", [loop_id]).fetchone()[0]
    update_round(db, first, skipped_at=review.stamp(clock.now()))
    assert loop_starts(db) == [first_round + dt.timedelta(hours=2)]


def test_a_first_round_started_early_is_when_the_loop_began(db, clock):
    """Started 20 minutes before its time: the loop has begun, so a review made after the
    early start is not held to the scheduled one (the Study list said 'to review before
    the loop (first round 10:00)' during that round)."""
    first_round = clock.now() + 5 * DAY
    loop_id = loop_at(db, first_round)
    first = db.execute("SELECT MIN(id) FROM rounds WHERE loop_id = ?", [loop_id]).fetchone()[0]
    early = first_round - dt.timedelta(minutes=20)
    update_round(db, first, started_at=review.stamp(early))
    assert loop_starts(db) == [early]


# --- the list ----------------------------------------------------------------------------


def test_the_list_ranks_by_recall_at_the_round_lowest_first(db, clock):
    start = clock.now()
    quiz.record_mark(db, q(1), "got", clock.now())  # learning: weakest of the reviewed
    clock.advance(hours=1)
    mature(db, q(2), clock, times=2)
    mature(db, q(3), clock, times=4)  # strongest
    entries.add_flub(db, None, None, "Consistent hashing", at=start)
    first_round = clock.now() + 3 * DAY
    loop_at(db, first_round)
    # the evening before: everything due by the round is on the list
    clock.set(dt.datetime.combine(first_round.date() - DAY, dt.time(20), tzinfo=TZ))
    listed = review_list(db, clock.now())
    assert listed.next_round_at == first_round
    recalls = [item.recall_at_round for item in listed.items]
    assert recalls == sorted(recalls)
    by_id = {item.id: item for item in listed.items}
    assert by_id["q1"].recall_at_round < by_id["q2"].recall_at_round
    assert by_id["q2"].recall_at_round < by_id["q3"].recall_at_round
    # the recall is the one at the round's start, not now
    card = review.get_card(db, "quiz:q2")
    assert by_id["q2"].recall_at_round == round(review.recall(card, first_round), 4)
    assert by_id["q2"].recall_at_round < round(review.recall(card, clock.now()), 4)
    assert "consistent hashing" in by_id and by_id["consistent hashing"].kind == "topic"


def test_the_night_before_lists_a_flagged_question_and_a_flub(db, clock):
    first_round = clock.now() + 2 * DAY
    loop_at(db, first_round)
    quiz.set_flag(db, q(4), True, clock.now())
    entries.add_flub(db, None, None, "Raft leader election", "froze on terms", 3, at=clock.now())
    clock.set(dt.datetime.combine(first_round.date() - DAY, dt.time(19), tzinfo=TZ))
    listed = review_list(db, clock.now())
    keys = [item.key for item in listed.items]
    assert "quiz:q4" in keys and "topic:raft leader election" in keys
    flagged = next(item for item in listed.items if item.key == "quiz:q4")
    assert flagged.flagged and flagged.title == "Question 4?"
    # README: a card never reviewed counts 0, so the flagged question comes first
    assert flagged.recall_at_round == 0.0 and listed.items[0] is flagged
    assert listed.due_now == 2
    assert len(review_list(db, clock.now(), limit=1).items) == 1


def test_a_new_users_first_night_has_the_packs_questions_to_review(db, clock, content):
    """A new user's night-before "Review before the loop" said 0 questions to review:
    the pack's questions never answered join the list before a loop, as new cards."""
    pack = content.quiz()
    first_round = clock.now() + 2 * DAY
    assert review_list(db, clock.now(), questions=pack).items == ()  # no loop ahead yet
    loop_at(db, first_round)
    clock.set(dt.datetime.combine(first_round.date() - DAY, dt.time(20), tzinfo=TZ))
    listed = review_list(db, clock.now(), questions=pack)
    assert [i.id for i in listed.items] == [question.id for question in pack]
    assert all(i.new and i.kind == "quiz" and i.recall_at_round == 0 for i in listed.items)
    assert listed.due_now == len(pack) and listed.count("quiz") == (len(pack), len(pack))
    assert listed.items[0].title == pack[0].question
    # answered once, a question is a card scheduled by FSRS, no longer new
    quiz.record_mark(db, pack[0], "got", clock.now())
    listed = review_list(db, clock.now(), questions=pack)
    assert [i.id for i in listed.items if i.new] == [question.id for question in pack[1:]]
    # during the loop (no first round ahead) nothing new is introduced
    clock.set(first_round + dt.timedelta(minutes=30))
    assert not any(i.new for i in review_list(db, clock.now(), questions=pack).items)


def test_new_questions_come_in_pack_order_and_at_most_a_days_worth(db, clock):
    from companion.core.review.queue import NEW_BEFORE_LOOP

    loop_at(db, clock.now() + DAY)
    many = [q(n) for n in range(NEW_BEFORE_LOOP + 5, 0, -1)]
    listed = review_list(db, clock.now(), questions=many + many[:3])  # duplicates once
    assert [i.id for i in listed.items] == [x.id for x in many[:NEW_BEFORE_LOOP]]


def test_no_loop_lists_only_what_is_due_now(db, clock):
    quiz.record_mark(db, q(1), "got", clock.now())
    listed = review_list(db, clock.now())
    assert listed.next_round_at is None and listed.items == ()
    clock.advance(minutes=11)
    assert [item.id for item in review_list(db, clock.now()).items] == ["q1"]


def test_a_flub_is_a_lapse_and_studying_it_a_good(db, clock):
    entries.add_flub(db, None, None, "Backpressure", at=clock.now())
    review_list(db, clock.now())
    assert [e.rating for e in review.card_log(db, "topic:backpressure")] == ["again"]
    clock.advance(hours=2)
    from companion.core.study.ranking import mark_studied, study_list

    (item,) = study_list(db, clock.now())
    mark_studied(db, item, clock.now())
    review_list(db, clock.now())
    review_list(db, clock.now())  # twice: nothing added again
    assert [e.rating for e in review.card_log(db, "topic:backpressure")] == ["again", "good"]


def test_an_unknown_rating_is_refused_with_a_message(db, clock):
    with pytest.raises(review.ReviewError, match="Unknown rating 'meh'"):
        review.rate(db, "quiz", "q1", "", "meh", clock.now(), "quiz")


# --- migration ---------------------------------------------------------------------------


def _rows(db, table: str, columns: list[str] | None = None) -> list[tuple]:
    """A table's rows; ``columns``: only those (a later step may add columns)."""
    names = ", ".join(f'"{c}"' for c in columns) if columns else "*"
    return db.execute(f"SELECT {names} FROM {table} ORDER BY rowid").fetchall()


def _columns(conn, table: str) -> list[str]:
    return [r[1] for r in conn.execute(f"PRAGMA table_info({table})").fetchall()]


OLD_TABLES = (
    "quiz_cards",
    "quiz_reviews",
    "flubs",
    "weak_topics",
    "study_marks",
    "loops",
    "rounds",
)


def test_a_database_made_by_the_previous_version_migrates_with_nothing_lost(tmp_path):
    """tests/data/pre-fsrs-journal.sqlite3 was written by the version before this one
    (tests/data/make_pre_fsrs_journal.py, run on it)."""
    import sqlite3

    path = tmp_path / "journal.sqlite3"
    shutil.copy(FIXTURE, path)
    with sqlite3.connect(path) as old:
        columns = {t: _columns(old, t) for t in OLD_TABLES}
        before = {
            t: old.execute(f"SELECT * FROM {t} ORDER BY rowid").fetchall() for t in OLD_TABLES
        }
        assert "review_cards" not in {
            r[0] for r in old.execute("SELECT name FROM sqlite_master").fetchall()
        }
    store = open_store(path)
    db = store.db
    # nothing changed or lost (other steps may add columns: the old ones are compared)
    assert {t: _rows(db, t, columns[t]) for t in OLD_TABLES} == before
    cards = review.load_cards(db)
    # every Leitner card is an FSRS card, every flubbed, weak or studied topic too
    assert {k for k in cards if k.startswith("quiz:")} == {
        f"quiz:{r[0]}" for r in before["quiz_cards"]
    }
    assert {"topic:consistent hashing", "topic:raft leader election", "topic:backpressure"} <= set(
        cards
    )
    # the kept history is replayed: fix-q1 was got three times, fix-q3 shaky then got
    assert [e.rating for e in review.card_log(db, "quiz:fix-q1")] == ["good"] * 3
    assert [e.rating for e in review.card_log(db, "quiz:fix-q3")] == ["hard", "good"]
    assert cards["quiz:fix-q1"].state == 2 and cards["quiz:fix-q1"].stability > 5
    # flagged with no history: a new card; studied from the study list: a good
    assert cards["quiz:fix-q4"].reviews == 0 and cards["quiz:fix-q4"].last_review is None
    assert [e.rating for e in review.card_log(db, "quiz:fix-q2")] == ["again", "good"]
    assert [e.rating for e in review.card_log(db, "topic:raft leader election")] == [
        "again",
        "good",
    ]
    # every time stored in UTC
    for due, last, created in db.execute(
        "SELECT due, last_review, created_at FROM review_cards"
    ).fetchall():
        for text in (due, last, created):
            assert text is None or text.endswith("+00:00")
    assert all(at.endswith("+00:00") for (at,) in db.execute("SELECT reviewed_at FROM review_log"))
    store.db.close()
    # opening again migrates nothing more and changes nothing
    again = open_store(path)
    assert review.load_cards(again.db) == cards
    again.db.close()


# --- the journal export ------------------------------------------------------------------


def _filled(db, clock):
    mature(db, q(1), clock, times=2)
    quiz.record_mark(db, q(2), "easy", clock.now())
    quiz.set_flag(db, q(3), True, clock.now())
    entries.add_flub(db, None, None, "Consistent hashing", at=clock.now())
    review_list(db, clock.now())


def test_the_export_carries_cards_and_log_and_round_trips(db, clock, tmp_path):
    _filled(db, clock)
    out = tmp_path / "journal.json"
    journal_io.export_journal(db, out, clock.now())
    doc = journal_io.journal_dict(db, clock.now())
    assert doc["review"]["log"] and len(doc["review"]["cards"]) == 4
    fresh = open_store(tmp_path / "fresh.sqlite3").db
    report = journal_io.import_journal(fresh, out)
    assert report.reviews_added == len(doc["review"]["log"])
    assert journal_io.journal_dict(fresh, clock.now())["review"] == doc["review"]
    # the scheduling is rebuilt from the log: same cards
    assert review.load_cards(fresh) == review.load_cards(db)
    # importing again adds nothing; nor does the next sync of flubs
    assert journal_io.import_journal(fresh, out).reviews_added == 0
    review_list(fresh, clock.now())
    assert journal_io.journal_dict(fresh, clock.now())["review"] == doc["review"]


def test_importing_ones_own_export_adds_no_review(db, clock, tmp_path):
    _filled(db, clock)
    out = tmp_path / "journal.json"
    journal_io.export_journal(db, out, clock.now())
    before = _rows(db, "review_log")
    assert journal_io.import_journal(db, out).reviews_added == 0
    assert _rows(db, "review_log") == before


@pytest.mark.parametrize(
    ("review_part", "message"),
    [
        ([], "review: must be an object"),
        ({"log": [{"kind": "deck", "id": "x"}]}, "review.log[0].kind: 'deck' is not one of"),
        (
            {"log": [{"kind": "quiz", "id": "q1", "rating": "good", "reviewed_at": "soon"}]},
            "review.log[0].reviewed_at: 'soon' is not an ISO 8601 time",
        ),
        (
            {"cards": [{"kind": "quiz", "id": "", "created_at": "2026-01-01T00:00:00+00:00"}]},
            r"review.cards\[0\].id: is empty",
        ),
    ],
)
def test_a_bad_review_part_changes_nothing_and_says_where(db, review_part, message):
    doc = {"format": "interview-companion-journal", "version": 1, "review": review_part}
    with pytest.raises(journal_io.JournalImportError, match=message.replace("[0]", r"\[0\]")):
        journal_io.import_journal_data(db, doc)
    assert _rows(db, "review_log") == []


def test_the_morning_list_ranks_at_the_same_round(db, clock):
    mature(db, q(1), clock, times=2)
    mature(db, q(2), clock, times=4)
    first_round = clock.now() + 2 * DAY
    loop_at(db, first_round)
    clock.set(dt.datetime.combine(first_round.date(), dt.time(7), tzinfo=TZ))
    listed = review_list(db, clock.now())
    assert listed.next_round_at == first_round
    assert [item.id for item in listed.items] == ["q1", "q2"]  # weaker first
    # reviewed the evening before, a card comes back in the morning, not after the loop
    evening = dt.datetime.combine(first_round.date() - DAY, dt.time(20), tzinfo=TZ)
    card = review.rate(db, "quiz", "q2", "Question 2?", "good", evening, "quiz")
    assert effective_due(card, loop_starts(db), evening) == dt.datetime.combine(
        first_round.date(), dt.time(5), tzinfo=TZ
    )


def test_the_pages_get_an_empty_list_when_the_tables_are_missing(db, clock):
    from companion.core.review.queue import review_or_empty

    db.execute("DROP TABLE review_log")
    listed = review_or_empty(db, clock.now())
    assert listed.items == () and listed.next_round_at is None
