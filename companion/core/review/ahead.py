"""Review ahead: a pass over the existing cards sized to the minutes left before a round.

The order gains the most recall at the next round per minute spent: for each card, the
recall py-fsrs predicts at the round after a "good" review now, less the recall it
predicts there without one, divided by the card's expected minutes. The minutes come
from the user's own answer times (the gaps between reviews in one sitting), a default
until there are a few. The pass stops at the time box; it only lists cards, and a review
made from it goes through :func:`companion.core.review.cards.rate`, whose due the loop's
cap (:mod:`companion.core.review.deadline`) keeps before the round.
"""

from __future__ import annotations

import datetime as dt
import statistics
from dataclasses import dataclass

from companion.core.review.cards import (
    RATINGS,
    ReviewCard,
    card_log,
    load_cards,
    parse_utc,
    replay,
    scheduler,
    utc,
)
from companion.core.review.deadline import EVENING, cap, effective_due, loop_starts, next_start
from companion.core.review.queue import ReviewItem, ReviewList, _quiz_facts
from companion.core.review.topics import sync_topics

DEFAULT_MINUTES = {"quiz": 1.0, "topic": 3.0}  # until the user has answered a few
MIN_SAMPLES = 3
SITTING_GAP = dt.timedelta(minutes=10)  # a longer gap is a break, not an answer
OFFER_MINUTES = 10  # the pages' "Review for N minutes", capped by the minutes left


@dataclass(frozen=True)
class AheadItem:
    kind: str
    id: str
    title: str
    recall_at_round: float  # py-fsrs retrievability at the round, reviewed or not now
    recall_if_reviewed: float
    minutes: float
    due_if_reviewed: dt.datetime  # UTC: a "good" now, the loop's cap applied
    due: dt.datetime  # UTC: as it stands now, the loop's cap applied

    @property
    def gain_per_minute(self) -> float:
        return (self.recall_if_reviewed - self.recall_at_round) / self.minutes


@dataclass(frozen=True)
class AheadPass:
    at: dt.datetime
    round_at: dt.datetime | None
    minutes: float
    items: tuple[AheadItem, ...]  # lowest recall at the round first

    @property
    def estimated_minutes(self) -> float:
        return round(sum(i.minutes for i in self.items), 2)

    def as_review_list(self) -> ReviewList:
        """The pass as the pages' review list shows it (lowest recall first)."""
        items = tuple(
            ReviewItem(i.kind, i.id, i.title, i.recall_at_round, i.due) for i in self.items
        )
        return ReviewList(self.at, self.round_at, items, sum(1 for i in items if i.due <= self.at))


def answer_minutes(db) -> dict[str, float]:
    """Minutes per card of each kind: the median gap between consecutive reviews of one
    sitting, counted for the kind of the later one; the default below MIN_SAMPLES."""
    rows = db.execute(
        "SELECT c.kind, l.reviewed_at FROM review_log l JOIN review_cards c "
        "ON c.key = l.card_key ORDER BY l.reviewed_at, l.id"
    ).fetchall()
    gaps: dict[str, list[float]] = {kind: [] for kind in DEFAULT_MINUTES}
    previous = None
    for kind, stamp_text in rows:
        moment = parse_utc(stamp_text)
        if (
            moment is not None
            and previous is not None
            and dt.timedelta(0) < moment - previous <= SITTING_GAP
        ):
            gaps.setdefault(kind, []).append((moment - previous).total_seconds() / 60)
        previous = moment
    return {
        kind: round(statistics.median(gaps[kind]), 2)
        if len(gaps.get(kind, ())) >= MIN_SAMPLES
        else DEFAULT_MINUTES[kind]
        for kind in DEFAULT_MINUTES
    }


def _fsrs_card(db, card: ReviewCard):
    return replay(card.key, card_log(db, card.key), parse_utc(card.created_at) or card.due)


def _item(db, card: ReviewCard, at, round_at, starts, minutes, title) -> AheadItem:
    from fsrs import Rating

    fsrs_card = _fsrs_card(db, card)
    moment = utc(round_at or at)
    before = scheduler().get_card_retrievability(fsrs_card, moment)
    after_card, _ = scheduler().review_card(fsrs_card, Rating(RATINGS.index("good") + 1), at)
    after = scheduler().get_card_retrievability(after_card, moment)
    due = utc(after_card.due)
    start = next_start(starts, at)
    if start is not None and due > utc(start):
        due = min(due, utc(cap(start, at)))
    now_due = effective_due(card, starts, at)
    return AheadItem(
        card.kind, card.ref, title, round(before, 4), round(after, 4), minutes, due, now_due
    )


def review_ahead(db, at: dt.datetime, minutes: float) -> AheadPass:
    """The cards to review in ``minutes`` from ``at``, chosen by recall gained at the next
    loop's first round per minute (at ``at`` itself when no loop is ahead)."""
    at = utc(at)
    sync_topics(db)  # new flubs and marks are cards already (as on the review list)
    starts = loop_starts(db)
    round_at = next_start(starts, at)
    per_kind = answer_minutes(db)
    titles, _flagged = _quiz_facts(db)
    candidates = []
    for card in load_cards(db).values():
        title = card.title or (titles.get(card.ref, "") if card.kind == "quiz" else "")
        spend = per_kind.get(card.kind, DEFAULT_MINUTES["quiz"])
        candidates.append(_item(db, card, at, round_at, starts, spend, title or card.ref))
    candidates.sort(key=lambda i: (-i.gain_per_minute, i.recall_at_round, i.kind, i.id))
    chosen, spent = [], 0.0
    for item in candidates:
        if item.recall_if_reviewed <= item.recall_at_round:
            continue  # nothing to gain by the round
        if spent + item.minutes <= minutes + 1e-9:
            chosen.append(item)
            spent += item.minutes
    chosen.sort(key=lambda i: (i.recall_at_round, i.kind, i.id))
    return AheadPass(at, round_at, minutes, tuple(chosen))


def offer_minutes(db, now: dt.datetime, evening: dt.time = EVENING) -> int | None:
    """The N of "Review for N minutes" from the evening before the next loop's first round
    until it begins (None at other times, and without cards): OFFER_MINUTES, or the whole
    minutes left."""
    start = next_start(loop_starts(db), now)
    if start is None or db.execute("SELECT 1 FROM review_cards LIMIT 1").fetchone() is None:
        return None  # no loop ahead, or no card to review
    opens = dt.datetime.combine(start.date() - dt.timedelta(days=1), evening, tzinfo=start.tzinfo)
    if utc(now) < utc(opens):
        return None
    left = int((utc(start) - utc(now)).total_seconds() // 60)
    return min(OFFER_MINUTES, left) if left >= 1 else None
