"""A loop's schedule and what the day calls for right now.

Pure functions of the rounds and a moment (``now`` comes from the context's clock), so
the whole day can be tested with a fake clock: which phase is current, how long until the
next round, which day the checklists are for, and which reminders are due.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from companion.core.content_plans import FALLBACK_BEFORE_ROUND, BeforeStep
from companion.core.loops import Round

# Fallbacks only, for callers without the content pack: the pack gives round lengths
# (`minutes:` in the rounds section, ANY_TYPE below), the before-round offsets and their
# texts (`minutes_before:` items) and the reminder texts (checklists' `reminder:`).
DEFAULT_ROUND_MINUTES = 60
ANY_TYPE = "*"  # key in a lengths dict: the pack's length for a type without its own
BEFORE_WINDOW = dt.timedelta(minutes=15)  # the before-round list comes up this early
EVENING_FROM = dt.time(17, 0)  # the night-before list comes up from this hour
MORNING_FROM = dt.time(5, 0)
AFTER_LOOP_FOR = dt.timedelta(hours=48)
STALE_START = dt.timedelta(hours=4)  # a round "started" longer ago than this is over

IN_ROUND = "in-round"
PHASES = ("night-before", "morning-of", "before-round", "after-loop")


@dataclass(frozen=True)
class Situation:
    """What the Today page should bring up at one moment."""

    phase: str | None  # a checklist phase, IN_ROUND, or None (nothing due)
    round: Round | None  # the round the phase is about (current or next)
    next_round: Round | None
    starts_in: dt.timedelta | None  # until next_round starts
    day: dt.date  # the interview day the checklists are kept for


@dataclass(frozen=True)
class Reminder:
    key: str  # stable, so a reminder is sent once
    title: str
    message: str
    phase: str
    round_id: int = 0


def _local(moment: dt.datetime, now: dt.datetime) -> dt.datetime:
    return moment.astimezone(now.tzinfo)


def round_minutes(rnd: Round, lengths: dict[str, int] | None = None) -> int:
    lengths = lengths or {}
    return lengths.get(rnd.type) or lengths.get(ANY_TYPE) or DEFAULT_ROUND_MINUTES


def in_progress(rnd: Round, now: dt.datetime, lengths: dict[str, int] | None = None) -> bool:
    if rnd.ended_at:
        return False
    if rnd.started:
        return rnd.started <= now < rnd.started + STALE_START
    start = rnd.scheduled
    if start is None:
        return False
    return start <= now < start + dt.timedelta(minutes=round_minutes(rnd, lengths))


def is_over(rnd: Round, now: dt.datetime, lengths: dict[str, int] | None = None) -> bool:
    if rnd.ended_at:
        return True
    if rnd.started:
        return now >= rnd.started + STALE_START
    start = rnd.scheduled
    return start is not None and now >= start + dt.timedelta(minutes=round_minutes(rnd, lengths))


def end_of(rnd: Round, lengths: dict[str, int] | None = None) -> dt.datetime | None:
    """When a round ended (or is expected to end)."""
    if rnd.ended:
        return rnd.ended
    start = rnd.started or rnd.scheduled
    if start is None:
        return None
    return start + dt.timedelta(minutes=round_minutes(rnd, lengths))


def upcoming(rounds: Iterable[Round], now: dt.datetime) -> list[Round]:
    """Scheduled rounds that have not started yet, soonest first."""
    found = [
        r
        for r in rounds
        if r.scheduled and r.scheduled > now and not r.started_at and not r.ended_at
    ]
    return sorted(found, key=lambda r: (r.scheduled, r.id))


def next_round(rounds: Iterable[Round], now: dt.datetime) -> Round | None:
    soon = upcoming(rounds, now)
    return soon[0] if soon else None


def _first_of_day(rnd: Round, rounds: list[Round], now: dt.datetime) -> bool:
    day = _local(rnd.scheduled, now).date()
    return not any(
        other.id != rnd.id
        and (other.scheduled or other.started)
        and _local(other.scheduled or other.started, now).date() == day
        and (other.scheduled or other.started) < rnd.scheduled
        for other in rounds
    )


def situation(
    rounds: Iterable[Round],
    now: dt.datetime,
    lengths: dict[str, int] | None = None,
    before_window: dt.timedelta | None = None,
) -> Situation:
    """The phase to bring up at ``now``: in a round, before one, the morning of, the
    evening before, after the loop, or nothing. The before-round phase opens
    ``before_window`` ahead (the pack's earliest ``minutes_before:``)."""
    before_window = before_window or BEFORE_WINDOW
    rounds = list(rounds)
    today = now.date()
    nxt = next_round(rounds, now)
    starts_in = nxt.scheduled - now if nxt else None
    current = next((r for r in rounds if in_progress(r, now, lengths)), None)
    if current is not None:
        start = current.started or current.scheduled
        return Situation(IN_ROUND, current, nxt, starts_in, _local(start, now).date())
    if nxt is not None:
        day = _local(nxt.scheduled, now).date()
        if starts_in <= before_window:
            return Situation("before-round", nxt, nxt, starts_in, day)
        if day == today and now.time() >= MORNING_FROM and _first_of_day(nxt, rounds, now):
            return Situation("morning-of", nxt, nxt, starts_in, day)
        if (
            day == today + dt.timedelta(days=1)
            and now.time() >= EVENING_FROM
            and _first_of_day(nxt, rounds, now)
        ):
            return Situation("night-before", nxt, nxt, starts_in, day)
        list_day = day if day <= today + dt.timedelta(days=1) else today
        return Situation(None, nxt, nxt, starts_in, list_day)
    held = [r for r in rounds if is_over(r, now, lengths) and end_of(r, lengths)]
    if held:
        last = max(held, key=lambda r: end_of(r, lengths))
        if now - end_of(last, lengths) <= AFTER_LOOP_FOR:
            start = last.started or last.scheduled or end_of(last, lengths)
            return Situation("after-loop", last, None, None, _local(start, now).date())
    return Situation(None, None, None, None, today)


def before_window(steps: Sequence[BeforeStep]) -> dt.timedelta:
    """How early the before-round phase opens: the earliest offset of the pack's steps."""
    minutes = max((s.minutes for s in steps), default=0)
    return dt.timedelta(minutes=minutes) if minutes > 0 else BEFORE_WINDOW


def _before_round_reminder(
    rnd: Round, now: dt.datetime, steps: Sequence[BeforeStep], titles: dict[str, str]
) -> Reminder | None:
    """One reminder per offset of the pack: the latest offset whose time has come, with
    the texts of the steps due then (earlier offsets were sent at their own time)."""
    left = rnd.scheduled - now
    due = [s.minutes for s in steps if left <= dt.timedelta(minutes=s.minutes)]
    if not due:
        return None
    offset = min(due)
    texts = [s.text.rstrip(".") + "." for s in steps if s.minutes == offset]
    minutes = max(1, round(left.total_seconds() / 60))
    name = round_title(rnd, titles)
    return Reminder(
        key=f"before-round:{rnd.id}:{rnd.scheduled_at}:{offset}",
        title=f"{name} in {minutes} min ({clock_text(rnd.scheduled, now)})",
        message=" ".join(texts),
        phase="before-round",
        round_id=rnd.id,
    )


def due_reminders(
    rounds: Iterable[Round],
    now: dt.datetime,
    *,
    titles: dict[str, str] | None = None,
    lengths: dict[str, int] | None = None,
    before: Sequence[BeforeStep] = (),
    messages: dict[str, str] | None = None,
) -> list[Reminder]:
    """Reminders that apply at ``now``; the caller sends each key once. ``before`` are the
    pack's timed before-round steps, ``messages`` its reminder text per phase."""
    rounds = list(rounds)
    titles = titles or {}
    messages = messages or {}
    steps = tuple(before) or FALLBACK_BEFORE_ROUND  # no pack given
    reminders: list[Reminder] = []
    for rnd in upcoming(rounds, now):
        reminder = _before_round_reminder(rnd, now, steps, titles)
        if reminder is not None:
            reminders.append(reminder)
    now_is = situation(rounds, now, lengths, before_window(before) if before else None)
    if now_is.phase == "morning-of":
        reminders.append(
            Reminder(
                key=f"morning-of:{now_is.day.isoformat()}",
                title=f"Interview day: first round at {clock_text(now_is.round.scheduled, now)}",
                message=messages.get("morning-of")
                or "Keep the morning light; the morning-of checklist is on the Today page.",
                phase="morning-of",
                round_id=now_is.round.id,
            )
        )
    elif now_is.phase == "night-before":
        reminders.append(
            Reminder(
                key=f"night-before:{now_is.day.isoformat()}",
                title=f"Tomorrow: first round at {clock_text(now_is.round.scheduled, now)}",
                message=messages.get("night-before")
                or "Set tomorrow up tonight, then stop: the night-before checklist is ready.",
                phase="night-before",
                round_id=now_is.round.id,
            )
        )
    elif now_is.phase == "after-loop":
        ended = end_of(now_is.round, lengths)
        if ended and now - ended <= dt.timedelta(hours=2):
            reminders.append(
                Reminder(
                    key=f"after-loop:{now_is.round.loop_id}:{now_is.day.isoformat()}",
                    title="The loop is done",
                    message=messages.get("after-loop")
                    or "Write down every question you were asked, within the hour.",
                    phase="after-loop",
                    round_id=now_is.round.id,
                )
            )
    return reminders


def round_title(rnd: Round, titles: dict[str, str] | None = None) -> str:
    name = (
        (titles or {}).get(rnd.type) or rnd.type.replace("-", " ").strip().capitalize() or "Round"
    )
    return f"{name} round" if "round" not in name.lower() else name


def clock_text(moment: dt.datetime, now: dt.datetime) -> str:
    """10:00, or "Tue 1 Dec 10:00" when not today."""
    local = _local(moment, now)
    if local.date() == now.date():
        return local.strftime("%H:%M")
    return f"{local.strftime('%a')} {local.day} {local.strftime('%b %H:%M')}"


def countdown_text(delta: dt.timedelta) -> str:
    """ "in 1 h 05 min", "in 4 min 30 s", "now"."""
    seconds = int(delta.total_seconds())
    if seconds <= 0:
        return "now"
    days, rest = divmod(seconds, 86400)
    hours, rest = divmod(rest, 3600)
    minutes, secs = divmod(rest, 60)
    if days:
        return f"in {days} d {hours} h"
    if hours:
        return f"in {hours} h {minutes:02d} min"
    if minutes >= 10:
        return f"in {minutes} min"
    return f"in {minutes} min {secs:02d} s"


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
    now: Callable[[], dt.datetime] | None = None,
) -> ImportResult:
    """Add calendar events as scheduled rounds of a loop; an event at a time the loop
    already has a round at is skipped, so importing the same file twice is harmless."""
    from companion.core.loops import add_round, iso, list_rounds

    types = list(types)
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
            stamp = iso(event.start)
            if stamp in existing:
                duplicates += 1
                continue
            rtype = guess_round_type(event.summary, types) or default_type
            add_round(db, loop_id, rtype, scheduled_at=event.start)
            existing.add(stamp)
            added += 1
    return ImportResult(added, duplicates, tuple(messages))


