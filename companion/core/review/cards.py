"""Review cards and their log. A card's FSRS state is a replay of its log, so an import
or a late flub (an older review arriving after newer ones) never leaves it inconsistent.

Keys: ``quiz:<question id>`` (the study list's key for a quiz question too) and
``topic:<topic key>``. Every stored time is UTC ISO text, as py-fsrs requires.
"""

from __future__ import annotations

import datetime as dt
import functools
import hashlib
from collections.abc import Iterable
from dataclasses import dataclass

from companion.core.timeutil import parse_stored, to_local

KINDS = ("quiz", "topic")
RATINGS = ("again", "hard", "good", "easy")  # py-fsrs Rating 1..4
SOURCES = ("quiz", "study", "flub", "weak", "leitner", "import")
DESIRED_RETENTION = 0.9


class ReviewError(ValueError):
    """A review that cannot be recorded; the message says why."""


@dataclass(frozen=True)
class ReviewCard:
    key: str
    kind: str
    ref: str
    title: str
    state: int  # py-fsrs State: 1 learning, 2 review, 3 relearning
    step: int | None
    stability: float | None
    difficulty: float | None
    due: dt.datetime  # FSRS's own due (UTC); the loop's cap is applied by ``deadline``
    last_review: dt.datetime | None
    reviews: int
    created_at: str


@dataclass(frozen=True)
class LogEntry:
    key: str
    rating: str
    at: dt.datetime  # UTC
    source: str
    nth: int | None = None  # a file's: which of its identical reviews (None: a new one)


def card_key(kind: str, ref: str) -> str:
    if kind not in KINDS:
        raise ReviewError(f"Unknown card kind {kind!r}; use one of {', '.join(KINDS)}.")
    return f"{kind}:{ref}"


def utc(moment: dt.datetime) -> dt.datetime:
    """``moment`` in UTC, to the second (naive means local, as everywhere in the app)."""
    return to_local(moment).astimezone(dt.UTC).replace(microsecond=0)


def stamp(moment: dt.datetime) -> str:
    return utc(moment).isoformat()


def parse_utc(text: str | None) -> dt.datetime | None:
    moment = parse_stored(text)
    return utc(moment) if moment is not None else None


@functools.cache
def scheduler():
    """The FSRS scheduler with its default parameters (below a few hundred reviews the
    optimizer returns them anyway); no fuzz, so the same log gives the same card."""
    from fsrs import Scheduler

    return Scheduler(desired_retention=DESIRED_RETENTION, enable_fuzzing=False)


def _fsrs_id(key: str) -> int:
    return int(hashlib.sha1(key.encode("utf-8")).hexdigest()[:12], 16)


def replay(key: str, log: Iterable[LogEntry], created: dt.datetime):
    """The py-fsrs card after every review of ``log``, oldest first."""
    from fsrs import Card, Rating

    card = Card(card_id=_fsrs_id(key), due=utc(created))
    for entry in sorted(log, key=lambda e: e.at):
        rating = Rating(RATINGS.index(entry.rating) + 1)
        card, _ = scheduler().review_card(card, rating, utc(entry.at))
    return card


def recall(card: ReviewCard, moment: dt.datetime) -> float:
    """Predicted recall (retrievability) at ``moment``: 0 for a card never reviewed.
    Counted in fractional days, so a card studied this morning ranks above last night's."""
    if card.last_review is None or not card.stability:
        return 0.0
    decay = -scheduler().parameters[20]
    factor = 0.9 ** (1 / decay) - 1
    days = max(0.0, (utc(moment) - card.last_review).total_seconds() / 86400)
    return (1 + factor * days / card.stability) ** decay


# --- storage ----------------------------------------------------------------------------

_COLS = (
    "key, kind, ref, title, state, step, stability, difficulty, due, last_review, reviews, "
    "created_at"
)


def _card(row) -> ReviewCard:
    key, kind, ref, title, state, step, stab, diff, due, last, reviews, created = row
    return ReviewCard(
        key,
        kind,
        ref,
        title,
        int(state),
        step,
        stab,
        diff,
        parse_utc(due) or parse_utc(created) or dt.datetime.now(dt.UTC),
        parse_utc(last),
        int(reviews),
        created,
    )


