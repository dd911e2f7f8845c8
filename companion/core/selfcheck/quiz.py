"""The self-check quiz: review order and one-question-at-a-time sessions.

Every content section of kind ``quiz`` contributes a question set; packs add sets that
join the same flow. FSRS schedules each question (:mod:`companion.core.review`): the
marks Missed, Shaky, Got and Easy are its ratings Again, Hard, Good and Easy, and no
interval runs past the next loop's first round. The Leitner box is still kept beside it
(older versions read it). Missed, shaky and flagged cards come first in the next
session, then the cards that are due, then new ones, then the rest. All times come from
the caller (an injectable clock), so the order is testable.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from companion.core.content.loader import QuizQuestion
from companion.core.review.cards import ensure_card, rate
from companion.core.review.deadline import effective_due, loop_starts
from companion.core.review.queue import due_map
from companion.core.timeutil import parse_stored, to_stored

MARKS = ("got", "shaky", "missed", "easy")
#: each mark as an FSRS rating
RATING_OF = {"missed": "again", "shaky": "hard", "got": "good", "easy": "easy"}
#: the Leitner columns predate Easy: there it counts as got
_LEITNER_MARK = {"easy": "got"}
MIN_BOX, MAX_BOX = 1, 5
#: why a question sits where it does in the review order, in priority order
REASONS = ("missed", "shaky", "flagged", "due", "new", "later")


class QuizError(ValueError):
    """A quiz action that does not fit the current state; the message says why."""


@dataclass(frozen=True)
class Card:
    question_id: str
    box: int = MIN_BOX
    state: str = "new"  # new, got, shaky, missed
    flagged: bool = False
    due_at: str | None = None
    last_seen: str | None = None
    reviews: int = 0

    @property
    def due(self) -> dt.datetime | None:
        return parse_stored(self.due_at)


@dataclass(frozen=True)
class ReviewItem:
    question: QuizQuestion
    card: Card | None
    reason: str  # one of REASONS


@dataclass(frozen=True)
class WeakQuizTopic:
    question_id: str
    question: str
    state: str  # "missed" | "shaky"
    see: tuple[str, ...]
    last_seen: str


def next_box(box: int, mark: str) -> int:
    """The Leitner move: got (or easy) -> up one, shaky -> down one (never below 1),
    missed -> box 1."""
    if mark not in MARKS:
        raise QuizError(f"Unknown mark {mark!r}; use one of {', '.join(MARKS)}.")
    box = min(max(int(box), MIN_BOX), MAX_BOX)
    if mark in ("got", "easy"):
        return min(box + 1, MAX_BOX)
    if mark == "shaky":
        return max(box - 1, MIN_BOX)
    return MIN_BOX


def quiz_intro(content, question: QuizQuestion) -> str:
    """The intro of the quiz section ``question`` comes from (its set), on one line; the
    pack's own words on how to answer ("Answer from memory first...")."""
    for section in content.by_kind("quiz"):
        if section.meta.get("set", section.id) == question.set and section.intro.strip():
            return " ".join(section.intro.split())
    return "Answer from memory first."


def unique_questions(questions: Iterable[QuizQuestion]) -> list[QuizQuestion]:
    """Questions with duplicate ids dropped (the first one wins), content order kept."""
    seen: set[str] = set()
    out = []
    for question in questions:
        if question.id not in seen:
            seen.add(question.id)
            out.append(question)
    return out


def question_sets(questions: Iterable[QuizQuestion]) -> list[str]:
    """Set names in content order, each once."""
    return list(dict.fromkeys(q.set for q in questions))


_CARD_COLS = "question_id, box, state, flagged, due_at, last_seen, reviews"


def _card(row) -> Card:
    qid, box, state, flagged, due_at, last_seen, reviews = row
    return Card(qid, int(box), state, bool(flagged), due_at, last_seen, int(reviews))


def load_cards(db) -> dict[str, Card]:
    rows = db.execute(f"SELECT {_CARD_COLS} FROM quiz_cards").fetchall()
    return {row[0]: _card(row) for row in rows}


