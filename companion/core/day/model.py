"""The day model: one pure answer to "what is happening now" for a loop.

``day_view(loop, rounds, rules, now)`` is a function of its inputs alone: the same rows and
the same moment give the same view, so the CLI (`companion today`), the tests and every
page see one answer. Round state is derived, never stored twice::

    scheduled --(start pressed, or scheduled start reached)--> running
    running   --(end pressed, or length passed)--------------> ended
    ended     --(capture saved)-------------------------------> captured
    scheduled --(skip)----------------------------------------> skipped

Writes (start, end, skip, add, reschedule) live in :mod:`companion.core.day.actions`.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import replace

from companion.core.day.due import (
    SLEEP_WORTH,
    due_items,
    late_note,
    reminders_owed,
    reminders_to_send,
    sleep_worth_it,
    thank_you_by,
)
from companion.core.day.loops import Loop, Round
from companion.core.day.round_state import at_time, day_round, first_of_day, local_time, round_title
from companion.core.day.view_types import (
    PHASES,
    STATES,
    BeforeItem,
    DayRound,
    DayRules,
    DayView,
    Due,
)

__all__ = [
    "PHASES",
    "SLEEP_WORTH",
    "STATES",
    "BeforeItem",
    "DayRound",
    "DayRules",
    "DayView",
    "Due",
    "day_round",
    "day_view",
    "late_note",
    "reminders_owed",
    "reminders_to_send",
    "round_title",
    "sleep_worth_it",
]


def day_view(
    loop: Loop | None,
    rounds: Iterable[Round],
    rules: DayRules,
    now: dt.datetime,
    *,
    captured: Iterable[int] = (),
    thank_you_sent: bool = False,
) -> DayView:
    """The whole day at ``now``: phase, current and next round, what is due, next change."""
    captured = set(captured)
    days = tuple(
        sorted(
            (day_round(r, rules, now, r.id in captured) for r in rounds),
            key=lambda d: (d.starts_at is None, d.starts_at or now, d.id),
        )
    )
    running = [d for d in days if d.state == "running"]
    current = max(running, key=lambda d: (d.starts_at, d.id)) if running else None
    upcoming = [d for d in days if d.state == "scheduled" and d.starts_at is not None]
    nxt = upcoming[0] if upcoming else None
    phase, day = _phase(days, current, nxt, rules, now)
    due = tuple(due_items(days, rules, now, loop, thank_you_sent))
    capture_by, capture_round = _capture(days, rules, now)
    thank_by = thank_you_by(days, rules) if loop is not None and not thank_you_sent else None
    view = DayView(
        now=now,
        loop=loop,
        rounds=days,
        phase=phase,
        current=current,
        next=nxt,
        day=day,
        due=due,
        capture_due_by=capture_by,
        capture_round_id=capture_round,
        thank_you_due_by=thank_by,
        next_change=None,
    )
    return _with_next_change(view, rules)


def _phase(days, current, nxt, rules: DayRules, now: dt.datetime) -> tuple[str, dt.date]:
    today = now.date()
    if current is not None:
        return "in-round", local_time(current.starts_at, now).date()
    held_today = [
        d
        for d in days
        if d.state in ("ended", "captured")
        and d.ends_at is not None
        and local_time(d.ends_at, now).date() == today
    ]
    if nxt is not None:
        day = local_time(nxt.starts_at, now).date()
        if nxt.starts_at - now <= rules.before_window:
            return "before-round", day
        if day == today and held_today:
            return "between-rounds", day
        if day == today and now.time() >= rules.morning_from and first_of_day(nxt, days, now):
            return "morning-of", day
        if day == today and first_of_day(nxt, days, now):
            return _night_or_getting_ready(nxt, now), day  # the night lasts until the morning
        tomorrow = today + dt.timedelta(days=1)
        if day == tomorrow and now.time() >= rules.evening_from and first_of_day(nxt, days, now):
            return _night_or_getting_ready(nxt, now), day
        return "none", day if day <= tomorrow else today
    held = [d for d in days if d.state in ("ended", "captured") and d.ends_at is not None]
    if held:
        last = max(held, key=lambda d: d.ends_at)
        if now - last.ends_at <= rules.after_loop_for:
            return "after-loop", local_time(last.starts_at or last.ends_at, now).date()
    return "none", today


def _night_or_getting_ready(first: DayRound, now: dt.datetime) -> str:
    """The night before, while a sleep cycle still fits before the first round; after
    that the morning-of list (get ready: eat light, the walk), even in the night: 20
    minutes before a 2 am round the night-before list said "then stop" and "Go to sleep"."""
    return "night-before" if sleep_worth_it(first.starts_at, now) else "morning-of"


def _capture(days, rules: DayRules, now: dt.datetime) -> tuple[dt.datetime | None, int]:
    """The capture is due within the window after the last ended, uncaptured round."""
    open_ = [
        d
        for d in days
        if d.state == "ended" and d.ends_at is not None and now < d.ends_at + rules.capture_window
    ]
    if not open_:
        return None, 0
    last = max(open_, key=lambda d: d.ends_at)
    return last.ends_at + rules.capture_window, last.id


def _with_next_change(view: DayView, rules: DayRules) -> DayView:
    """The earliest future moment at which the view could differ."""
    now = view.now
    moments: list[dt.datetime] = []
    for d in view.rounds:
        for moment in (d.starts_at, d.ends_at):
            if moment is not None:
                moments.append(moment)
        if d.ends_at is not None and d.round.started and not d.round.ended:
            moments.append(d.ends_at + rules.overrun)
        if d.starts_at is not None and d.state == "scheduled":
            moments += [d.starts_at - rules.before_window, d.starts_at - SLEEP_WORTH]
        if d.ends_at is not None:
            moments += [d.ends_at + rules.capture_window, d.ends_at + rules.after_loop_for]
    for due in view.due:
        moments += [due.due_at, due.expires_at]
    if view.next is not None:
        day = local_time(view.next.starts_at, now).date()
        tz = now.tzinfo
        moments += [
            at_time(day, rules.morning_from, tz),
            at_time(day - dt.timedelta(days=1), rules.evening_from, tz),
        ]
    # the calendar day rolls over at midnight (phases are per day)
    moments.append(at_time(now.date() + dt.timedelta(days=1), dt.time(0, 0), now.tzinfo))
    future = [m for m in moments if m > now]
    return replace(view, next_change=min(future) if future else None)
