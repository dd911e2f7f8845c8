"""What the day model reads and answers: the day's rules (from the content), a round as
the day sees it, what is due by when, and the whole :class:`DayView` of one moment."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass, field

from companion.core.day.links import call_link
from companion.core.day.loops import Loop, Round
from companion.core.phase_hours import EVENING_FROM, MORNING_FROM

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


@dataclass(frozen=True)
class DayRules:
    """The numbers the day runs on. :func:`companion.core.day.rules.day_rules` reads them
    from the content packs; these defaults stand in only when a pack is broken."""

    titles: Mapping[str, str] = field(default_factory=dict)  # round type id -> title
    lengths: Mapping[str, int] = field(default_factory=dict)  # type id -> minutes (lengths.py)
    default_minutes: int = 45
    before: tuple[BeforeItem, ...] = ()
    before_window: dt.timedelta = dt.timedelta(minutes=15)
    evening_from: dt.time = EVENING_FROM
    morning_from: dt.time = MORNING_FROM
    capture_window: dt.timedelta = dt.timedelta(hours=1)
    thank_you_after: dt.timedelta = dt.timedelta(hours=24)
    thank_you_remind_before: dt.timedelta = dt.timedelta(hours=4)
    after_loop_for: dt.timedelta = dt.timedelta(hours=48)
    start_soon: dt.timedelta = dt.timedelta(minutes=1)
    # a round whose Start was pressed may run long: the day counts it ended only this
    # long after its length (End ends it at once); a round never started ends on time
    overrun: dt.timedelta = dt.timedelta(minutes=30)
    # the night (the pack's night-before list): from this time of night the sleep line
    # leads, while at least ``sleep_margin`` is left before the first round
    night_from: dt.time = dt.time(1, 0)
    sleep_margin: dt.timedelta = dt.timedelta(minutes=90)
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
    company: str = ""  # the loop's company (every round of every loop is in the day)

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


def thank_you_key(loop_id: int) -> str:
    """The thank-you reminder's key for a loop (sent once per loop)."""
    return f"thank-you:{loop_id}"


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
    # every loop with a round in the day, and each loop's open thank-you (loop, due by):
    # a loop's after-loop items stay until done or past their window, whatever comes next
    loops: tuple[Loop, ...] = ()
    thank_yous: tuple[tuple[Loop, dt.datetime], ...] = ()
    # the loop most recently over whose after-loop list is open, in any phase (another
    # loop's round may come next), and the interview day its list is kept for
    after_loop_id: int = 0
    after_loop_day: dt.date | None = None
    # the night of the next interview day's first round: the sleep line's window (the
    # pack's night switch to the margin before the round; None when no sleep fits), and
    # whether that round falls in the night (before the morning: no morning walk)
    sleep_window: tuple[dt.datetime, dt.datetime] | None = None
    night_round: bool = False

    @property
    def loop_id(self) -> int:
        return self.loop.id if self.loop is not None else 0

    def round(self, round_id: int) -> DayRound | None:
        return next((r for r in self.rounds if r.id == round_id), None)

    def loop_of(self, round_id: int) -> Loop | None:
        """The loop a round of the day belongs to (None: a round outside any loop)."""
        rnd = self.round(round_id)
        loop_id = rnd.round.loop_id if rnd is not None else None
        return next((lp for lp in self.loops if lp.id == loop_id), None)

    @property
    def after_loop(self) -> Loop | None:
        """The loop most recently over whose after-loop list is open."""
        return next((lp for lp in self.loops if lp.id == self.after_loop_id), None)

    @property
    def after_loop_last(self) -> DayRound | None:
        """The round of the loop most recently over that ended last (what its list's
        "write it down" opens)."""
        held = [
            d
            for d in self.rounds
            if d.state in ("ended", "captured")
            and d.ends_at is not None
            and self.after_loop_id
            and d.round.loop_id == self.after_loop_id
        ]
        return max(held, key=lambda d: (d.ends_at, d.id), default=None)

    def thank_you_open(self, loop_id: int) -> bool:
        """Whether the loop's thank-you is still worth a reminder (not sent, not past its
        window)."""
        key = thank_you_key(loop_id)
        return any(d.key == key and self.now < d.expires_at for d in self.due)

    def open_loops(self) -> list[Loop]:
        """The day's loops in the order their next (else last) rounds come: a loop whose
        rounds are over only while something of it is still open (a capture, its
        thank-you, its after-loop list). A loop from last week named in Today's title
        read as today's."""
        live = {self.after_loop_id}
        live |= {d.round.loop_id for d in self.rounds if d.state in ("running", "scheduled")}
        live |= {
            d.round.loop_id
            for d in self.rounds
            if any(x.round_id == d.id and self.now < x.expires_at for x in self.due)
        }
        live |= {lp.id for lp, _by in self.thank_yous if self.thank_you_open(lp.id)}
        order: list[Loop] = []
        for d in [d for d in self.rounds if d.state in ("running", "scheduled")] + list(
            self.rounds
        ):
            loop = self.loop_of(d.id)
            if loop is not None and loop.id in live and loop not in order:
                order.append(loop)
        return order

    @property
    def focus(self) -> DayRound | None:
        """The round the day is about: the running one, else the next one."""
        return self.current or self.next
