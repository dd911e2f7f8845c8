"""A later copy of an imported invitation event (the same UID): an update moves its round
through the reschedule path (the reminders follow the new time), a cancellation skips it
with the reason. RFC 5546: the higher SEQUENCE wins; with equal ones, the later DTSTAMP."""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING

from companion.core.day import actions, loops
from companion.core.day.clock import clock_text
from companion.core.day.schedule import round_title
from companion.core.timeutil import parse_stored, to_local, to_stored

if TYPE_CHECKING:
    from sqlite_utils import Database

CANCELLED = "cancelled by the organizer"


def rounds_by_uid(db: Database, uids: set[str]) -> dict[str, loops.Round]:
    """The rounds made from the invitation events ``uids`` (the newest row of each). An
    occurrence's key ("UID#20261210T090000Z") not found finds the round of its series
    imported before occurrences were told apart (its plain UID, at that start); a plain
    UID not found finds its series' first round (a cancellation without its RRULE)."""
    uids = {u for u in uids if u}
    if not uids:
        return {}
    bases = {u.partition("#")[0] for u in uids}
    marks = ",".join("?" * len(bases))
    rows = db.execute(
        f"SELECT {loops.ROUND_COLUMNS} FROM rounds WHERE ics_uid IN ({marks}) "
        f"OR substr(ics_uid, 1, instr(ics_uid, '#') - 1) IN ({marks}) ORDER BY id",
        sorted(bases) * 2,
    ).fetchall()
    found = {r.ics_uid: r for r in (loops.Round(*row) for row in rows)}
    out = {u: found[u] for u in uids if u in found}
    for uid in uids - set(out):
        base, sep, when = uid.partition("#")
        old = found.get(base)
        if sep and old is not None and _at(old.ics_start) == _at_utc(when):
            out[uid] = old
        elif not sep:
            series = [r for key, r in found.items() if key.startswith(base + "#")]
            if series:
                out[uid] = min(series, key=lambda r: r.id)
    return out


def _at(text: str) -> dt.datetime | None:
    moment = parse_stored(text)
    return moment.astimezone(dt.UTC) if moment else None


def _at_utc(text: str) -> dt.datetime | None:
    try:
        return dt.datetime.strptime(text, "%Y%m%dT%H%M%SZ").replace(tzinfo=dt.UTC)
    except ValueError:
        return None


def is_newer(event, rnd: loops.Round) -> bool:
    """Whether ``event`` supersedes what ``rnd`` was made from."""
    if event.sequence != rnd.ics_sequence:
        return event.sequence > rnd.ics_sequence
    stored = parse_stored(rnd.ics_stamp)
    if event.stamp is not None and stored is not None and event.stamp != stored:
        return event.stamp > stored
    # the same copy again, or a cancellation that kept the SEQUENCE (some servers do)
    return bool(event.cancelled and not rnd.skipped_at)


def apply_update(
    db: Database, rnd: loops.Round, event, fields: dict, titles: dict[str, str], now: dt.datetime
) -> tuple[str, str]:
    """(what happened, message): "same" (nothing newer), "moved", "updated", "cancelled"
    or "kept" (a cancelled round that has begun stays as it is)."""
    if not is_newer(event, rnd):
        if not rnd.ics_start and event.start == rnd.scheduled:  # imported before it was kept
            loops.update_round(db, rnd.id, ics_start=to_stored(event.start))
        return "same", ""
    name = round_title(rnd, titles)
    stamp = {
        "ics_sequence": event.sequence,
        "ics_stamp": to_stored(event.stamp) if event.stamp else "",
        "ics_start": to_stored(event.start),  # at the invitation's own offset
    }
    if event.cancelled:
        if rnd.started_at or rnd.ended_at:
            loops.update_round(db, rnd.id, **stamp)
            return "kept", f"{event.named}: cancelled, but {name} has begun; it is kept."
        if not rnd.skipped_at:
            actions.skip(db, rnd.id, now)
        loops.update_round(db, rnd.id, skip_reason=CANCELLED, **stamp)
        return "cancelled", f"cancelled {name}."
    moved = event.start != rnd.scheduled
    if moved:
        actions.reschedule(db, rnd.id, to_local(event.start))  # at its own date's local offset
    again = {"skipped_at": None, "skip_reason": ""} if rnd.skip_reason == CANCELLED else {}
    loops.update_round(db, rnd.id, **stamp, **fields, **again)
    if moved:
        return "moved", f"moved {name} to {clock_text(event.start, to_local(now))}."
    return "updated", f"updated {name} (same time)."
