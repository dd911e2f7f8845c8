"""A loop's schedule: clock and countdown texts, and calendar events made into rounds.

What the day is *now* (phases, current and next round, reminders) is the day model's:
:mod:`companion.core.day.model`.
"""

from __future__ import annotations

import datetime as dt
import math
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from companion.core.day.loops import Round


def _local(moment: dt.datetime, now: dt.datetime) -> dt.datetime:
    return moment.astimezone(now.tzinfo)


def round_title(rnd: Round, titles: dict[str, str] | None = None) -> str:
    """The round's name for people: the content's title, else the round's own label."""
    from companion.core.day.model import round_title as title

    return title(rnd, titles or {})


def clock_text(moment: dt.datetime, now: dt.datetime) -> str:
    """10:00, or "Tue 1 Dec 10:00" when not today."""
    local = _local(moment, now)
    if local.date() == now.date():
        return local.strftime("%H:%M")
    return f"{local.strftime('%a')} {local.day} {local.strftime('%b %H:%M')}"


def countdown_text(delta: dt.timedelta) -> str:
    """ "in 1 h 05 min", "in 7 min", "in 45 s", "now": the one rounding of time left
    that the header, the card and the reminders share. Minutes round up (6 min 10 s left
    is "in 7 min"), so the text changes as a whole minute passes, and a reminder sent a
    moment after its 10-minute mark still says "in 10 min"."""
    seconds = math.ceil(delta.total_seconds())
    if seconds <= 0:
        return "now"
    if seconds < 60:  # seconds only in the last minute
        return f"in {seconds} s"
    if seconds >= 86400:
        days, rest = divmod(seconds, 86400)
        return f"in {days} d {rest // 3600} h"
    hours, minutes = divmod(math.ceil(seconds / 60), 60)
    if hours:
        return f"in {hours} h {minutes:02d} min"
    return f"in {minutes} min"


def round_lengths(sections: Iterable) -> dict[str, int]:
    """Round type id -> minutes, from content `rounds` sections' ``minutes:`` fields."""
    lengths: dict[str, int] = {}
    for section in sections:
        for item in section.items:
            rid, minutes = item.get("id"), item.int("minutes")
            if rid and minutes > 0:
                lengths.setdefault(rid, minutes)
    return lengths


_WORD = re.compile(r"[a-z0-9]+")


def guess_round_type(summary: str, types: Iterable[tuple[str, str]]) -> str:
    """The round type id whose id or title words best match a calendar event's summary
    (``types`` is (id, title) pairs); "" when nothing matches."""
    words = set(_WORD.findall(summary.lower()))
    text = summary.lower()
    best, best_score = "", 0
    for rid, title in types:
        score = 0
        if rid.replace("-", " ") in text:
            score += 3
        score += len(words & (set(_WORD.findall(title.lower())) - {"round", "the", "me", "i", "c"}))
        if score > best_score:
            best, best_score = rid, score
    return best


@dataclass(frozen=True)
class ImportResult:
    added: int
    duplicates: int
    messages: tuple[str, ...]


def import_events(
    db,
    loop_id: int,
    events: Iterable,
    *,
    types: Iterable[tuple[str, str]] = (),
    default_type: str = "",
    company: str = "",
    now: Callable[[], dt.datetime] | None = None,
) -> ImportResult:
    """Add calendar events as scheduled rounds of a loop; an event at a time the loop
    already has a round at is skipped, so importing the same file twice is harmless."""
    from companion.core.day.actions import type_and_label
    from companion.core.day.loops import add_round, list_rounds, update_round
    from companion.core.timeutil import to_stored

    types = list(types)
    known = {rid for rid, _title in types}
    existing = {r.scheduled_at for r in list_rounds(db, loop_id) if r.scheduled_at}
    added = duplicates = 0
    messages: list[str] = []
    with db.atomic():
        for event in events:
            if event.all_day:
                messages.append(
                    f"Line {event.line}: {event.summary or 'an event'!r} is an all-day event "
                    "with no start time; add its rounds by hand."
                )
                continue
            stamp = to_stored(event.start)
            if stamp in existing:
                duplicates += 1
                continue
            rtype = guess_round_type(event.summary, types) or default_type
            label = ""
            if not rtype:  # no known type: keep the event's own words, never an empty type
                words = event.summary or "Round"
                head, sep, rest = words.partition(" - ")
                if sep and company and head.strip().lower() == company.lower():
                    words = rest  # "Acme - Culture and values": the company is the loop's
                rtype, label = type_and_label("", words, known)
            round_id = add_round(
                db,
                loop_id,
                rtype,
                scheduled_at=event.start,
                interviewer_role=getattr(event, "interviewer_role", ""),
                interviewer_name=getattr(event, "interviewer", ""),
            )
            minutes = getattr(event, "minutes", None)
            link = getattr(event, "link", "")
            if label or minutes or link:
                update_round(db, round_id, type_label=label, length_minutes=minutes, link=link)
            existing.add(stamp)
            added += 1
    return ImportResult(added, duplicates, tuple(messages))
