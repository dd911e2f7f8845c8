"""Review ahead: the pass ranks by recall gained at the round per minute, by py-fsrs's own
retrievability, fits the time box, times answers from the user's own log, and never
plans a due past the loop's first round."""

from __future__ import annotations

import datetime as dt

from fsrs import Card, Rating, Scheduler

from companion.core.content.loader import QuizQuestion
from companion.core.day.loops import add_round, create_loop
from companion.core.review import cards as review
from companion.core.review.ahead import DEFAULT_MINUTES, answer_minutes, review_ahead
from companion.core.selfcheck import quiz

TZ = dt.timezone(dt.timedelta(hours=1))
DAY = dt.timedelta(days=1)
START = dt.datetime(2026, 11, 1, 9, 0, tzinfo=TZ)
ROUND = dt.datetime(2026, 12, 15, 10, 0, tzinfo=TZ)
EVENING = dt.datetime(2026, 12, 14, 20, 0, tzinfo=TZ)  # the evening before (from 17:00)


def q(n: int) -> QuizQuestion:
    return QuizQuestion(f"q{n}", f"Question {n}?", f"Answer {n}.", (), "basics")


def fill(db, marks: dict[int, list[tuple[int, str]]]) -> None:
    """Question n marked at START + days with each mark; one loop at ROUND."""
    for n, plan in marks.items():
        for days, mark in plan:
            quiz.record_mark(db, q(n), mark, START + dt.timedelta(days=days, minutes=n))
    loop = create_loop(db, "Acme", "SRE", starts_on="2026-12-15")
    add_round(db, loop, "coding", scheduled_at=ROUND)


def own_retrievability(db, key: str, at: dt.datetime) -> tuple[float, float]:
    """py-fsrs on its own: the card from its log, its recall at ROUND before and after a
    "good" at ``at``."""
    sched = Scheduler(desired_retention=0.9, enable_fuzzing=False)
    card = Card(due=START.astimezone(dt.UTC))
    rows = db.execute(
        "SELECT rating, reviewed_at FROM review_log WHERE card_key = ? ORDER BY reviewed_at",
        [key],
    ).fetchall()
    created = db.execute("SELECT created_at FROM review_cards WHERE key = ?", [key]).fetchone()
    card = Card(due=dt.datetime.fromisoformat(created[0]))
    for rating, at_text in rows:
        card, _ = sched.review_card(
            card, Rating(review.RATINGS.index(rating) + 1), dt.datetime.fromisoformat(at_text)
        )
    later, _ = sched.review_card(card, Rating.Good, at.astimezone(dt.UTC))
    moment = ROUND.astimezone(dt.UTC)
    return sched.get_card_retrievability(card, moment), sched.get_card_retrievability(later, moment)


MARKS = {
    1: [(0, "got"), (3, "got"), (12, "got")],  # well learnt
    2: [(0, "missed")],  # weak
    3: [(0, "got"), (2, "shaky")],
    4: [(0, "got"), (1, "got")],
    5: [(0, "missed"), (1, "got")],
}


def test_recall_is_py_fsrs_own_and_gain_per_minute_orders_the_choice(db):
    fill(db, MARKS)
    ahead = review_ahead(db, EVENING, 60)
    assert ahead.round_at is not None and ahead.round_at == ROUND
    assert len(ahead.items) == len(MARKS)  # an hour fits every card
    for item in ahead.items:
        before, after = own_retrievability(db, f"quiz:{item.id}", EVENING)
        assert item.recall_at_round == round(before, 4)
        assert item.recall_if_reviewed == round(after, 4)
    recalls = [i.recall_at_round for i in ahead.items]
    assert recalls == sorted(recalls)
    # a time box of three cards keeps the three that gain the most by the round
    small = review_ahead(db, EVENING, 3 * DEFAULT_MINUTES["quiz"])
    gains = sorted(ahead.items, key=lambda i: -(i.recall_if_reviewed - i.recall_at_round))
    assert {i.id for i in small.items} == {i.id for i in gains[:3]}
    assert small.estimated_minutes <= small.minutes
    assert {i.id for i in small.items} != {
        i.id for i in sorted(ahead.items, key=lambda i: i.id)[:3]
    }


def test_the_time_box_is_never_exceeded_and_existing_cards_only(db):
    fill(db, MARKS)
    for minutes in (0.5, 1, 2.5, 4, 100):
        ahead = review_ahead(db, EVENING, minutes)
        assert ahead.estimated_minutes <= minutes
        assert len(ahead.items) == min(len(MARKS), int(minutes // DEFAULT_MINUTES["quiz"]))
    cards = {row[0] for row in db.execute("SELECT ref FROM review_cards")}
    assert {i.id for i in review_ahead(db, EVENING, 100).items} <= cards


def test_no_planned_due_past_the_loop(db):
    fill(db, MARKS)
    for at in (EVENING - 5 * DAY, EVENING, ROUND - dt.timedelta(minutes=10)):
        for item in review_ahead(db, at, 100).items:
            assert item.due_if_reviewed <= ROUND.astimezone(dt.UTC)


def test_answer_minutes_come_from_the_users_own_sittings(db):
    assert answer_minutes(db) == DEFAULT_MINUTES  # nothing answered yet
    for n in range(5):  # one sitting, a question every 2 minutes
        quiz.record_mark(db, q(n), "got", START + dt.timedelta(minutes=2 * n))
    quiz.record_mark(db, q(9), "got", START + DAY)  # the next day: a break, not an answer
    assert answer_minutes(db)["quiz"] == 2.0
    fill(db, {})
    ahead = review_ahead(db, EVENING, 5)
    assert all(i.minutes == 2.0 for i in ahead.items) and len(ahead.items) == 2


def test_the_pages_offer_it_from_the_evening_before_until_the_round(db):
    from companion.core.review.ahead import offer_minutes

    fill(db, {})
    assert offer_minutes(db, EVENING) is None  # no card to review
    fill(db, MARKS)
    assert offer_minutes(db, EVENING - dt.timedelta(hours=4)) is None
    assert offer_minutes(db, EVENING) == 10
    assert offer_minutes(db, ROUND - dt.timedelta(minutes=7)) == 7
    assert offer_minutes(db, ROUND + dt.timedelta(minutes=1)) is None
    listed = review_ahead(db, EVENING, 10).as_review_list()
    assert [i.recall_at_round for i in listed.items] == sorted(
        i.recall_at_round for i in listed.items
    )
    assert listed.next_round_at == ROUND
