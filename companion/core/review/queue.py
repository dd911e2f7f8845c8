"""What to review now: the cards due, and before a loop everything due by its first
round, ranked by predicted recall at that round's start (lowest first).

Flagged quiz questions are always on the list (flagged to be spoken aloud again). Before
a loop, the pack's questions never answered join it as new cards (recall 0, due now), so
a new user's first night has the self-check to review, not "nothing to review".
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass

from companion.core.review.cards import ReviewCard, load_cards, recall, utc
from companion.core.review.deadline import EVENING, MORNING, effective_due, loop_starts, next_start
from companion.core.review.topics import sync_topics

#: new questions a review before a loop introduces at most (Anki's new cards a day)
NEW_BEFORE_LOOP = 20


@dataclass(frozen=True)
class ReviewItem:
    kind: str  # quiz | topic
    id: str  # the question id or the topic key
    title: str
    recall_at_round: float  # 0..1, at the next round's start (at ``at`` without one)
    due: dt.datetime  # UTC, the loop's cap applied
    flagged: bool = False
    new: bool = False  # a pack question never answered, introduced before the loop

    @property
    def key(self) -> str:
        return f"{self.kind}:{self.id}"


@dataclass(frozen=True)
class ReviewList:
    at: dt.datetime
    next_round_at: dt.datetime | None
    items: tuple[ReviewItem, ...]
    due_now: int  # of the items, those due at ``at``

    def count(self, kind: str) -> tuple[int, int]:
        """(due now, on the list) for one kind."""
        mine = [i for i in self.items if i.kind == kind]
        return sum(1 for i in mine if i.due <= utc(self.at)), len(mine)


def _quiz_facts(db) -> tuple[dict[str, str], set[str]]:
    rows = db.execute("SELECT question_id, question, flagged FROM quiz_cards").fetchall()
    return {qid: text for qid, text, _f in rows}, {qid for qid, _t, f in rows if f}


def review_list(
    db,
    at: dt.datetime,
    *,
    limit: int | None = None,
    evening: dt.time = EVENING,
    morning: dt.time = MORNING,
    sync: bool = True,
    questions: Sequence = (),
) -> ReviewList:
    """The review list at ``at``. ``sync`` first turns new flubs and marks into cards;
    ``questions`` (the pack's QuizQuestions) adds those without a card when a loop is
    ahead, at most NEW_BEFORE_LOOP of them in the pack's order."""
    if sync:
        sync_topics(db)
    starts = loop_starts(db)
    round_at = next_start(starts, at)
    horizon = utc(round_at) if round_at is not None else utc(at)
    moment = round_at or at
    titles, flagged = _quiz_facts(db)
    items = []
    cards = load_cards(db)
    for card in cards.values():
        due = effective_due(card, starts, at, evening, morning)
        is_flagged = card.kind == "quiz" and card.ref in flagged
        if due > horizon and not is_flagged:
            continue
        items.append(_item(card, due, recall(card, moment), titles, is_flagged))
    new = _new_items(questions, set(cards), at) if round_at is not None else []
    order = {item.key: n for n, item in enumerate(new)}  # the pack's order among equals
    items += new
    items.sort(key=lambda i: (i.recall_at_round, i.due, order.get(i.key, -1), i.key))
    due_now = sum(1 for i in items if i.due <= utc(at))
    return ReviewList(at, round_at, tuple(items[:limit] if limit else items), due_now)


def _item(card: ReviewCard, due, value: float, titles: dict[str, str], flagged: bool):
    title = card.title or (titles.get(card.ref, "") if card.kind == "quiz" else "") or card.ref
    return ReviewItem(card.kind, card.ref, title, round(value, 4), due, flagged)


def _new_items(questions: Sequence, cards: set[str], at: dt.datetime) -> list[ReviewItem]:
    """The pack's questions that have no card yet, as new cards due at ``at``."""
    new: dict[str, ReviewItem] = {}
    for question in questions:
        key = f"quiz:{question.id}"
        if key not in cards and key not in new and len(new) < NEW_BEFORE_LOOP:
            new[key] = ReviewItem("quiz", question.id, question.question, 0.0, utc(at), new=True)
    return list(new.values())


def due_map(db, at: dt.datetime, kind: str = "quiz") -> dict[str, dt.datetime]:
    """ref -> effective due of every card of ``kind`` (the quiz's review order reads it)."""
    starts = loop_starts(db)
    return {c.ref: effective_due(c, starts, at) for c in load_cards(db, kind).values()}


def review_or_empty(db, at: dt.datetime, questions: Sequence = ()) -> ReviewList:
    """:func:`review_list` for the pages: a database problem (busy, an older copy without
    the tables) shows an empty list instead of taking the page down."""
    import sqlite3

    try:
        return review_list(db, at, questions=questions)
    except sqlite3.Error:
        return ReviewList(at, None, (), 0)
