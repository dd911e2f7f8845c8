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
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from companion.core.day.clock import clock_text
from companion.core.day.lengths import round_minutes
from companion.core.day.links import call_link
from companion.core.day.loops import Loop, Round

PHASES = (
    "night-before",
    "morning-of",
    "before-round",
    "in-round",
    "between-rounds",
    "after-loop",
    "none",
)
STATES = ("scheduled", "running", "ended", "captured", "skipped")


@dataclass(frozen=True)
class BeforeItem:
    """One thing to do a number of minutes before each round (from the content)."""

    minutes: int
    text: str
    first_round_only: bool = False  # the guide's morning items: before the day's first round


# "go to sleep" only while a whole sleep cycle fits before the first round: eleven
# minutes before a 2 am round it is no advice, and a notification of it is noise
SLEEP_WORTH = dt.timedelta(minutes=90)


def sleep_worth_it(first_start: dt.datetime, now: dt.datetime) -> bool:
    """Whether the night-before sleep line still applies with the first round at
    ``first_start`` (the reminder's window ends at the same moment)."""
    return first_start - now > SLEEP_WORTH


@dataclass(frozen=True)
class DayRules:
    """The numbers the day runs on. :func:`companion.core.day.rules.day_rules` reads them
    from the content packs; these defaults stand in only when a pack is broken."""

    titles: Mapping[str, str] = field(default_factory=dict)  # round type id -> title
    lengths: Mapping[str, int] = field(default_factory=dict)  # type id -> minutes (lengths.py)
    default_minutes: int = 45
    before: tuple[BeforeItem, ...] = ()
    before_window: dt.timedelta = dt.timedelta(minutes=15)
    evening_from: dt.time = dt.time(17, 0)
    morning_from: dt.time = dt.time(5, 0)
    capture_window: dt.timedelta = dt.timedelta(hours=1)
    thank_you_after: dt.timedelta = dt.timedelta(hours=24)
    thank_you_remind_before: dt.timedelta = dt.timedelta(hours=4)
    after_loop_for: dt.timedelta = dt.timedelta(hours=48)
    start_soon: dt.timedelta = dt.timedelta(minutes=1)
    # a round whose Start was pressed may run long: the day counts it ended only this
    # long after its length (End ends it at once); a round never started ends on time
    overrun: dt.timedelta = dt.timedelta(minutes=30)
    texts: Mapping[str, str] = field(default_factory=dict)  # reminder text per phase


@dataclass(frozen=True)
class DayRound:
    """A round as the day sees it at one moment."""

    round: Round
    state: str  # one of STATES
    title: str
    starts_at: dt.datetime | None  # started, else scheduled
    ends_at: dt.datetime | None  # ended, else expected end
    minutes: int
    captured: bool

    @property
    def id(self) -> int:
        return self.round.id

    @property
    def type(self) -> str:
        return self.round.type

    @property
    def interviewer(self) -> str:
        return self.round.interviewer_name

    @property
    def link(self) -> str:
        """The round's call link when it is an http(s) address (the only kind offered)."""
        return call_link(self.round.link)


@dataclass(frozen=True)
class Due:
    """Something due by a time: a before-round step, a reminder, the capture, the note."""

    key: str  # stable: a reminder with this key is sent once
    kind: str  # night-before | morning-of | before-round | start-soon | capture | thank-you
    title: str
    text: str
    due_at: dt.datetime
    expires_at: dt.datetime  # after this it is no longer worth sending
    round_id: int = 0


@dataclass(frozen=True)
class DayView:
    now: dt.datetime
    loop: Loop | None
    rounds: tuple[DayRound, ...]
    phase: str
    current: DayRound | None
    next: DayRound | None
    day: dt.date  # the interview day the checklists are kept for
    due: tuple[Due, ...]
    capture_due_by: dt.datetime | None
    capture_round_id: int
    thank_you_due_by: dt.datetime | None
    next_change: dt.datetime | None

    @property
    def loop_id(self) -> int:
        return self.loop.id if self.loop is not None else 0

    def round(self, round_id: int) -> DayRound | None:
        return next((r for r in self.rounds if r.id == round_id), None)

    @property
    def focus(self) -> DayRound | None:
        """The round the day is about: the running one, else the next one."""
        return self.current or self.next