def first_review(db, review_items: int) -> bool:
    """No question answered or flagged yet and nothing else to review (``review_items``,
    the review list's length): the review before the loop is then the whole quiz, since
    a new user's review list is empty and "nothing to review" is no answer key."""
    if review_items:
        return False
    sql = "SELECT 1 FROM quiz_cards WHERE reviews > 0 OR flagged LIMIT 1"
    return db.execute(sql).fetchone() is None


def get_card(db, question_id: str) -> Card | None:
    row = db.execute(
        f"SELECT {_CARD_COLS} FROM quiz_cards WHERE question_id = ?", [question_id]
    ).fetchone()
    return _card(row) if row else None


def classify(card: Card | None, now: dt.datetime) -> str:
    """Which group of the review order a question belongs to right now."""
    if card is None or (card.state == "new" and not card.flagged):
        return "new"
    if card.state in ("missed", "shaky"):
        return card.state
    if card.flagged:
        return "flagged"
    if card.state == "new":
        return "new"
    due = card.due
    if due is None or due <= now:
        return "due"
    return "later"


def review_order(
    questions: Sequence[QuizQuestion],
    cards: dict[str, Card],
    now: dt.datetime,
    *,
    flagged_only: bool = False,
) -> list[ReviewItem]:
    """Every question once, in the order to review them at ``now``.

    Missed, then shaky, then flagged, then due (lowest box first, longest overdue first),
    then never-seen ones in content order, then the ones not yet due (soonest first).
    """
    far = dt.datetime.max.replace(tzinfo=dt.UTC)
    ranked = []
    for index, question in enumerate(unique_questions(questions)):
        card = cards.get(question.id)
        if flagged_only and not (card and card.flagged):
            continue
        reason = classify(card, now)
        due = (card.due if card else None) or far
        seen = (parse_stored(card.last_seen) if card else None) or far
        box = card.box if card else MIN_BOX
        if reason == "new":
            key: tuple = (index,)
        elif reason == "later":
            key = (due, index)
        else:
            key = (box, due if reason == "due" else seen, index)
        ranked.append((REASONS.index(reason), key, ReviewItem(question, card, reason)))
    ranked.sort(key=lambda entry: (entry[0], entry[1]))
    return [entry[2] for entry in ranked]


def with_review_due(cards: dict[str, Card], due: dict[str, dt.datetime]) -> dict[str, Card]:
    """``cards`` with each due time taken from its FSRS card (the loop's cap applied)."""
    from dataclasses import replace

    return {
        qid: replace(card, due_at=to_stored(due[qid])) if qid in due else card
        for qid, card in cards.items()
    }


def record_mark(db, question: QuizQuestion, mark: str, at: dt.datetime) -> Card:
    """Store the user's verdict on one question: rate its FSRS card, and keep the
    Leitner box and the state the study list reads."""
    if mark not in MARKS:
        raise QuizError(f"Unknown mark {mark!r}; use one of {', '.join(MARKS)}.")

    with db.atomic():
        review = rate(db, "quiz", question.id, question.question, RATING_OF[mark], at, "quiz")
        due = effective_due(review, loop_starts(db), at)
        mark = _LEITNER_MARK.get(mark, mark)
        before = get_card(db, question.id)
        box_before = before.box if before else MIN_BOX
        box_after = next_box(box_before, mark)
        _upsert_snapshot(db, question)
        db.execute(
            "UPDATE quiz_cards SET box = ?, state = ?, due_at = ?, last_seen = ?, "
            "reviews = reviews + 1 WHERE question_id = ?",
            [box_after, mark, to_stored(due), to_stored(at), question.id],
        )
        db.execute(
            "INSERT INTO quiz_reviews (question_id, mark, box_before, box_after, at) "
            "VALUES (?, ?, ?, ?, ?)",
            [question.id, mark, box_before, box_after, to_stored(at)],
        )
    card = get_card(db, question.id)
    assert card is not None
    return card


def set_flag(db, question: QuizQuestion, flagged: bool, at: dt.datetime) -> None:
    """Flag a question to speak aloud later (or clear the flag)."""

    with db.atomic():
        _upsert_snapshot(db, question)
        if flagged:  # a flagged question is on the review list, reviewed or not
            ensure_card(db, "quiz", question.id, question.question, at)
        db.execute(
            "UPDATE quiz_cards SET flagged = ?, flagged_at = ? WHERE question_id = ?",
            [1 if flagged else 0, to_stored(at) if flagged else None, question.id],
        )


