"""The day model: one pure answer to "what is happening now", from every loop's rounds.

``day_view(loops, rounds, rules, now)`` is a function of its inputs alone: the same rows and
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
    capture_windows,
    due_items,
    late_note,
    night_of,
    open_thank_yous,
    reminders_owed,
    reminders_to_send,
    sleep_worth_it,
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
    loops: Loop | Iterable[Loop] | None,
    rounds: Iterable[Round],
    rules: DayRules,
    now: dt.datetime,
    *,
    captured: Iterable[int] = (),
    thank_you_sent: bool | Iterable[int] = (),
    shown: int | None = None,
) -> DayView:
    """The whole day at ``now`` from every round of every loop in ``loops``: phase,
    current and next round, what is due, next change. ``thank_you_sent``: the loop ids
    whose note is marked sent (True: every loop's). ``shown`` names the loop the view is
    *about* for a page (its ``loop``); it changes nothing that is due or reminded."""
    by_id = _loops_by_id(loops)
    sent_thanks = set(by_id) if thank_you_sent is True else set(thank_you_sent or ())
    captured = set(captured)
    rounds = list(rounds)
    named = len({r.loop_id for r in rounds if r.loop_id in by_id}) > 1
    days = tuple(
        sorted(
            (_day_round(r, rules, now, r.id in captured, by_id, named) for r in rounds),
            key=lambda d: (d.starts_at is None, d.starts_at or now, d.id),
        )
    )
    running = [d for d in days if d.state == "running"]
    current = max(running, key=lambda d: (d.starts_at, d.id)) if running else None
    upcoming = [d for d in days if d.state == "scheduled" and d.starts_at is not None]
    nxt = upcoming[0] if upcoming else None
    phase, day, after = _phase(days, current, nxt, rules, now)
    due = tuple(due_items(days, rules, now, by_id, sent_thanks))
    capture_by, capture_round = _capture(days, rules, now)
    thank_yous = tuple(
        (lp, by) for lp, by in open_thank_yous(days, rules, by_id, sent_thanks) if _over(lp, days)
    )
    focus = after if phase == "after-loop" else current or nxt
    loop = _about(by_id, shown, focus, after)
    thank_by = next(
        (by for lp, by in open_thank_yous(days, rules, by_id, sent_thanks) if lp == loop), None
    )
    first = _first_of_next_day(days, nxt, now)
    window, night = night_of(first, rules, now) if first is not None else (None, False)
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
        loops=tuple(by_id.values()),
        thank_yous=thank_yous,
        sleep_window=window,
        night_round=night,
        after_loop_id=(after.round.loop_id or 0) if after else 0,
        after_loop_day=local_time(after.starts_at or after.ends_at, now).date() if after else None,
    )
    return _with_next_change(view, rules)


def _over(loop: Loop, days) -> bool:
    """Whether none of ``loop``'s rounds runs or is still to come."""
    return not any(
        d.round.loop_id == loop.id and d.state in ("running", "scheduled") and d.starts_at
        for d in days
    )


def _loops_by_id(loops) -> dict[int, Loop]:
    if loops is None:
        return {}
    if isinstance(loops, Loop):
        return {loops.id: loops}
    return {lp.id: lp for lp in loops}


def _day_round(rnd: Round, rules, now, captured: bool, by_id, named: bool) -> DayRound:
    """A round as the day sees it; named with its company when loops share the day."""
    d = day_round(rnd, rules, now, captured)
    loop = by_id.get(rnd.loop_id)
    if not named or loop is None:
        return d
    return replace(d, title=f"{loop.company} · {d.title}", company=loop.company)


def _about(by_id, shown, focus, after) -> Loop | None:
    """The loop a page shows first: the one asked for, else the running or next round's,
    else the loop whose after-loop is open, else the newest loop with a round."""
    if shown in by_id:
        return by_id[shown]
    for d in (focus, after):
        if d is not None and d.round.loop_id in by_id:
            return by_id[d.round.loop_id]
    return next(iter(by_id.values()), None)


def _first_of_next_day(days, nxt, now) -> DayRound | None:
    if nxt is None:
        return None
    return next((d for d in days if d.state != "skipped" and d.starts_at is not None
                 and first_of_day(d, days, now) and local_time(d.starts_at, now).date()
                 == local_time(nxt.starts_at, now).date()), None)  # fmt: skip


def _phase(days, current, nxt, rules: DayRules, now: dt.datetime):
    """(phase, interview day, the last ended round of a loop whose after-loop is open)."""
    today = now.date()
    after = _after_loop(days, rules, now)
    if current is not None:
        return "in-round", local_time(current.starts_at, now).date(), after
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
            return "before-round", day, after
        if day == today and held_today:
            return "between-rounds", day, after
        if day == today and now.time() >= rules.morning_from and first_of_day(nxt, days, now):
            return "morning-of", day, after
        if day == today and first_of_day(nxt, days, now):
            return _night_or_getting_ready(nxt, rules, now), day, after
        tomorrow = today + dt.timedelta(days=1)
        if day == tomorrow and now.time() >= rules.evening_from and first_of_day(nxt, days, now):
            return _night_or_getting_ready(nxt, rules, now), day, after
    if after is not None:
        # a loop is over and its after-loop items are open: they stay whatever loop
        # comes next (another loop's rounds next week must not hide its thank-you)
        return "after-loop", local_time(after.starts_at or after.ends_at, now).date(), after
    if nxt is not None:
        day = local_time(nxt.starts_at, now).date()
        return "none", day if day <= today + dt.timedelta(days=1) else today, after
    return "none", today, after


def _after_loop(days, rules: DayRules, now: dt.datetime) -> DayRound | None:
    """The last ended round of the loop most recently over, while its after-loop window
    is open: a loop is over when none of its rounds is running or still to come."""
    best = None
    for loop_id in {d.round.loop_id for d in days}:
        mine = [d for d in days if d.round.loop_id == loop_id]
        if any(d.state in ("running", "scheduled") and d.starts_at is not None for d in mine):
            continue
        held = [d for d in mine if d.state in ("ended", "captured") and d.ends_at is not None]
        if not held:
            continue
        last = max(held, key=lambda d: d.ends_at)
        if now - last.ends_at <= rules.after_loop_for and (
            best is None or last.ends_at > best.ends_at
        ):
            best = last
    return best


def _night_or_getting_ready(first: DayRound, rules: DayRules, now: dt.datetime) -> str:
    """The night before, while a sleep cycle (the pack's margin) still fits before the
    first round; after that the morning-of list (get ready), even in the night: 20
    minutes before a 2 am round the night-before list said "then stop" and "Go to sleep"."""
    return (
        "night-before" if sleep_worth_it(first.starts_at, now, rules.sleep_margin) else "morning-of"
    )


def _capture(days, rules: DayRules, now: dt.datetime) -> tuple[dt.datetime | None, int]:
    """The capture of the last ended, uncaptured round is due by the end of its window,
    counted to the next break: a window the next round cuts ends at that round's start
    (it resumes after it)."""
    best = None
    for d in days:
        if d.state != "ended" or d.ends_at is None:
            continue
        open_ = [b for _a, b in capture_windows(d, days, rules) if now < b]
        if open_ and (best is None or d.ends_at > best[0].ends_at):
            best = (d, open_[0])
    if best is None:
        return None, 0
    return best[1], best[0].id


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
            moments += [d.starts_at - rules.before_window, d.starts_at - rules.sleep_margin]
        if d.ends_at is not None:
            moments += [d.ends_at + rules.capture_window, d.ends_at + rules.after_loop_for]
    for due in view.due:
        moments += [due.due_at, due.expires_at]
    if view.sleep_window is not None:
        moments += list(view.sleep_window)
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
