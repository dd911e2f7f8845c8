"""What is due by when: the night-before and morning-of notes, the steps before each
round, the capture after it and the thank-you note; and which reminders are owed now."""

from __future__ import annotations

import datetime as dt
from dataclasses import replace

from companion.core.day.clock import clock_text
from companion.core.day.round_state import at_time, first_of_day, local_time
from companion.core.day.view_types import DayRound, DayRules, DayView, Due

# "go to sleep" only while a whole sleep cycle fits before the first round: eleven
# minutes before a 2 am round it is no advice, and a notification of it is noise
SLEEP_WORTH = dt.timedelta(minutes=90)


def sleep_worth_it(first_start: dt.datetime, now: dt.datetime) -> bool:
    """Whether the night-before sleep line still applies with the first round at
    ``first_start`` (the reminder's window ends at the same moment)."""
    return first_start - now > SLEEP_WORTH


def due_items(days, rules: DayRules, now: dt.datetime, loop, thank_you_sent: bool) -> list[Due]:
    out: list[Due] = []
    scheduled = [d for d in days if d.state != "skipped" and d.starts_at is not None]
    # the first round of each interview day: the evening before and the morning of
    firsts = [d for d in scheduled if d.round.scheduled and first_of_day(d, scheduled, now)]
    for first in firsts:
        first_local = local_time(first.starts_at, now)
        day = first_local.date()
        evening = at_time(day - dt.timedelta(days=1), rules.evening_from, first_local.tzinfo)
        morning = at_time(day, rules.morning_from, first_local.tzinfo)
        midnight = at_time(day, dt.time(0, 0), first_local.tzinfo)
        night_ends = min(morning, first.starts_at)
        sleep_ends = min(night_ends, first.starts_at - SLEEP_WORTH)
        sleep_line = rules.texts.get("sleep", "")
        sleep = sleep_line if midnight < sleep_ends else ""
        if evening < first.starts_at:
            out.append(
                Due(
                    f"night-before:{first.round.loop_id}:{day.isoformat()}",
                    "night-before",
                    f"Tomorrow: first round at {first_local:%H:%M}",
                    rules.texts.get("night-before")
                    or "Set tomorrow up tonight, then stop: the night-before list is ready.",
                    evening,
                    min(midnight, night_ends) if sleep_line else night_ends,
                    first.id,
                )
            )
        if sleep:
            # past midnight the night-before list leads with its sleep line (the pack's),
            # while a sleep is still worth having before the round
            out.append(
                Due(
                    f"night-before-sleep:{first.round.loop_id}:{day.isoformat()}",
                    "night-before",
                    f"{sleep}: first round at {first_local:%H:%M}",
                    rules.texts.get("sleep-why", ""),
                    midnight,
                    sleep_ends,
                    first.id,
                )
            )
        if morning < first.starts_at:
            out.append(
                Due(
                    f"morning-of:{first.round.loop_id}:{day.isoformat()}",
                    "morning-of",
                    f"Interview day: first round at {first_local:%H:%M}",
                    rules.texts.get("morning-of")
                    or "Keep the morning light; the morning-of list is on the Today page.",
                    morning,
                    # once the before-round list is up, the morning's news is stale
                    max(morning, first.starts_at - rules.before_window),
                    first.id,
                )
            )
    # before each round: one reminder per offset, the content's steps at that offset
    for d in scheduled:
        if d.round.started_at or d.round.scheduled is None:
            continue
        first_today = first_of_day(d, scheduled, now)
        by_offset: dict[int, list[str]] = {}
        for item in rules.before:
            if first_today or not item.first_round_only:
                by_offset.setdefault(item.minutes, []).append(item.text)
        start = d.round.scheduled
        for minutes in sorted(by_offset, reverse=True):
            at = start - dt.timedelta(minutes=minutes)
            out.append(
                Due(
                    f"before-round:{d.id}:{d.round.scheduled_at}:{minutes}",
                    "before-round",
                    f"{d.title} in {minutes} min ({clock_text(start, now)})",
                    " ".join(_sentence(t) for t in by_offset[minutes]),
                    at,
                    start,
                    d.id,
                )
            )
        if rules.start_soon:
            out.append(
                Due(
                    f"start-soon:{d.id}:{d.round.scheduled_at}",
                    "start-soon",
                    f"{d.title} starts in 1 minute ({clock_text(start, now)})",
                    rules.texts.get("start-soon", ""),
                    start - rules.start_soon,
                    start + dt.timedelta(minutes=5),
                    d.id,
                )
            )
    # after each round: write down what was asked, within the capture window
    for d in days:
        if d.state == "ended" and d.ends_at is not None:
            for n, (due_at, expires_at) in enumerate(capture_windows(d, days, rules)):
                out.append(
                    Due(
                        f"capture:{d.id}" + (f":{n}" if n else ""),
                        "capture",
                        f"{_named(d, now)}: write it down",
                        rules.texts.get("after-loop")
                        or "Note every question you were asked while it is fresh.",
                        due_at,
                        expires_at,
                        d.id,
                    )
                )
    thank_by = thank_you_by(days, rules)
    if loop is not None and thank_by is not None and not thank_you_sent:
        out.append(
            Due(
                f"thank-you:{loop.id}",
                "thank-you",
                "Thank-you note",
                f"Your thank-you to {loop.company} is due by {clock_text(thank_by, now)}. "
                "The draft is in the Journal.",
                thank_by - rules.thank_you_remind_before,
                thank_by + dt.timedelta(days=3),
                0,
            )
        )
    return sorted(out, key=lambda d: (d.due_at, d.key))