@dataclass(frozen=True)
class DayView:
    """Everything the Today and Checklist pages show, computed once per refresh."""

    loop: object | None  # companion.core.loops.Loop
    rounds: tuple[Round, ...]
    situation: Situation
    titles: dict[str, str]
    lengths: dict[str, int]
    before: tuple[BeforeStep, ...] = ()  # the pack's timed before-round steps
    messages: dict[str, str] = field(default_factory=dict)  # reminder text per phase

    @property
    def loop_id(self) -> int:
        return self.loop.id if self.loop is not None else 0


def day_view(db, content, now: dt.datetime, loop_id: int | None = None) -> DayView:
    """The chosen loop (or the current one) with its rounds and what is due at ``now``."""
    from companion.core.loops import current_loop, get_loop, list_rounds

    loop = get_loop(db, loop_id) if loop_id else None
    loop = loop or current_loop(db, now.date())
    rounds = tuple(list_rounds(db, loop.id)) if loop else ()
    titles = {t.id: t.title for t in content.round_types()}
    lengths = round_lengths(content.by_kind("rounds"))
    lengths[ANY_TYPE] = content.round_defaults().minutes
    before = content.before_round_steps()
    messages = {phase: content.reminder_text(phase) for phase in PHASES}
    sit = situation(rounds, now, lengths, before_window(before))
    return DayView(loop, rounds, sit, titles, lengths, before, messages)