# --- helpers ------------------------------------------------------------------------


def _local(moment: dt.datetime, now: dt.datetime) -> dt.datetime:
    return moment.astimezone(now.tzinfo)


def round_title(rnd: Round, titles: Mapping[str, str]) -> str:
    label = getattr(rnd, "type_label", "") or ""
    name = titles.get(rnd.type) or label or rnd.type.replace("-", " ").strip().capitalize()
    name = name or "Round"
    return name if "round" in name.lower() else f"{name} round"


def _minutes(rnd: Round, rules: DayRules) -> int:
    own = getattr(rnd, "length_minutes", None)
    return round_minutes(own, rnd.type, rules.lengths, rules.default_minutes)


def day_round(rnd: Round, rules: DayRules, now: dt.datetime, captured: bool) -> DayRound:
    minutes = _minutes(rnd, rules)
    length = dt.timedelta(minutes=minutes)
    start = rnd.started or rnd.scheduled
    if rnd.ended:
        end = rnd.ended
    elif start is not None:
        end = start + length
    else:
        end = None
    over = end + rules.overrun if end is not None and rnd.started and not rnd.ended else end
    if getattr(rnd, "skipped_at", None):
        state = "skipped"
    elif rnd.ended or (over is not None and now >= over):
        state = "captured" if captured else "ended"
    elif start is not None and start <= now:
        state = "running"
    else:
        state = "scheduled"
    return DayRound(rnd, state, round_title(rnd, rules.titles), start, end, minutes, captured)


def _first_of_day(target: DayRound, rounds: Iterable[DayRound], now: dt.datetime) -> bool:
    day = _local(target.starts_at, now).date()
    return not any(
        other.id != target.id
        and other.state != "skipped"
        and other.starts_at is not None
        and _local(other.starts_at, now).date() == day
        and other.starts_at < target.starts_at
        for other in rounds
    )


def _at(day: dt.date, when: dt.time, tz) -> dt.datetime:
    return dt.datetime.combine(day, when, tzinfo=tz)


# --- the view -----------------------------------------------------------------------


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
    due = tuple(_due(days, rules, now, loop, thank_you_sent))
    capture_by, capture_round = _capture(days, rules, now)
    thank_by = _thank_you_by(days, rules) if loop is not None and not thank_you_sent else None
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
        return "in-round", _local(current.starts_at, now).date()
    held_today = [
        d
        for d in days
        if d.state in ("ended", "captured")
        and d.ends_at is not None
        and _local(d.ends_at, now).date() == today
    ]
    if nxt is not None:
        day = _local(nxt.starts_at, now).date()
        if nxt.starts_at - now <= rules.before_window:
            return "before-round", day
        if day == today and held_today:
            return "between-rounds", day
        if day == today and now.time() >= rules.morning_from and _first_of_day(nxt, days, now):
            return "morning-of", day
        if day == today and _first_of_day(nxt, days, now):
            return _night_or_getting_ready(nxt, now), day  # the night lasts until the morning
        tomorrow = today + dt.timedelta(days=1)
        if day == tomorrow and now.time() >= rules.evening_from and _first_of_day(nxt, days, now):
            return _night_or_getting_ready(nxt, now), day
        return "none", day if day <= tomorrow else today
    held = [d for d in days if d.state in ("ended", "captured") and d.ends_at is not None]
    if held:
        last = max(held, key=lambda d: d.ends_at)
        if now - last.ends_at <= rules.after_loop_for:
            return "after-loop", _local(last.starts_at or last.ends_at, now).date()
    return "none", today


def _night_or_getting_ready(first: DayRound, now: dt.datetime) -> str:
    """The night before, while a sleep cycle still fits before the first round; after
    that the morning-of list (get ready: eat light, the walk), even in the night: 20
    minutes before a 2 am round the night-before list said "then stop" and "Go to sleep"."""
    return "night-before" if sleep_worth_it(first.starts_at, now) else "morning-of"


