"""The deadline: no interval runs past the next loop's first round.

A card reviewed before a loop's first round and scheduled by FSRS past it is due instead
at the first of these still after the review: the evening before that round (when the
night-before list opens), the morning of it, the round itself. Once that round has
begun the cap is lifted: after the loop, normal scheduling resumes, up to the next loop
still ahead (every upcoming loop caps, not only the one right after the review).
"""

from __future__ import annotations

import bisect
import datetime as dt
from collections.abc import Sequence

from companion.core.phase_hours import EVENING_FROM, MORNING_FROM
from companion.core.review.cards import ReviewCard, utc
from companion.core.timeutil import parse_stored

# when the night-before and morning-of phases begin: the day model's numbers
EVENING = EVENING_FROM
MORNING = MORNING_FROM


def loop_starts(db) -> list[dt.datetime]:
    """When every loop began or begins, oldest first: its first round's start, the
    moment it was started when that came before its scheduled time (a round started
    early has begun: the loop is no longer ahead). Skipped rounds do not count."""
    firsts: dict[int, dt.datetime] = {}
    rows = db.execute(
        "SELECT loop_id, scheduled_at, started_at FROM rounds WHERE loop_id IS NOT NULL "
        "AND skipped_at IS NULL AND ((scheduled_at IS NOT NULL AND scheduled_at != '') "
        "OR (started_at IS NOT NULL AND started_at != ''))"
    ).fetchall()
    for loop_id, scheduled, started in rows:
        moments = [m for m in (parse_stored(scheduled), parse_stored(started)) if m is not None]
        moment = min(moments, key=utc) if moments else None
        if moment is not None and (loop_id not in firsts or utc(moment) < utc(firsts[loop_id])):
            firsts[loop_id] = moment
    return sorted(firsts.values(), key=utc)


def next_start(starts: Sequence[dt.datetime], after: dt.datetime) -> dt.datetime | None:
    """The first loop start strictly after ``after`` (``starts`` sorted; aware times
    compare across zones, so nothing is converted)."""
    index = bisect.bisect_right(starts, after)
    return starts[index] if index < len(starts) else None


def cap(
    start: dt.datetime,
    reviewed: dt.datetime,
    evening: dt.time = EVENING,
    morning: dt.time = MORNING,
) -> dt.datetime:
    """Where a review at ``reviewed`` lands at the latest, for a loop starting at ``start``
    (its own clock: the evening and morning are the round's local ones)."""
    day = start.date()
    candidates = (
        dt.datetime.combine(day - dt.timedelta(days=1), evening, tzinfo=start.tzinfo),
        dt.datetime.combine(day, morning, tzinfo=start.tzinfo),
        start,
    )
    return next(c for c in candidates if reviewed < c <= start)


def effective_due(
    card: ReviewCard,
    starts: Sequence[dt.datetime],
    now: dt.datetime,
    evening: dt.time = EVENING,
    morning: dt.time = MORNING,
) -> dt.datetime:
    """The card's due time with the loop's cap, as it stands at ``now`` (UTC)."""
    if card.last_review is None:
        return card.due
    # the first loop still ahead of both the review and now: a loop already begun lifts
    # its own cap, never a later loop's (a card reviewed before loop A and due after
    # loop B's first round is due before B, not lost between them)
    start = next_start(starts, max(card.last_review, now, key=utc))
    if start is None or utc(start) <= utc(now) or card.due <= utc(start):
        return card.due
    return min(card.due, utc(cap(start, card.last_review, evening, morning)))
