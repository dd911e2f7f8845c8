"""A loop's schedule: clock and countdown texts, and calendar events made into rounds.

What the day is *now* (phases, current and next round, reminders) is the day model's:
:mod:`companion.core.day.model`.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from companion.core.day.clock import clock_text as clock_text  # re-exported
from companion.core.day.clock import countdown_text as countdown_text  # re-exported
from companion.core.day.loops import Round


def round_title(rnd: Round, titles: dict[str, str] | None = None) -> str:
    """The round's name for people: the content's title, else the round's own label."""
    from companion.core.day.model import round_title as title

    return title(rnd, titles or {})


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
                # a round type is at most 80 characters and needs a letter or digit; a
                # calendar title may be longer, or all punctuation
                words = " ".join(words.split())[:80].rstrip()
                if not re.search(r"[a-z0-9]", words.lower()):
                    words = "Round"
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
