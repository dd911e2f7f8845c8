"""What the cue card shows at one moment, as a pure function of the day.

``card_state(view, infos, ...)`` answers every question the card's parts ask: which
round (running, or next), under which title and on which page, how far into it, the
one nudge due now, where the stepper stands, and what the next Start/End press does.
The window only renders the answer, so every phase is tested here without Qt.

Modes::

    none      nothing on the day: the type shown last time
    before    the next round is ahead (a countdown)
    in        a round runs and the card shows its page
    viewing   a round runs but the user picked another type by hand
    between   a round of the day ended and another is ahead
    after     every round of the day is over
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from companion.core.content.audiences import AUDIENCES
from companion.core.content.lengths import clamp_minutes
from companion.core.cue.opening import pitch_outline_open
from companion.core.cue.rounds import RoundInfo, find_round
from companion.core.cue.state import offered_minutes
from companion.core.cue.timebox import (
    Nudge,
    TimeboxStatus,
    timebox_nudges,
    timebox_status,
)
from companion.core.day.clock import countdown_changes_in
from companion.core.day.model import DayRound, DayView
from companion.core.day.schedule import clock_text, countdown_text, guess_round_type

MODES = ("none", "before", "in", "viewing", "between", "after")
PRESSES = ("start", "start-now", "end", "confirm-end", "focus-capture", "confirm-unscheduled")
GENERIC = "@generic"  # the page of a custom round type no shipped type fits
GENERIC_SECTIONS = (
    "@pitch-outline",
    "@timebox",
    "traps",
    "recovery",
    "@planned-questions",
    "closing",
    "@closing-topic",
)
# a Start this soon after an End that would begin a round not on the schedule asks first
CONFIRM_AFTER_END = dt.timedelta(minutes=10)
# the second of two presses (an extra round, ending a young round) counts within this
ARMED_FOR = dt.timedelta(seconds=5)
# a press this soon after the press changed meaning (Start became End under the pointer,
# End became "End now") is the tail of a double click: it does nothing
SETTLE = dt.timedelta(milliseconds=600)


def round_press(rnd: DayRound, now: dt.datetime, take_over_within: int) -> str:
    """What a press does to the running round ``rnd``. In its first ``take_over_within``
    minutes (the pack's rounds ``take_over_within:``), and while not past its length, a
    round the clock started is started again at the press ("start-now": the candidate's
    "it begins") and a round the user started ends only at a second press
    ("confirm-end"); otherwise the press ends it ("end")."""
    if rnd.starts_at is None:
        return "end"
    age = now - rnd.starts_at
    young = age < dt.timedelta(minutes=min(take_over_within, rnd.minutes))
    if not young:
        return "end"
    return "confirm-end" if rnd.round.started_at else "start-now"


@dataclass(frozen=True)
class Settle:
    """When a press changed a button's meaning (its text); a press within :data:`SETTLE`
    of that change is ignored. A button seen for the first time takes presses at once
    (a hotkey that opens the card presses it straight away), and so does one whose
    meaning the clock changed: an armed "End now" running out has no double click
    behind it, and a press just after it was swallowed (the walk hit it twice)."""

    meaning: object = None
    since: dt.datetime | None = None
    pressed_at: dt.datetime | None = None

    def press(self, now: dt.datetime) -> Settle:
        """A press is being handled: the change it makes starts the wait."""
        return replace(self, pressed_at=now)

    def follow(self, meaning: object, now: dt.datetime) -> Settle:
        if meaning == self.meaning:
            return self
        pressed = self.pressed_at
        by_press = pressed is not None and dt.timedelta(0) <= now - pressed < SETTLE
        return Settle(meaning, now if self.meaning is not None and by_press else None, pressed)

    def ignores(self, now: dt.datetime) -> bool:
        return self.since is not None and dt.timedelta(0) <= now - self.since < SETTLE


@dataclass(frozen=True)
class Pick:
    """A type chosen by hand (a click, a key 1-9, ``--round``) while the day was about
    round ``focus_id`` (0: no round): it stays until the day moves to another round."""

    type: str
    focus_id: int = 0


@dataclass(frozen=True)
class Seen:
    """What the card remembers of the running round: which one, the last nudge shown."""

    round_id: int | None = None
    nudge_at: float = -1.0


@dataclass(frozen=True)
class CardRound:
    """The round the card is about, in the card's words."""

    id: int
    type: str  # the day's type id (a custom type's slug)
    title: str  # the type's title, or a custom type's own words
    page: str  # the round-type id whose page shows it (GENERIC for a custom one)
    custom: bool
    who: str  # the interviewer's name, "" when unknown
    minutes: int  # the day's length (DayRound.minutes), never recomputed here
    starts_at: dt.datetime | None
    state: str  # the day's round state


@dataclass(frozen=True)
class CardState:
    mode: str  # one of MODES
    round: CardRound | None  # the running round, else the next one
    page: str  # the round-type id of the page shown (GENERIC: the generic page)
    title: str  # the header's title
    tooltip: str  # the full title
    line: str  # the header's second line: countdown, "viewing ...", "Next: ..."
    status: TimeboxStatus | None  # the running round's timer (also while viewing)
    page_status: TimeboxStatus | None  # the timer the shown page's timebox shows
    minutes: int  # the length the shown page's timebox shows
    nudge: Nudge | None  # the one nudge to flash now (None: nothing new)
    nudge_text: str  # its text (with any other nudge of the same minute)
    seen: Seen  # what to remember after showing this
    reset: bool  # a new round began: its stepper starts at the first step
    step: int  # the stepper's position on the shown page
    next_press: str  # one of PRESSES
    press_text: str  # the Start/End button's text
    press_tip: str  # its tooltip: what the next press will do
    start_round_id: int  # the round a start press starts (0: a new one of ``page``)
    pick: Pick | None  # the pick still in force
    line_until: dt.datetime | None = None  # when the line's countdown words change
    # the day's round a story told is marked in: the shown page's running or next round,
    # or, while its capture is open, the round just ended (None: none on this page)
    told_in: int | None = None

    @property
    def running(self) -> bool:
        return self.mode in ("in", "viewing")

    @property
    def elapsed(self) -> float | None:
        return self.status.elapsed if self.status is not None else None


def generic_info(title: str, minutes: int) -> RoundInfo:
    """The page of a custom round type no shipped type fits: the pitch, the timer, the
    questions to ask and the closing line, under the round's own title."""
    return RoundInfo(
        id=GENERIC,
        title=title or "Round",
        short=title or "Round",
        key=0,
        audience=AUDIENCES,
        sections=GENERIC_SECTIONS,
        nudges="",
        minutes=clamp_minutes(minutes),
    )


def page_for(rnd: DayRound, infos: Sequence[RoundInfo]) -> tuple[str, bool]:
    """(page id, custom) for a day round: its own type's page; a custom type the page of
    the type its words name (or the generic page), never another type's label."""
    if find_round(infos, rnd.type) is not None:
        return rnd.type, False
    words = rnd.round.type_label or rnd.type.replace("-", " ")
    # the pack's other words count here ("Behavioral interview": the hiring-manager page
    # and its Stories); an import keeps the invitation's own words as the round's type
    base = guess_round_type(words, [(i.id, i.title) for i in infos], {i.id: i.also for i in infos})
    return base or GENERIC, True


def card_round(rnd: DayRound, infos: Sequence[RoundInfo]) -> CardRound:
    page, custom = page_for(rnd, infos)
    info = find_round(infos, rnd.type)
    if custom:
        title = rnd.round.type_label or rnd.title
    else:
        title = info.short if info is not None else rnd.title
    return CardRound(
        id=rnd.id,
        type=rnd.type,
        title=title,
        page=page,
        custom=custom,
        who=(rnd.round.interviewer_name or "").strip(),
        minutes=rnd.minutes,
        starts_at=rnd.starts_at,
        state=rnd.state,
    )


def _mode(view: DayView | None, focus: DayRound | None) -> str:
    if view is None or focus is None and not view.rounds:
        return "none"
    if view.current is not None:
        return "in"
    if view.next is None:
        over = any(r.state in ("ended", "captured") for r in view.rounds)
        return "after" if over else "none"
    if view.phase == "between-rounds":
        return "between"
    return "before"


def _with_who(rnd: CardRound) -> str:
    return f"{rnd.title} with {rnd.who}" if rnd.who else rnd.title


def _line(mode: str, rnd: CardRound | None, shown_title: str, now: dt.datetime) -> str:
    if rnd is None:
        return "Loop done: write down what you remember." if mode == "after" else ""
    if mode == "viewing":
        return f"viewing {shown_title} \u00b7 {rnd.title} running"
    if mode == "in":
        return f"with {rnd.who}" if rnd.who else ""
    if rnd.starts_at is None:
        return ""
    left = countdown_text(rnd.starts_at - now)
    if mode == "before":
        return f"{_with_who(rnd)} {left}" if left != "now" else f"{_with_who(rnd)} now"
    return f"Next: {_with_who(rnd)} at {clock_text(rnd.starts_at, now)} ({left})"


def _running_line(press: str, press_text: str, rnd: CardRound, now, line: str) -> str:
    """The running round's second line: who started it and what the press does now."""
    if press == "start-now":
        lead = "started by the clock \u00b7 press to start now"
    elif press_text == "End now":
        lead = "press again to end it"
    else:
        lead = f"started {clock_text(rnd.starts_at, now)}"
    return f"{lead} \u00b7 {line}" if line else lead


def _start_target(view: DayView | None, page: str, focus: CardRound | None, now) -> int:
    """The round a Start would start: the focus round when its page is shown, else the
    day's not-yet-ended round of the shown type today (as ``actions.start`` picks it)."""
    if view is None:
        return 0

    def today(starts_at: dt.datetime | None) -> bool:  # tomorrow's round is not started now
        return starts_at is None or starts_at.astimezone(now.tzinfo).date() == now.date()

    shown = focus is not None and focus.page == page and focus.state == "scheduled"
    if shown and today(focus.starts_at):
        return focus.id
    for d in view.rounds:
        if d.type == page and d.state in ("scheduled", "running") and today(d.starts_at):
            return d.id
    return 0


def _last_held(view: DayView | None, infos: Sequence[RoundInfo]) -> CardRound | None:
    """The day's round that ended last (None while none has)."""
    if view is None:
        return None
    held = [r for r in view.rounds if r.state in ("ended", "captured") and r.ends_at]
    return card_round(max(held, key=lambda r: r.ends_at), infos) if held else None


def _just_ended(view: DayView | None, now: dt.datetime) -> bool:
    if view is None:
        return False
    return any(
        r.round.ended is not None and dt.timedelta(0) <= now - r.round.ended <= CONFIRM_AFTER_END
        for r in view.rounds
    )


def _press(
    mode: str,
    capture_open: bool,
    target: int,
    armed: bool,
    just_ended: bool,
    shown_title: str,
    rnd: CardRound | None,
    on_round: str = "end",
    now: dt.datetime | None = None,
) -> tuple[str, str, str]:
    if capture_open:
        return (
            "focus-capture",
            "Capture",
            "The capture is open: bring it to the front (starts nothing) (Ctrl+Enter)",
        )
    if mode in ("in", "viewing"):
        what = rnd.title if rnd is not None else "the round"
        since = clock_text(rnd.starts_at, now) if rnd is not None and rnd.starts_at else ""
        if on_round == "start-now":
            return (
                "start-now",
                "Start",
                f"{what} was started by the clock at {since}: press to start it now "
                "(the timer counts from the press; nothing ends) (Ctrl+Enter)",
            )
        if on_round == "confirm-end" and not armed:
            return (
                "confirm-end",
                "End",
                f"{what} started at {since}, a few minutes ago: press twice to end it",
            )
        if on_round == "confirm-end":
            return (
                "end",
                "End now",
                f"Press again to end {what}: records the end and opens the quick capture",
            )
        return (
            "end",
            "End",
            f"End {what}: records the end and opens the quick capture (Ctrl+Enter)",
        )
    if not target and just_ended and not armed:
        return (
            "confirm-unscheduled",
            "Start\u2026",
            f"A round just ended. Press again to start an extra {shown_title} round, "
            "not on the schedule",
        )
    if not target:
        return (
            "start",
            "Start extra" if armed else "Start",
            f"Start an extra {shown_title} round (not on the schedule) and its timer; "
            "records it in the journal (Ctrl+Enter)",
        )
    return (
        "start",
        "Start",
        "Start the round and its timer; records it in the journal (Ctrl+Enter)",
    )


def card_state(
    view: DayView | None,
    infos: Sequence[RoundInfo],
    content,
    now: dt.datetime,
    *,
    pick: Pick | None = None,
    capture_open: bool = False,
    seen: Seen = Seen(),
    steps: Mapping[str, int] | None = None,
    minutes: Mapping[str, int] | None = None,
    last_type: str = "",
    armed: bool = False,
) -> CardState:
    """The card at ``now``. ``content`` gives the nudges and the pack's round defaults;
    ``steps`` and ``minutes`` are the card's saved stepper positions and own lengths per
    type; ``last_type`` the type shown last time (used when the day shows nothing);
    ``armed``: the first of the two presses an extra round right after an End needs."""
    steps = steps or {}
    minutes = minutes or {}
    day_focus = None
    if view is not None:
        day_focus = view.current or view.next
    focus = card_round(day_focus, infos) if day_focus is not None else None
    focus_id = focus.id if focus is not None else 0
    if pick is not None and (pick.focus_id != focus_id or not find_round(infos, pick.type)):
        pick = None  # the day moved on: the pick is over
    mode = _mode(view, day_focus)
    running = focus if view is not None and view.current is not None else None

    # after the day's last round: that round, under its own title (a custom one too)
    held = focus or _last_held(view, infos)
    capturing = None
    if capture_open and running is None and (last := _last_held(view, infos)) is not None:
        held = capturing = last  # while its capture is open the card is about that round
    if pick is not None:
        page = pick.type
    elif held is not None:
        page = held.page
    else:
        fallback = find_round(infos, last_type) or (infos[0] if infos else None)
        page = fallback.id if fallback is not None else ""
    if running is not None and page != running.page:
        mode = "viewing"

    info = find_round(infos, page)
    if info is not None and (held is None or page != held.page or not held.custom):
        title, tooltip = info.short, info.title
    elif held is not None:
        title, tooltip = held.title, held.title
    else:
        title = tooltip = ""

    status = None
    nudges: list[Nudge] = []
    if running is not None and running.starts_at is not None:
        run_info = find_round(infos, running.page)
        section = content.section(run_info.nudges) if run_info and run_info.nudges else None
        defaults = content.round_defaults()
        nudges = timebox_nudges(section, running.minutes, defaults)
        status = timebox_status(
            running.starts_at, now, running.minutes, nudges, defaults.wrap_up_before_end
        )

    reset = running is not None and seen.round_id != running.id
    if running is not None:
        seen_now = Seen(running.id, -1.0 if reset else seen.nudge_at)
    else:
        seen_now = seen
    nudge = None
    nudge_text = ""
    current = status.current if mode == "in" and status is not None else None
    if current is not None and current.at > seen_now.nudge_at:  # the one due now, no backlog
        nudge = current
        nudge_text = status.current_text
        seen_now = Seen(seen_now.round_id, nudge.at)

    page_status = status if mode == "in" else None
    if mode == "in" and running is not None:
        shown_minutes = running.minutes
    elif focus is not None and page == focus.page and focus.state == "scheduled":
        shown_minutes = focus.minutes  # the day's length for the round ahead
    elif info is not None:
        shown_minutes = offered_minutes(dict(minutes), info)
    else:
        shown_minutes = focus.minutes if focus is not None else clamp_minutes(None)

    step = 0 if reset and running is not None and page == running.page else steps.get(page, 0)
    target = _start_target(view, page, focus, now) if running is None else 0
    on_round = "end"
    if running is not None and view is not None and view.current is not None:
        on_round = round_press(view.current, now, content.round_defaults().take_over_within)
    press, press_text, press_tip = _press(
        mode,
        capture_open,
        target,
        armed,
        _just_ended(view, now),
        title,
        running or focus,
        on_round,
        now,
    )
    if press == "start-now" and running is not None:
        target = running.id
    line = _line(mode, focus, title, now)
    line_until = None
    if mode in ("before", "between") and focus is not None and focus.starts_at is not None:
        wait = countdown_changes_in(focus.starts_at - now)
        line_until = now + wait if wait is not None else None
    if mode == "in" and running is not None and running.starts_at is not None:
        line = _running_line(press, press_text, running, now, line)
    return CardState(
        mode=mode,
        round=focus,
        page=page,
        title=title,
        tooltip=tooltip,
        line=line,
        status=status,
        page_status=page_status,
        minutes=shown_minutes,
        nudge=nudge,
        nudge_text=nudge_text,
        seen=seen_now,
        reset=reset,
        step=max(0, step),
        next_press=press,
        press_text=press_text,
        press_tip=press_tip,
        start_round_id=target,
        pick=pick,
        line_until=line_until,
        told_in=next((r.id for r in (capturing, focus) if r is not None and r.page == page), None),
    )


#: what the passing of a second changes in a CardState: the countdowns and the nudge
#: due now (and what the card remembers having shown)
TIME_FIELDS = ("status", "page_status", "line", "line_until", "nudge", "nudge_text", "seen")


def steady(state: CardState) -> tuple[CardState, bool]:
    """``state`` without what a second changes, and whether the round is in its opening
    minutes (the pitch outline unfolds and the pitch is followed only then): two states
    with the same steady part differ only in their countdowns and nudge, which is all a
    tick redraws."""
    return replace(state, **dict.fromkeys(TIME_FIELDS)), pitch_outline_open(state.elapsed)
