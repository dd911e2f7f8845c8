"""What is due now: notes to capture after a round, thank-yous to send.

The Today page and the tray read :func:`captures_due` and :func:`thank_yous_due`; both
are cheap even with thousands of loops.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from sqlite_utils import Database

from companion.core.day.loops import get_loop, list_rounds
from companion.core.timeutil import parse_stored

# fallbacks only: the pack's after-loop `within_hours:` is used (Content.capture_window
# and Content.thank_you_after), passed in by the callers that have the content
CAPTURE_WINDOW = dt.timedelta(hours=1)
THANK_YOU_AFTER = dt.timedelta(hours=24)
THANK_YOU_REMIND_BEFORE = dt.timedelta(hours=4)
THANK_YOU_KEEP_SHOWING = dt.timedelta(days=3)


@dataclass(frozen=True)
class CaptureDue:
    """A round just ended and nothing is written down for it yet (loop_id None: a round
    recorded without a loop)."""

    loop_id: int | None
    company: str
    round_id: int
    ended_at: dt.datetime
    deadline: dt.datetime


@dataclass(frozen=True)
class ThankYouDue:
    loop_id: int
    company: str
    due_at: dt.datetime
    sent: bool


def loop_end(db: Database, loop_id: int, rules=None) -> dt.datetime | None:
    """When the loop ends: its last round's end (actual, or expected from its start and
    length while rounds are still to come: the thank-you is 24 h after the LOOP), else
    the end of its last day. ``rules`` (the day's, from the content) give the lengths."""
    from companion.core.day.model import DayRules, day_round

    rules = rules or DayRules()
    now = dt.datetime.now().astimezone()  # only decides states; ends do not depend on it
    ends = [
        d.ends_at
        for d in (day_round(r, rules, now, False) for r in list_rounds(db, loop_id))
        if d.state != "skipped" and d.ends_at is not None
    ]
    if ends:
        return max(ends)
    loop = get_loop(db, loop_id)
    if loop and (loop.ends_on or loop.starts_on):
        try:
            day = dt.date.fromisoformat(loop.ends_on or loop.starts_on)
        except ValueError:
            return None
        return dt.datetime.combine(day, dt.time(18, 0)).astimezone()
    return None


def _recent_rounds(db: Database, now: dt.datetime, days: int) -> list[tuple]:
    # ended_at carries a local offset, so compare dates with a margin, then parse exactly
    floor = (now - dt.timedelta(days=days)).date().isoformat()
    return db.execute(
        "SELECT r.id, r.loop_id, r.ended_at, COALESCE(l.company, '') FROM rounds r "
        "LEFT JOIN loops l ON l.id = r.loop_id WHERE r.ended_at >= ?",
        [floor],
    ).fetchall()


def _round_has_notes(db: Database, round_id: int) -> bool:
    row = db.execute(
        "SELECT EXISTS(SELECT 1 FROM asked WHERE round_id = :r) "
        "OR EXISTS(SELECT 1 FROM flubs WHERE round_id = :r) "
        "OR EXISTS(SELECT 1 FROM went_well WHERE round_id = :r) "
        "OR EXISTS(SELECT 1 FROM rounds WHERE id = :r AND notes != '')",
        {"r": round_id},
    ).fetchone()
    return bool(row[0])


def captures_due(
    db: Database, now: dt.datetime, window: dt.timedelta | None = None
) -> list[CaptureDue]:
    """Loops whose last round ended less than ``window`` (the pack's capture window) ago
    and have nothing written for it yet: "write down what was asked", with ``deadline``
    for the countdown."""
    window = window or CAPTURE_WINDOW
    latest: dict[object, tuple[dt.datetime, int, int | None, str]] = {}
    for round_id, loop_id, ended_at, company in _recent_rounds(db, now, window.days + 2):
        ended = parse_stored(ended_at)
        if ended is None or ended > now:
            continue
        key = loop_id if loop_id is not None else ("round", round_id)
        if key not in latest or ended > latest[key][0]:
            latest[key] = (ended, round_id, loop_id, company)
    due = []
    for ended, round_id, loop_id, company in latest.values():
        deadline = ended + window
        if now < deadline and not _round_has_notes(db, round_id):
            due.append(CaptureDue(loop_id, company, round_id, ended, deadline))
    return sorted(due, key=lambda c: c.deadline)


def thank_yous_due(
    db: Database, now: dt.datetime, after: dt.timedelta | None = None
) -> list[ThankYouDue]:
    """Thank-yous of loops that have ended: due ``after`` (the pack's, 24 h as shipped)
    after the last round. Unsent ones stay listed until three days past due; sent ones
    show as sent until then too."""
    after = after or THANK_YOU_AFTER
    ends: dict[int, tuple[dt.datetime, str]] = {}
    lookback = (after + THANK_YOU_KEEP_SHOWING).days + 2
    for _round_id, loop_id, ended_at, company in _recent_rounds(db, now, lookback):
        ended = parse_stored(ended_at)
        if loop_id is None or ended is None or ended > now:
            continue
        if loop_id not in ends or ended > ends[loop_id][0]:
            ends[loop_id] = (ended, company)
    if not ends:
        return []
    marks = ",".join("?" * len(ends))
    sent = {
        r[0]
        for r in db.execute(
            f"SELECT loop_id FROM thank_yous WHERE sent_at IS NOT NULL AND loop_id IN ({marks})",
            list(ends),
        ).fetchall()
    }
    out = []
    for loop_id, (ended, company) in ends.items():
        due_at = ended + after
        if now <= due_at + THANK_YOU_KEEP_SHOWING:
            out.append(ThankYouDue(loop_id, company, due_at, loop_id in sent))
    return sorted(out, key=lambda t: t.due_at)


def thank_you_reminders(
    db: Database, now: dt.datetime, after: dt.timedelta | None = None
) -> list[ThankYouDue]:
    """Unsent thank-yous due within four hours (or overdue): what the tray reminds of."""
    return [
        t
        for t in thank_yous_due(db, now, after)
        if not t.sent and now >= t.due_at - THANK_YOU_REMIND_BEFORE
    ]