def _sentence(text: str) -> str:
    text = text.strip()
    return text if text.endswith((".", "!", "?")) else text + "."


def capture_windows(d: DayRound, days, rules: DayRules) -> list[tuple[dt.datetime, dt.datetime]]:
    """When the capture reminder of ``d`` may fire: its window after the round, never
    inside a later round; a window cut by the next round resumes at the next break (that
    round's end), and so on to the loop's end."""
    later = sorted(
        (r for r in days if r.id != d.id and r.state != "skipped" and r.starts_at is not None),
        key=lambda r: r.starts_at,
    )
    windows = []
    start = d.ends_at
    for _ in range(len(later) + 1):
        nxt = next((r for r in later if r.starts_at >= start), None)
        if nxt is None or nxt.starts_at >= start + rules.capture_window:
            windows.append((start, start + rules.capture_window))
            break
        if nxt.starts_at > start:
            windows.append((start, nxt.starts_at))
        ends = nxt.ends_at or nxt.starts_at + dt.timedelta(minutes=nxt.minutes)
        if ends <= start:
            break
        start = ends
    return windows


def thank_you_by(days, rules: DayRules) -> dt.datetime | None:
    """24 h (content) after the loop's last round ends: actual end, else expected."""
    ends = [d.ends_at for d in days if d.state != "skipped" and d.ends_at is not None]
    return max(ends) + rules.thank_you_after if ends else None


def reminders_owed(view: DayView, sent: set[str] | frozenset[str]) -> list[Due]:
    """The reminders due at ``view.now`` and not yet sent; a missed one is still owed
    (late, with its time) until it expires."""
    return [d for d in view.due if d.due_at <= view.now < d.expires_at and d.key not in sent]


def reminders_to_send(view: DayView, sent: set[str] | frozenset[str]) -> list[Due]:
    """What to show of :func:`reminders_owed`: of several owed for the same round and kind
    (the app was closed through 15, 10 and 7 minutes before), only the newest; of the
    captures of several rounds owed at one break, one (:func:`_one_capture`)."""
    owed = reminders_owed(view, sent)
    newest: dict[tuple[str, int], Due] = {}
    for item in owed:
        group = (item.kind, item.round_id)
        if group not in newest or item.due_at > newest[group].due_at:
            newest[group] = item
    return _one_capture([d for d in owed if newest[(d.kind, d.round_id)] is d], view)


def _one_capture(items: list[Due], view: DayView) -> list[Due]:
    """The capture of the round that ended last, naming the other rounds not yet written
    down, in place of one notification per round: the end of a third round with two
    earlier ones unwritten put three on the screen at once, while Today lists one."""
    captures = [d for d in items if d.kind == "capture" and view.round(d.round_id)]
    if len(captures) < 2:
        return items
    rounds = {d.round_id: view.round(d.round_id) for d in captures}
    lead = max(captures, key=lambda d: (rounds[d.round_id].ends_at, d.round_id))
    others = sorted(
        (d for d in captures if d is not lead), key=lambda d: rounds[d.round_id].ends_at
    )
    also = ", ".join(_named(rounds[d.round_id], view.now) for d in others)
    merged = replace(lead, text=f"{lead.text} Not written down yet either: {also}.")
    folded = {id(d) for d in others}
    return [merged if d is lead else d for d in items if id(d) not in folded]


def _named(d: DayRound, now: dt.datetime) -> str:
    """A round as the capture reminder's title names it: "Coding (10:00)"."""
    return d.title + (f" ({clock_text(d.starts_at, now)})" if d.starts_at else "")


def late_note(due: Due, now: dt.datetime) -> str:
    """ " (due at 10:50)" when a reminder goes out more than two minutes late."""
    if now - due.due_at > dt.timedelta(minutes=2):
        return f" (due at {clock_text(due.due_at, now)})"
    return ""
