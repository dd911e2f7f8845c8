"""A loop's schedule: clock and countdown texts, and calendar events made into rounds.

What the day is *now* (phases, current and next round, reminders) is the day model's:
:mod:`companion.core.day.model`.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

from companion.core.day.actions import type_and_label
from companion.core.day.clock import clock_text as clock_text  # re-exported
from companion.core.day.clock import countdown_text as countdown_text  # re-exported
from companion.core.day.invite_company import without_company
from companion.core.day.loops import Round, add_round, get_round, list_rounds, update_round
from companion.core.day.round_state import round_title as state_title
from companion.core.timeutil import to_local, to_stored


def round_title(rnd: Round, titles: dict[str, str] | None = None) -> str:
    """The round's name for people: the content's title, else the round's own label."""
    return state_title(rnd, titles or {})


_WORD = re.compile(r"[a-z0-9]+")


def guess_round_type(
    summary: str,
    types: Iterable[tuple[str, str]],
    also: Mapping[str, Sequence[str]] | None = None,
) -> str:
    """The round type id whose id or title words best match a calendar event's summary
    (``types`` is (id, title) pairs); "" when nothing matches. ``also`` (type id -> the
    pack's other words for it, ``also:``) counts each of its phrases the summary holds as
    much as the id."""
    words = set(_WORD.findall(summary.lower()))
    text = summary.lower()
    spaced = f" {' '.join(_WORD.findall(text))} "
    best, best_score = "", 0
    for rid, title in types:
        score = 0
        if rid.replace("-", " ") in text:
            score += 3
        for phrase in (also or {}).get(rid, ()):
            if f" {' '.join(_WORD.findall(phrase.lower()))} " in spaced:
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
    refused: tuple[str, ...] = ()  # each event that could not be added, named, with why


MAX_TITLE = 80


def short_title(words: str, limit: int = MAX_TITLE) -> str:
    """``words`` cut at a word to at most ``limit`` characters, with "…" when cut."""
    words = " ".join(words.split())
    if len(words) <= limit:
        return words
    cut = words[: limit - 1].rsplit(" ", 1)[0] if " " in words[: limit - 1] else words[: limit - 1]
    return cut.rstrip(" ,;:-–—") + "…"


def import_events(
    db,
    loop_id: int,
    events: Iterable,
    *,
    types: Iterable[tuple[str, str]] = (),
    default_type: str = "",
    company: str = "",
    now: Callable[[], dt.datetime] | None = None,
    fields_of: Callable[[object], dict] | None = None,
) -> ImportResult:
    """Add calendar events as scheduled rounds of a loop; an event at a time the loop
    already has a round at is skipped, so importing the same file twice is harmless.
    Each event stands alone: one that cannot be added is named in ``refused``.
    ``fields_of(event)`` gives more round fields (the people)."""

    types = list(types)
    known = {rid for rid, _title in types}
    # by the moment, whatever offset it was stored with (an older import kept the
    # invitation's zone; rounds are now stored at the machine's local offset)
    existing = {r.scheduled: r for r in list_rounds(db, loop_id) if r.scheduled}
    added = duplicates = 0
    messages: list[str] = []
    refused: list[str] = []
    for event in events:
        if event.all_day:
            messages.append(
                f"Line {event.line}: {event.summary or 'an event'!r} is an all-day event "
                "with no start time; add its rounds by hand."
            )
            continue
        stamp = event.start
        extra = dict(fields_of(event)) if fields_of else {}
        uid = getattr(event, "uid", "")
        extra["ics_start"] = to_stored(event.start)  # its own offset (preflight shows it)
        if uid:
            extra.update(ics_uid=uid, ics_sequence=event.sequence)
            if event.stamp is not None:
                extra["ics_stamp"] = to_stored(event.stamp)
        if stamp in existing:
            duplicates += 1
            there = existing[stamp]
            if uid and not there.ics_uid:  # imported before UIDs were kept: keep it now
                update_round(db, there.id, ics_uid=uid, ics_sequence=event.sequence)
            continue
        try:
            with db.atomic():  # one event: all of its round or none of it
                round_id = _add_event(db, loop_id, event, types, known, default_type, company)
                minutes = getattr(event, "minutes", None)
                update_round(
                    db, round_id, length_minutes=minutes, link=getattr(event, "link", ""), **extra
                )
        except ValueError as exc:
            named = getattr(event, "named", f"line {event.line}")
            refused.append(f"{named}: {exc} Not imported.")
            continue
        existing[stamp] = get_round(db, round_id)
        added += 1
    return ImportResult(added, duplicates, tuple(messages), tuple(refused))


def _attendees(event) -> tuple:
    return tuple(getattr(event, "attendees", ()) or ())


def _add_event(db, loop_id, event, types, known, default_type, company) -> int:
    """The new round of one event, its type guessed from the summary; an event with no
    known type keeps its own words (shortened to a title, never refused for its length)."""

    rtype = guess_round_type(event.summary, types) or default_type
    label = ""
    if not rtype:  # no known type: keep the event's own words, never an empty type
        # "Acme - Culture and values": the company is the loop's, the round's words the rest
        # "Phone screen: Cobalt Labs <> Alex": neither the company nor a person invited
        people = [p.name for p in (getattr(event, "organizer", None), *_attendees(event)) if p]
        words = short_title(without_company(event.summary or "Round", company, people))
        if _WORD.search(words.lower()):
            rtype, label = type_and_label("", words, known)
        else:  # no letter a slug can hold ("面接"): the words are the label as they are
            rtype, label = type_and_label("", "Round", known)[0], words
    round_id = add_round(
        db,
        loop_id,
        rtype,
        scheduled_at=to_local(event.start),  # local time at that date's offset, as shown
        interviewer_role=getattr(event, "interviewer_role", ""),
        interviewer_name=getattr(event, "interviewer", ""),
    )
    if label:
        update_round(db, round_id, type_label=label)
    return round_id