def _upsert_snapshot(db, question: QuizQuestion) -> None:
    db.execute(
        "INSERT INTO quiz_cards (question_id, question, see, set_name) VALUES (?, ?, ?, ?) "
        "ON CONFLICT (question_id) DO UPDATE SET question = excluded.question, "
        "see = excluded.see, set_name = excluded.set_name",
        [question.id, question.question, ",".join(question.see), question.set],
    )


def flagged_ids(db) -> list[str]:
    """Ids of the flagged questions, oldest flag first."""
    rows = db.execute(
        "SELECT question_id FROM quiz_cards WHERE flagged = 1 ORDER BY flagged_at, question_id"
    ).fetchall()
    return [row[0] for row in rows]


def weak_topics(db) -> list[WeakQuizTopic]:
    """Questions last marked missed or shaky (missed first, most recent first): a study source."""
    rows = db.execute(
        "SELECT question_id, question, state, see, last_seen FROM quiz_cards "
        "WHERE state IN ('missed', 'shaky') "
        "ORDER BY CASE state WHEN 'missed' THEN 0 ELSE 1 END, last_seen DESC, question_id"
    ).fetchall()
    return [
        WeakQuizTopic(
            question_id=qid,
            question=text,
            state=state,
            see=tuple(part for part in (see or "").split(",") if part),
            last_seen=last_seen or "",
        )
        for qid, text, state, see, last_seen in rows
    ]


@dataclass
class QuizSession:
    """One pass through the questions: show one, reveal its answer on request, mark it.

    The answer must be revealed before the question can be marked, so the user answers
    from memory first.
    """

    db: object
    questions: Sequence[QuizQuestion]
    clock: Callable[[], dt.datetime]
    flagged_only: bool = False
    set_name: str | None = None
    #: just these question ids, in this order (the review list before the loop)
    only: Sequence[str] | None = None
    items: list[ReviewItem] = field(init=False)
    index: int = field(init=False, default=0)
    revealed: bool = field(init=False, default=False)
    marks: dict[str, str] = field(init=False, default_factory=dict)

    def __post_init__(self) -> None:
        pool = [q for q in self.questions if self.set_name in (None, q.set)]
        now = self.clock()
        cards = with_review_due(load_cards(self.db), due_map(self.db, now))
        self.items = review_order(pool, cards, now, flagged_only=self.flagged_only)
        if self.only is not None:
            rank = {qid: n for n, qid in enumerate(self.only)}
            self.items = sorted(
                (i for i in self.items if i.question.id in rank),
                key=lambda i: rank[i.question.id],
            )

    @property
    def total(self) -> int:
        return len(self.items)

    @property
    def finished(self) -> bool:
        return self.index >= len(self.items)

    @property
    def current(self) -> ReviewItem | None:
        return None if self.finished else self.items[self.index]

    @property
    def position(self) -> int:
        """1-based number of the current question (total + 1 when finished)."""
        return self.index + 1

    def tally(self) -> dict[str, int]:
        counts = dict.fromkeys(MARKS, 0)
        for mark in self.marks.values():
            counts[mark] += 1
        return counts

    def reveal(self) -> str:
        item = self._require_current()
        self.revealed = True
        return item.question.answer

    def mark(self, mark: str) -> Card:
        item = self._require_current()
        if not self.revealed:
            raise QuizError("Answer from memory first, then show the answer before marking it.")
        card = record_mark(self.db, item.question, mark, self.clock())
        self.marks[item.question.id] = mark
        self.index += 1
        self.revealed = False
        return card

    def is_flagged(self) -> bool:
        item = self.current
        if item is None:
            return False
        card = get_card(self.db, item.question.id)
        return bool(card and card.flagged)

    def toggle_flag(self) -> bool:
        """Flip the current question's flag; returns the new state."""
        item = self._require_current()
        flagged = not self.is_flagged()
        set_flag(self.db, item.question, flagged, self.clock())
        return flagged

    def _require_current(self) -> ReviewItem:
        item = self.current
        if item is None:
            raise QuizError("The session is finished; start again to review more.")
        return item
