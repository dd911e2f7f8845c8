"""The self-check quiz: FSRS due times and Leitner boxes, review order under a controlled
clock, sessions."""

from __future__ import annotations

import datetime as dt

import pytest

from companion.core.content.loader import QuizQuestion, load_content
from companion.core.review.queue import due_map
from companion.core.selfcheck import quiz
from companion.core.selfcheck.quiz import QuizError, QuizSession


def q(n: int, set_name: str = "basics") -> QuizQuestion:
    return QuizQuestion(f"q{n}", f"Question {n}?", f"Answer {n}.", ("traps",), set_name)


QUESTIONS = [q(1), q(2), q(3), q(4), q(5)]


def order(db, clock, questions=QUESTIONS, **kw) -> list[str]:
    items = quiz.review_order(questions, quiz.load_cards(db), clock.now(), **kw)
    return [item.question.id for item in items]


@pytest.mark.parametrize(
    ("box", "mark", "expected"),
    [
        (1, "got", 2),
        (4, "got", 5),
        (5, "got", 5),
        (3, "shaky", 2),
        (1, "shaky", 1),
        (5, "missed", 1),
        (2, "missed", 1),
    ],
)
def test_leitner_moves(box, mark, expected):
    assert quiz.next_box(box, mark) == expected


def test_unknown_mark_is_refused_with_a_message():
    with pytest.raises(QuizError, match="Unknown mark 'maybe'"):
        quiz.next_box(1, "maybe")


def test_new_questions_come_in_content_order(db, clock):
    assert order(db, clock) == ["q1", "q2", "q3", "q4", "q5"]
    assert {i.reason for i in quiz.review_order(QUESTIONS, {}, clock.now())} == {"new"}


def test_missed_then_shaky_then_flagged_come_first_next_time(db, clock):
    quiz.record_mark(db, q(1), "got", clock.now())
    quiz.record_mark(db, q(2), "shaky", clock.now())
    quiz.record_mark(db, q(4), "missed", clock.now())
    quiz.set_flag(db, q(5), True, clock.now())
    clock.advance(minutes=5)
    # q1 was got: box 2, due tomorrow, so it is "later" and goes last; q3 is new.
    assert order(db, clock) == ["q4", "q2", "q5", "q3", "q1"]
    reasons = [i.reason for i in quiz.review_order(QUESTIONS, quiz.load_cards(db), clock.now())]
    assert reasons == ["missed", "shaky", "flagged", "new", "later"]


def cards(db, clock):
    return quiz.with_review_due(quiz.load_cards(db), due_map(db, clock.now()))


def test_a_got_card_becomes_due_after_its_fsrs_interval(db, clock):
    quiz.record_mark(db, q(3), "got", clock.now())  # FSRS learning step: ten minutes
    clock.advance(minutes=5)
    assert order(db, clock)[-1] == "q3"
    clock.advance(minutes=6)
    quiz.record_mark(db, q(3), "got", clock.now())  # graduates: days
    clock.advance(hours=23)
    assert order(db, clock)[-1] == "q3"
    clock.advance(days=3)
    items = quiz.review_order(QUESTIONS, cards(db, clock), clock.now())
    assert items[0].question.id == "q3" and items[0].reason == "due"


def test_easy_is_a_fourth_mark_rated_easy(db, clock):
    card = quiz.record_mark(db, q(1), "easy", clock.now())
    assert card.state == "got" and card.box == 2  # the Leitner columns count it as got
    assert card.due - clock.now() >= dt.timedelta(days=7)  # FSRS's Easy: a long first step
    assert db.execute("SELECT rating FROM review_log").fetchall() == [("easy",)]


def test_due_cards_lowest_box_first(db, clock):
    # q1 climbs to box 3, q2 stays in box 2; both overdue later.
    quiz.record_mark(db, q(1), "got", clock.now())
    clock.advance(days=2)
    quiz.record_mark(db, q(1), "got", clock.now())
    quiz.record_mark(db, q(2), "got", clock.now())
    assert quiz.get_card(db, "q1").box == 3
    clock.advance(days=30)
    assert order(db, clock)[:2] == ["q2", "q1"]


def test_later_cards_soonest_due_first(db, clock):
    quiz.record_mark(db, q(1), "got", clock.now())
    clock.advance(minutes=11)
    quiz.record_mark(db, q(1), "got", clock.now())  # graduated: due in days
    quiz.record_mark(db, q(2), "got", clock.now())  # learning: due in ten minutes
    assert order(db, clock)[-2:] == ["q2", "q1"]