def _due(days, rules: DayRules, now: dt.datetime, loop, thank_you_sent: bool) -> list[Due]:
    out: list[Due] = []
    scheduled = [d for d in days if d.state != "skipped" and d.starts_at is not None]
    # the first round of each interview day: the evening before and the morning of
    firsts = [d for d in scheduled if d.round.scheduled and _first_of_day(d, scheduled, now)]
    for first in firsts:
        local = _local(first.starts_at, now)
        day = local.date()
        evening = _at(day - dt.timedelta(days=1), rules.evening_from, local.tzinfo)
        morning = _at(day, rules.morning_from, local.tzinfo)
        midnight = _at(day, dt.time(0, 0), local.tzinfo)
        night_ends = min(morning, first.starts_at)
        sleep_ends = min(night_ends, first.starts_at - SLEEP_WORTH)
        sleep_line = rules.texts.get("sleep", "")
        sleep = sleep_line if midnight < sleep_ends else ""
        if evening < first.starts_at:
            out.append(
                Due(
                    f"night-before:{first.round.loop_id}:{day.isoformat()}",
                    "night-before",
                    f"Tomorrow: first round at {local:%H:%M}",
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
                    f"{sleep}: first round at {local:%H:%M}",
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
                    f"Interview day: first round at {local:%H:%M}",
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
        first_today = _first_of_day(d, scheduled, now)
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
            for n, (due_at, expires_at) in enumerate(_capture_windows(d, days, rules)):
                out.append(
                    Due(
                        f"capture:{d.id}" + (f":{n}" if n else ""),
                        "capture",
                        f"{d.title}"
                        + (f" ({clock_text(d.starts_at, now)})" if d.starts_at else "")
                        + ": write it down",
                        rules.texts.get("after-loop")
                        or "Note every question you were asked while it is fresh.",
                        due_at,
                        expires_at,
                        d.id,
                    )
                )
    thank_by = _thank_you_by(days, rules)
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


def _capture_windows(d: DayRound, days, rules: DayRules) -> list[tuple[dt.datetime, dt.datetime]]:
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


def _thank_you_by(days, rules: DayRules) -> dt.datetime | None:
    """24 h (content) after the loop's last round ends: actual end, else expected."""
    ends = [d.ends_at for d in days if d.state != "skipped" and d.ends_at is not None]
    return max(ends) + rules.thank_you_after if ends else None


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
        day = _local(view.next.starts_at, now).date()
        tz = now.tzinfo
        moments += [
            _at(day, rules.morning_from, tz),
            _at(day - dt.timedelta(days=1), rules.evening_from, tz),
        ]
    # the calendar day rolls over at midnight (phases are per day)
    moments.append(_at(now.date() + dt.timedelta(days=1), dt.time(0, 0), now.tzinfo))
    future = [m for m in moments if m > now]
    from dataclasses import replace

    return replace(view, next_change=min(future) if future else None)


def reminders_owed(view: DayView, sent: set[str] | frozenset[str]) -> list[Due]:
    """The reminders due at ``view.now`` and not yet sent; a missed one is still owed
    (late, with its time) until it expires."""
    return [d for d in view.due if d.due_at <= view.now < d.expires_at and d.key not in sent]


def reminders_to_send(view: DayView, sent: set[str] | frozenset[str]) -> list[Due]:
    """What to show of :func:`reminders_owed`: of several owed for the same round and kind
    (the app was closed through 15, 10 and 7 minutes before), only the newest."""
    owed = reminders_owed(view, sent)
    newest: dict[tuple[str, int], Due] = {}
    for item in owed:
        group = (item.kind, item.round_id)
        if group not in newest or item.due_at > newest[group].due_at:
            newest[group] = item
    return [d for d in owed if newest[(d.kind, d.round_id)] is d]


def late_note(due: Due, now: dt.datetime) -> str:
    """ " (due at 10:50)" when a reminder goes out more than two minutes late."""
    if now - due.due_at > dt.timedelta(minutes=2):
        return f" (due at {clock_text(due.due_at, now)})"
    return ""
