"""What is due by when: the night-before and morning-of notes, the steps before each
round, the capture after it and the thank-you note; and which reminders are owed now."""

from __future__ import annotations

import datetime as dt
from dataclasses import replace

from companion.core.day.clock import clock_text
from companion.core.day.round_state import at_time, first_of_day, local_time
from companion.core.day.view_types import DayRound, DayRules, DayView, Due, thank_you_key

# the fallback margin: "go to sleep" only while a whole sleep cycle fits before the first
# round (the pack's night-before ``sleep_margin:`` sets it; see DayRules)
SLEEP_WORTH = dt.timedelta(minutes=90)


def sleep_worth_it(
    first_start: dt.datetime, now: dt.datetime, margin: dt.timedelta = SLEEP_WORTH
) -> bool:
    """Whether the night-before list still applies with the first round at
    ``first_start`` (a sleep cycle of ``margin`` still fits before it)."""
    return first_start - now > margin


def night_of(first: DayRound, rules: DayRules, now: dt.datetime):
    """The night before ``first`` (the first round of its day): (the sleep line's window
    or None, whether the round falls in the night). The window runs from the pack's night
    switch (the guide's 1 am) to ``sleep_margin`` before the round, and never past the
    morning; a round before the morning is a night round (no morning walk before it)."""
    local = local_time(first.starts_at, now)
    day = local.date()
    morning = at_time(day, rules.morning_from, local.tzinfo)
    sleep_from = at_time(day, rules.night_from, local.tzinfo)
    if rules.night_from >= rules.evening_from:  # a switch before midnight: the evening's
        sleep_from -= dt.timedelta(days=1)
    sleep_until = min(morning, first.starts_at - rules.sleep_margin)
    window = (sleep_from, sleep_until) if sleep_from < sleep_until else None
    return window, first.starts_at <= morning


def due_items(days, rules: DayRules, now: dt.datetime, loops, sent_thanks) -> list[Due]:
    """Everything due by when, for every loop in ``days``; ``loops`` by id, and the ids
    whose thank-you is marked sent. Nothing falls due inside another round (see
    :func:`hold_to_breaks`)."""
    out: list[Due] = []
    scheduled = [d for d in days if d.state != "skipped" and d.starts_at is not None]
    # the first round of each interview day: the evening before and the morning of
    firsts = [d for d in scheduled if d.round.scheduled and first_of_day(d, scheduled, now)]
    for first in firsts:
        first_local = local_time(first.starts_at, now)
        day = first_local.date()
        evening = at_time(day - dt.timedelta(days=1), rules.evening_from, first_local.tzinfo)
        morning = at_time(day, rules.morning_from, first_local.tzinfo)
        night_ends = min(morning, first.starts_at)
        window, _night = night_of(first, rules, now)
        sleep_line = rules.texts.get("sleep", "")
        who = f" ({first.company})" if first.company else ""  # named when loops share days
        if evening < first.starts_at:
            out.append(
                Due(
                    f"night-before:{first.round.loop_id}:{day.isoformat()}",
                    "night-before",
                    f"Tomorrow: first round at {first_local:%H:%M}{who}",
                    rules.texts.get("night-before")
                    or "Set tomorrow up tonight, then stop: the night-before list is ready.",
                    evening,
                    # it gives way to the sleep line, else ends when no sleep fits any more
                    min(window[0], night_ends)
                    if sleep_line and window
                    else min(night_ends, first.starts_at - rules.sleep_margin),
                    first.id,
                )
            )
        if sleep_line and window:
            # from the pack's night switch the night-before list leads with its sleep
            # line, while a sleep is still worth having before the round
            out.append(
                Due(
                    f"night-before-sleep:{first.round.loop_id}:{day.isoformat()}",
                    "night-before",
                    f"{sleep_line}: first round at {first_local:%H:%M}{who}",
                    rules.texts.get("sleep-why", ""),
                    window[0],
                    window[1],
                    first.id,
                )
            )
        if morning < first.starts_at:
            out.append(
                Due(
                    f"morning-of:{first.round.loop_id}:{day.isoformat()}",
                    "morning-of",
                    f"Interview day: first round at {first_local:%H:%M}{who}",
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
    for loop, thank_by in open_thank_yous(days, rules, loops, sent_thanks):
        out.append(
            Due(
                thank_you_key(loop.id),
                "thank-you",
                f"Thank-you note: {loop.company}" if len(loops) > 1 else "Thank-you note",
                f"Your thank-you to {loop.company} is due by {clock_text(thank_by, now)}. "
                "The draft is in the Journal.",
                thank_by - rules.thank_you_remind_before,
                thank_by + dt.timedelta(days=3),
                0,
            )
        )
    out = hold_to_breaks(out, days, now)
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


def open_thank_yous(days, rules: DayRules, loops, sent_thanks):
    """(loop, due by) for every loop of ``loops`` (by id) with a round in ``days`` whose
    thank-you is not marked sent, in loop order."""
    out = []
    for loop_id, loop in loops.items():
        if loop_id in sent_thanks:
            continue
        by = thank_you_by([d for d in days if d.round.loop_id == loop_id], rules)
        if by is not None:
            out.append((loop, by))
    return out


def busy_spans(days, now: dt.datetime) -> list[tuple[dt.datetime, dt.datetime, int]]:
    """(start, end, round id) of every round that runs or is still to run: a round
    pressed Start and running past its length is busy until it ends (now, a minute on)."""
    spans = []
    for d in days:
        if d.starts_at is None or d.ends_at is None:
            continue
        if d.state == "running":
            late = now + dt.timedelta(minutes=1) if d.round.started else d.ends_at
            spans.append((d.starts_at, max(d.ends_at, late), d.id))
        elif d.state == "scheduled":
            spans.append((d.starts_at, d.ends_at, d.id))
    return spans


def hold_to_breaks(items: list[Due], days, now: dt.datetime) -> list[Due]:
    """Nothing falls due inside another round: an item whose moment lies inside a round
    that runs (or is still to run) is held to that round's end, the break; a before-round
    step held to or past its round's start is dropped (its moment has passed; the start
    notice may still go out at a break that is the start itself), and so is anything held
    past its expiry."""
    spans = busy_spans(days, now)
    starts = {d.id: d.starts_at for d in days}
    out = []
    for item in items:
        at = item.due_at
        moved = True
        while moved:
            moved = False
            for start, end, round_id in spans:
                if round_id != item.round_id and start <= at < end:
                    at, moved = end, True
        if at != item.due_at:
            start = starts.get(item.round_id)
            if item.kind == "before-round" and start is not None and at >= start:
                continue
            if item.kind == "start-soon" and start is not None and at > start:
                continue
            if at >= item.expires_at:
                continue
            item = replace(item, due_at=at)
        out.append(item)
    return out


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