def test_missed_resets_to_box_one_and_is_due_at_once(db, clock):
    for _ in range(3):
        quiz.record_mark(db, q(1), "got", clock.now())
        clock.advance(days=3)
    assert quiz.get_card(db, "q1").box == 4
    card = quiz.record_mark(db, q(1), "missed", clock.now())
    assert card.box == 1 and card.state == "missed"
    assert card.due == clock.now() + dt.timedelta(minutes=10)  # FSRS's relearning step
    assert card.reviews == 4
    history = db.execute("SELECT mark, box_before, box_after FROM quiz_reviews").fetchall()
    assert history[-1] == ("missed", 4, 1)


def test_flagged_only_keeps_just_the_flagged(db, clock):
    quiz.set_flag(db, q(3), True, clock.now())
    clock.advance(minutes=1)
    quiz.set_flag(db, q(1), True, clock.now())
    quiz.set_flag(db, q(2), True, clock.now())
    quiz.set_flag(db, q(2), False, clock.now())
    assert quiz.flagged_ids(db) == ["q3", "q1"]
    assert sorted(order(db, clock, flagged_only=True)) == ["q1", "q3"]


def test_weak_topics_lists_missed_then_shaky_with_their_sections(db, clock):
    quiz.record_mark(db, q(1), "shaky", clock.now())
    clock.advance(minutes=1)
    quiz.record_mark(db, q(2), "missed", clock.now())
    quiz.record_mark(db, q(3), "got", clock.now())
    weak = quiz.weak_topics(db)
    assert [(w.question_id, w.state) for w in weak] == [("q2", "missed"), ("q1", "shaky")]
    assert weak[0].question == "Question 2?"
    assert weak[0].see == ("traps",)
    assert weak[0].last_seen.startswith("2026-12-01T09:01")
    # got it next time: no longer weak
    quiz.record_mark(db, q(2), "got", clock.now())
    assert [w.question_id for w in quiz.weak_topics(db)] == ["q1"]


def test_session_hides_the_answer_until_revealed(db, clock):
    session = QuizSession(db, QUESTIONS, clock)
    assert session.current.question.id == "q1"
    assert not session.revealed
    with pytest.raises(QuizError, match="Answer from memory first"):
        session.mark("got")
    assert session.reveal() == "Answer 1."
    session.mark("got")
    assert session.position == 2 and not session.revealed


def test_session_runs_to_the_end_and_counts(db, clock):
    session = QuizSession(db, QUESTIONS[:3], clock)
    for mark in ("got", "shaky", "missed"):
        session.reveal()
        session.mark(mark)
        clock.advance(seconds=30)
    assert session.finished and session.current is None
    assert session.tally() == {"got": 1, "shaky": 1, "missed": 1, "easy": 0}
    with pytest.raises(QuizError, match="finished"):
        session.reveal()
    # The next session puts the missed and shaky ones first.
    again = QuizSession(db, QUESTIONS[:3], clock)
    assert [i.question.id for i in again.items] == ["q3", "q2", "q1"]


def test_session_flag_toggles_and_persists(db, clock):
    session = QuizSession(db, QUESTIONS, clock)
    assert session.toggle_flag() is True
    assert session.is_flagged()
    assert quiz.flagged_ids(db) == ["q1"]
    assert session.toggle_flag() is False
    assert quiz.flagged_ids(db) == []


def test_session_by_set_and_duplicate_ids(db, clock):
    extra = [q(1, "other"), q(7, "other"), q(8, "other")]
    pool = QUESTIONS + extra
    assert quiz.question_sets(pool) == ["basics", "other"]
    everything = QuizSession(db, pool, clock)
    assert everything.total == 7  # q1 from the second set is a duplicate id
    only_other = QuizSession(db, pool, clock, set_name="other")
    assert [i.question.id for i in only_other.items] == ["q1", "q7", "q8"]


def test_a_pack_set_joins_the_shipped_quiz(tmp_path, db, clock):
    from companion.core.paths import shipped_content_dir

    pack = tmp_path / "pack"
    pack.mkdir()
    (pack / "quiz-ch9.md").write_text(
        "---\nid: quiz-ch9\nkind: quiz\nset: chapter 9\ntitle: Chapter 9 answer key\n---\n"
        "- What is Little's Law?\n  id: ch9-little\n  answer: L = lambda x W.\n",
        encoding="utf-8",
    )
    content, errors = load_content([shipped_content_dir(), pack])
    assert not errors
    questions = content.quiz()
    assert "chapter 9" in quiz.question_sets(questions)
    session = QuizSession(db, questions, clock)
    ids = [i.question.id for i in session.items]
    assert "ch9-little" in ids and "day-of-questions" in ids


def test_shipped_quiz_has_questions_with_answers(content):
    questions = content.quiz()
    assert len(questions) >= 6
    assert all(question.answer for question in questions)
    assert len({question.id for question in questions}) == len(questions)


def test_a_session_on_the_review_list_keeps_its_order(db, clock):
    session = QuizSession(db, QUESTIONS, clock, only=["q4", "q2", "gone"])
    assert [i.question.id for i in session.items] == ["q4", "q2"]
