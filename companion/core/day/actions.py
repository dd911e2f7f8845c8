"""The day's transitions, written through the store, and the view read back from it.

Every page, the card and the CLI change the day only through these functions, so their
rules hold everywhere: a round ends once; starting a type that matches a round of the day
that has not ended starts that round; a custom round type keeps its own words.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from companion.core.content.lengths import start_length
from companion.core.day import loops
from companion.core.day.due import thank_you_by
from companion.core.day.model import DayRules, DayView, day_view
from companion.core.day.round_state import day_round
from companion.core.timeutil import to_stored

if TYPE_CHECKING:
    from sqlite_utils import Database


@dataclass(frozen=True)
class Outcome:
    """What a transition did, in words the user can read."""

    round_id: int
    changed: bool
    message: str


# --- reading ------------------------------------------------------------------------


def captured_ids(db: Database, round_ids: list[int]) -> set[int]:
    """Of ``round_ids``, those with anything written for them (questions, flubs, what
    went well, notes)."""
    if not round_ids:
        return set()
    marks = ",".join("?" * len(round_ids))
    rows = db.execute(
        f"SELECT id FROM rounds r WHERE id IN ({marks}) AND (notes != '' "
        "OR EXISTS(SELECT 1 FROM asked WHERE round_id = r.id) "
        "OR EXISTS(SELECT 1 FROM flubs WHERE round_id = r.id) "
        "OR EXISTS(SELECT 1 FROM went_well WHERE round_id = r.id))",
        list(round_ids),
    ).fetchall()
    return {r[0] for r in rows}


def thank_you_sent(db: Database, loop_id: int | None) -> bool:
    if not loop_id:
        return False
    row = db.execute(
        "SELECT 1 FROM thank_yous WHERE loop_id = ? AND sent_at IS NOT NULL", [loop_id]
    ).fetchone()
    return row is not None


def load_view(db: Database, rules: DayRules, now: dt.datetime, shown: int | None = None) -> DayView:
    """The day at ``now`` from every loop's rounds (:func:`day_rounds`); ``shown`` only
    names the loop a page shows first (the view's ``loop``)."""
    by_id, rounds = day_rounds(db, rules, now)
    if shown and shown not in by_id and (loop := loops.get_loop(db, shown)) is not None:
        by_id[shown] = loop  # a loop picked with no round yet: shown, nothing to remind
        rounds += loops.list_rounds(db, shown)
    if not by_id and (newest := loops.list_loops(db)):
        by_id[newest[0].id] = newest[0]  # no loop is live: the newest, shown as it is
        rounds += loops.list_rounds(db, newest[0].id)
    ids = [r.id for r in rounds]
    return day_view(
        list(by_id.values()),
        rounds,
        rules,
        now,
        captured=captured_ids(db, ids),
        thank_you_sent={lp for lp in by_id if thank_you_sent(db, lp)},
        shown=shown,
    )


def day_rounds(db: Database, rules: DayRules, now: dt.datetime):
    """({loop id: loop}, rounds) the day is built from: every round of each loop with a
    round to come or one recent enough for its after-loop items (capture, thank-you) to
    be open, and the rounds outside any loop started today."""
    since = now - rules.after_loop_for - rules.thank_you_after - dt.timedelta(days=3)
    live = [
        row[0]
        for row in db.execute(
            "SELECT DISTINCT loop_id FROM rounds WHERE loop_id IS NOT NULL "
            "AND COALESCE(started_at, scheduled_at) >= ?",
            [(since - dt.timedelta(days=1)).date().isoformat()],  # offsets vary: a margin
        ).fetchall()
    ]
    by_id: dict[int, loops.Loop] = {}
    rounds: list[loops.Round] = []
    for loop_id in sorted(live):
        loop = loops.get_loop(db, loop_id)
        if loop is not None:
            by_id[loop_id] = loop
            rounds += loops.list_rounds(db, loop_id)
    # rounds started outside any loop today are part of the day too
    midnight = now.replace(hour=0, minute=0, second=0, microsecond=0)
    rounds += loops.loose_rounds(db, midnight)
    return by_id, rounds


def thank_you_due(
    db: Database, rules: DayRules, now: dt.datetime, loop_id: int
) -> dt.datetime | None:
    """When ``loop_id``'s thank-you is due, by the day's one rule (``due.thank_you_by``,
    the time Today shows): None once sent, or while no round of the loop has a time to
    count from. Reads that loop's rounds alone, not the whole day."""
    if thank_you_sent(db, loop_id):
        return None
    rounds = [day_round(r, rules, now, False) for r in loops.list_rounds(db, loop_id)]
    return thank_you_by(rounds, rules)


def round_states(db: Database, rules: DayRules, now: dt.datetime) -> dict[int, list[str]]:
    """Loop id -> the states of its rounds at ``now``, by :func:`day_round`. A round that
    was ended by a press and not skipped is ended whatever the clock says (day_round's
    first rules), so those are counted in one grouped query; only the others (to come,
    skipped, or never pressed) are read and judged, and thousands of past loops stay cheap."""
    out: dict[int, list[str]] = {}
    rows = db.execute(
        "SELECT loop_id, COUNT(*) FROM rounds WHERE loop_id IS NOT NULL "
        "AND skipped_at IS NULL AND ended_at IS NOT NULL GROUP BY loop_id"
    ).fetchall()
    for loop_id, ended in rows:
        out[loop_id] = ["ended"] * ended
    open_rows = db.execute(
        f"SELECT {loops.ROUND_COLUMNS} FROM rounds WHERE loop_id IS NOT NULL "
        "AND (skipped_at IS NOT NULL OR ended_at IS NULL)"
    ).fetchall()
    for row in open_rows:
        rnd = loops.Round(*row)
        out.setdefault(rnd.loop_id, []).append(day_round(rnd, rules, now, False).state)
    return out


def sent_keys(db: Database, keys: list[str] | None = None) -> set[str]:
    """The reminder keys already sent: all of them, or those of ``keys``."""
    if keys is None:
        return {r[0] for r in db.execute("SELECT key FROM day_sent").fetchall()}
    if not keys:
        return set()
    marks = ",".join("?" * len(keys))
    rows = db.execute(f"SELECT key FROM day_sent WHERE key IN ({marks})", list(keys))
    return {r[0] for r in rows.fetchall()}


def mark_sent(db: Database, keys: list[str], now: dt.datetime) -> None:
    """Record reminders as sent (the dedupe lives in the database: a restart repeats none)."""
    stamp = to_stored(now)
    with db.atomic():
        for key in keys:
            db.execute("INSERT OR IGNORE INTO day_sent(key, sent_at) VALUES (?, ?)", [key, stamp])


# --- writing ------------------------------------------------------------------------

_SLUG = re.compile(r"[^a-z0-9]+")


def type_and_label(round_type: str, label: str, known: set[str]) -> tuple[str, str]:
    """(type id, own label) for a round: a known type id as it is, anything else typed by
    the user kept in their words with a slug as its id; never an empty type."""
    round_type = (round_type or "").strip()
    label = " ".join((label or "").split())
    if round_type in known:
        return round_type, ""
    words = label or round_type
    slug = _SLUG.sub("-", words.lower()).strip("-")
    if not slug:
        raise ValueError("A round needs a type: pick one from the list or type your own.")
    if len(words) > 80:
        raise ValueError("A round type is at most 80 characters.")
    return slug, words


def add(
    db: Database,
    loop_id: int | None,
    round_type: str,
    *,
    known: set[str],
    label: str = "",
    scheduled_at: dt.datetime | None = None,
    minutes: int | None = None,
    interviewer_role: str = "",
    interviewer_name: str = "",
    link: str = "",
) -> int:
    """Add a round (scheduled or not); a custom type is stored with its own label."""
    rtype, own = type_and_label(round_type, label, known)
    if minutes is not None and not 1 <= minutes <= 24 * 60:
        raise ValueError("A round lasts between 1 minute and 24 hours.")
    with db.atomic():
        round_id = loops.add_round(
            db,
            loop_id,
            rtype,
            scheduled_at=scheduled_at,
            interviewer_role=interviewer_role,
            interviewer_name=interviewer_name,
        )
        loops.update_round(db, round_id, type_label=own, length_minutes=minutes, link=link)
    return round_id


def reschedule(db: Database, round_id: int, scheduled_at: dt.datetime | None) -> Outcome:
    rnd = loops.get_round(db, round_id)
    if rnd is None:
        return Outcome(round_id, False, "That round is no longer in the journal.")
    loops.update_round(db, round_id, scheduled_at=to_stored(scheduled_at) if scheduled_at else None)
    return Outcome(round_id, True, "Rescheduled.")


def start(
    db: Database,
    view: DayView,
    now: dt.datetime,
    *,
    round_id: int = 0,
    round_type: str = "",
    chosen: Mapping[str, int] | None = None,
) -> Outcome:
    """Start a round: ``round_id`` itself, else the day's round of ``round_type`` that has
    not ended (scheduled, or running by the clock), else a new unscheduled round. Its
    length is :func:`lengths.start_length` (``chosen``: the user's own length per type),
    written in the same transaction as the start."""
    with db.atomic():
        outcome = _start(db, view, now, round_id=round_id, round_type=round_type)
        rnd = loops.get_round(db, outcome.round_id) if outcome.changed else None
        if rnd is not None:
            minutes = start_length(rnd.length_minutes, rnd.type, chosen or {})
            if minutes:
                loops.update_round(db, rnd.id, length_minutes=minutes)
    return outcome


def _start(db: Database, view: DayView, now: dt.datetime, *, round_id: int, round_type: str):
    if round_id:
        rnd = loops.get_round(db, round_id)
        if rnd is None:
            return Outcome(round_id, False, "That round is no longer in the journal.")
        if rnd.ended_at:
            return Outcome(round_id, False, "That round has already ended.")
        if rnd.started_at:
            return Outcome(round_id, False, "That round is already running.")
        loops.update_round(db, round_id, started_at=to_stored(now), skipped_at=None)
        return Outcome(round_id, True, "Round started.")
    today = now.date()
    for d in view.rounds:
        if d.type != round_type or d.state not in ("scheduled", "running"):
            continue
        when = d.starts_at
        if when is not None and when.astimezone(now.tzinfo).date() != today:
            continue
        if d.round.started_at:
            return Outcome(d.id, False, "That round is already running.")
        loops.update_round(db, d.id, started_at=to_stored(now), skipped_at=None)
        return Outcome(d.id, True, "Round started.")
    new_id = loops.start_round(db, round_type, now, loop_id=view.loop_id or None)
    return Outcome(new_id, True, "Round started (not on the schedule).")


def set_length(db: Database, round_id: int, minutes: int) -> Outcome:
    """The running round lasts ``minutes`` (the card's length box)."""
    loops.update_round(db, round_id, length_minutes=int(minutes))
    return Outcome(round_id, True, f"The round lasts {minutes} minutes.")


def end(db: Database, round_id: int, now: dt.datetime) -> Outcome:
    """End a round once; a second end changes nothing and says so."""
    rnd = loops.get_round(db, round_id)
    if rnd is None:
        return Outcome(round_id, False, "That round is no longer in the journal.")
    if rnd.ended_at:
        when = rnd.ended
        at = f" at {when.astimezone(now.tzinfo):%H:%M}" if when else ""
        return Outcome(round_id, False, f"That round already ended{at}.")
    fields = {"ended_at": to_stored(now)}
    if not rnd.started_at:
        start_at = rnd.scheduled if rnd.scheduled and rnd.scheduled <= now else now
        fields["started_at"] = to_stored(start_at)
    loops.update_round(db, round_id, **fields)
    return Outcome(round_id, True, "Round ended.")


def skip(db: Database, round_id: int, now: dt.datetime) -> Outcome:
    rnd = loops.get_round(db, round_id)
    if rnd is None:
        return Outcome(round_id, False, "That round is no longer in the journal.")
    if rnd.started_at or rnd.ended_at:
        return Outcome(round_id, False, "A round that has started cannot be skipped.")
    loops.update_round(db, round_id, skipped_at=to_stored(now))
    return Outcome(round_id, True, "Round skipped.")


def unskip(db: Database, round_id: int) -> Outcome:
    rnd = loops.get_round(db, round_id)
    if rnd is None:
        return Outcome(round_id, False, "That round is no longer in the journal.")
    if not rnd.skipped_at:
        return Outcome(round_id, False, "That round is not skipped.")
    loops.update_round(db, round_id, skipped_at=None)
    return Outcome(round_id, True, "Round back on the schedule.")