def load_cards(db, kind: str | None = None) -> dict[str, ReviewCard]:
    where, args = ("WHERE kind = ?", [kind]) if kind else ("", [])
    rows = db.execute(f"SELECT {_COLS} FROM review_cards {where}", args).fetchall()
    return {row[0]: _card(row) for row in rows}


def get_card(db, key: str) -> ReviewCard | None:
    row = db.execute(f"SELECT {_COLS} FROM review_cards WHERE key = ?", [key]).fetchone()
    return _card(row) if row else None


def ensure_card(db, kind: str, ref: str, title: str, at: dt.datetime) -> str:
    """The card's key, creating it (new, due at ``at``) when it is not there yet."""
    key = card_key(kind, ref)
    db.execute(
        "INSERT INTO review_cards (key, kind, ref, title, state, due, created_at) "
        "VALUES (?, ?, ?, ?, 1, ?, ?) ON CONFLICT (key) DO UPDATE SET "
        "title = CASE WHEN excluded.title != '' THEN excluded.title ELSE title END",
        [key, kind, ref, title, stamp(at), stamp(at)],
    )
    return key


def add_log(db, entries: Iterable[LogEntry]) -> int:
    """Add reviews to the log; returns how many. An entry with ``nth`` (a file's: the nth
    identical review in it) is not added twice; one without is a new review, so a second
    Easy in the same second is a second review, not lost in the first."""
    before = db.conn.total_changes
    rows = []
    batch: dict[tuple, int] = {}
    for e in entries:
        same = (e.key, stamp(e.at), e.rating, e.source)
        nth = e.nth
        if nth is None:
            if same not in batch:
                batch[same] = db.execute(
                    "SELECT COUNT(*) FROM review_log WHERE card_key = ? AND reviewed_at = ? "
                    "AND rating = ? AND source = ?",
                    same,
                ).fetchone()[0]
            nth = batch[same]
            batch[same] += 1
        rows.append((*same, nth))
    db.conn.executemany(
        "INSERT OR IGNORE INTO review_log (card_key, reviewed_at, rating, source, nth) "
        "VALUES (?, ?, ?, ?, ?)",
        rows,
    )
    return db.conn.total_changes - before


def card_log(db, key: str) -> list[LogEntry]:
    rows = db.execute(
        "SELECT rating, reviewed_at, source FROM review_log WHERE card_key = ? "
        "ORDER BY reviewed_at, id",
        [key],
    ).fetchall()
    return [LogEntry(key, r, parse_utc(at), s) for r, at, s in rows]


def rebuild(db, keys: Iterable[str]) -> None:
    """Replay each card of ``keys`` from its log and store the result."""
    for key in keys:
        row = db.execute("SELECT created_at FROM review_cards WHERE key = ?", [key]).fetchone()
        if row is None:
            continue
        log = card_log(db, key)
        card = replay(key, log, parse_utc(row[0]) or dt.datetime.now(dt.UTC))
        db.execute(
            "UPDATE review_cards SET state = ?, step = ?, stability = ?, difficulty = ?, "
            "due = ?, last_review = ?, reviews = ? WHERE key = ?",
            [
                int(card.state),
                card.step,
                card.stability,
                card.difficulty,
                stamp(card.due),
                stamp(card.last_review) if card.last_review else None,
                len(log),
                key,
            ],
        )


def rate(
    db, kind: str, ref: str, title: str, rating: str, at: dt.datetime, source: str
) -> ReviewCard:
    """Record one review of a card (creating the card) and reschedule it."""
    if rating not in RATINGS:
        raise ReviewError(f"Unknown rating {rating!r}; use one of {', '.join(RATINGS)}.")
    with db.atomic():
        key = ensure_card(db, kind, ref, title, at)
        add_log(db, [LogEntry(key, rating, utc(at), source)])
        rebuild(db, [key])
    card = get_card(db, key)
    assert card is not None
    return card
