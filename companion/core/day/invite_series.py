"""A repeating invitation (a series) as rounds: one UID, an RRULE on the master, a
RECURRENCE-ID on each changed or cancelled occurrence, EXDATE for removed ones.

The app keeps one round for a series, at its first occurrence (not removed by EXDATE,
not cancelled), and a round for each occurrence the file changes; each is known by its
occurrence ("UID#20261210T090000Z", the original start in UTC), so the cancellation or
the change of one occurrence touches that one only, and a re-import finds each again.
An event that is not part of a series keeps its plain UID. Done with icalendar and
dateutil (which icalendar depends on): expanding a whole series is not needed for its
first occurrence, so recurring-ical-events would be a dependency for one step.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import itertools
from collections.abc import Sequence

#: at most this many occurrences are walked to find the first one left (EXDATE)
MAX_WALK = 1000


def occurrence_key(uid: str, original: dt.datetime) -> str:
    """How a round names one occurrence of series ``uid``: its original start in UTC."""
    return f"{uid}#{original.astimezone(dt.UTC):%Y%m%dT%H%M%SZ}"


def _occurrences(event):
    """The master's occurrences in order (its DTSTART first), none removed."""
    from dateutil import rrule

    try:
        rules = rrule.rrulestr(f"RRULE:{event.rule}", dtstart=event.start, forceset=True)
        yield from itertools.islice(iter(rules), MAX_WALK)
    except Exception:  # noqa: BLE001 - an unreadable rule: the DTSTART alone
        yield event.start


def _first_left(event, gone: set[dt.datetime]) -> dt.datetime | None:
    """The first occurrence of ``event`` not in ``gone`` (EXDATE, cancelled), or None."""
    for moment in _occurrences(event):
        if moment not in gone:
            return moment
    return None


def resolve(events: Sequence) -> tuple[list, list[str]]:
    """The events as the rounds they stand for, each with its occurrence's key as
    ``uid``, and notes (a series removed entirely by EXDATE)."""
    changed: dict[str, dict[dt.datetime, object]] = {}
    for e in events:
        if e.uid and e.recurrence_id is not None:
            changed.setdefault(e.uid, {})[e.recurrence_id] = e
    out, notes = [], []
    for e in events:
        if e.uid and e.recurrence_id is not None:  # one occurrence, changed or cancelled
            out.append(dataclasses.replace(e, uid=occurrence_key(e.uid, e.recurrence_id)))
            continue
        if not (e.uid and e.rule):
            out.append(e)
            continue
        overrides = changed.get(e.uid, {})
        gone = set(e.excluded) | {m for m, o in overrides.items() if o.cancelled}
        first = _first_left(e, gone)
        if first is None:
            notes.append(f"{e.named}: every occurrence of the series is removed; nothing added.")
            continue
        if first in overrides:  # the file's own copy of that occurrence stands for it
            continue
        out.append(dataclasses.replace(e, uid=occurrence_key(e.uid, first), start=first))
    return _newest_of_each(out), notes


def _newest_of_each(events: list) -> list:
    """One event a key: a file holding two copies of one event (an update beside the
    original) is read as its newest (RFC 5546: the higher SEQUENCE, then the later
    DTSTAMP), so its import does what a second import of it would."""
    best: dict[str, object] = {}
    for e in events:
        if not e.uid:
            continue
        kept = best.get(e.uid)
        if kept is None or _rank(e) > _rank(kept):
            best[e.uid] = e
    return [e for e in events if not e.uid or best[e.uid] is e]


def _rank(event) -> tuple:
    stamp = event.stamp.timestamp() if event.stamp else float("-inf")
    return (event.sequence, stamp, event.cancelled)
