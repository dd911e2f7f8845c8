"""The cue card's timebox: its length, the nudges as time runs, and the clock text."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from companion.core.content.plans import FALLBACK_ROUND, RoundDefaults

if TYPE_CHECKING:  # annotations only: the content loader fills numbers from here
    from companion.core.content.items import Section

NEAR_END_MINUTES = 2  # fallback only: the pack's rounds `wrap_up_before_end:`
#: a content nudge this close to the end is the round's own wrap-up (the coding moves'
#: "Wrap up: run the tests..." five minutes out): the timer's would be a second one
CLOSING_STRETCH_MINUTES = 5
FRESH_NUDGE_SECONDS = 120  # how long a nudge counts as new (glance mode shows it first)


# --------------------------------------------------------------------------- timebox


@dataclass(frozen=True)
class Nudge:
    at: float  # minutes from the start
    text: str
    builtin: bool = False


def timebox_nudges(
    section: Section | None, minutes: int, defaults: RoundDefaults | None = None
) -> list[Nudge]:
    """The content's nudges placed on a round of ``minutes``, plus the wrap-up and
    time-up nudges of the pack's rounds section (``defaults``), the wrap-up only unless
    the content already nudges in the closing stretch (one wrap-up per round)."""
    defaults = defaults or FALLBACK_ROUND  # a caller without the content pack
    nudges: list[Nudge] = []
    if section is not None:
        for item in section.items:
            if item.get("at") is not None:
                at = as_float(item.get("at"))
            elif item.get("before_end") is not None:
                before = as_float(item.get("before_end"))
                at = None if before is None else minutes - before
            else:
                continue
            if at is not None and 0 <= at < minutes:
                nudges.append(Nudge(at, item.text))
    left = defaults.wrap_up_before_end
    near = minutes - left
    closing = minutes - max(left, CLOSING_STRETCH_MINUTES)
    if near > 0 and not any(n.at >= closing for n in nudges):
        nudges.append(Nudge(near, defaults.wrap_up.replace("{minutes}", str(left)), True))
    nudges.append(Nudge(float(minutes), defaults.time_up, True))
    return sorted(nudges, key=lambda n: n.at)


@dataclass(frozen=True)
class TimeboxStatus:
    elapsed: float  # seconds
    remaining: float  # seconds, negative when over
    due: tuple[Nudge, ...]
    current: Nudge | None  # the latest nudge that is due
    upcoming: Nudge | None
    phase: str  # "running", "near-end", "over"
    fresh: bool  # the current nudge fell due in the last FRESH_NUDGE_SECONDS

    @property
    def current_text(self) -> str:
        """The current nudge, with any other nudge due at the same minute."""
        if self.current is None:
            return ""
        return "\n".join(n.text for n in self.due if n.at == self.current.at)


def timebox_status(
    started: dt.datetime,
    now: dt.datetime,
    minutes: int,
    nudges: Sequence[Nudge],
    near_end_minutes: int = NEAR_END_MINUTES,
) -> TimeboxStatus:
    elapsed = max(0.0, (now - started).total_seconds())
    remaining = minutes * 60 - elapsed
    due = tuple(n for n in nudges if n.at * 60 <= elapsed)
    upcoming = next((n for n in nudges if n.at * 60 > elapsed), None)
    current = due[-1] if due else None
    if remaining <= 0:
        phase = "over"
    elif remaining <= near_end_minutes * 60:
        phase = "near-end"
    else:
        phase = "running"
    fresh = current is not None and elapsed - current.at * 60 < FRESH_NUDGE_SECONDS
    return TimeboxStatus(elapsed, remaining, due, current, upcoming, phase, fresh)


def format_clock(seconds: float) -> str:
    sign = "-" if seconds < 0 else ""
    seconds = int(abs(seconds))
    return f"{sign}{seconds // 60}:{seconds % 60:02d}"


def format_minutes(at: float) -> str:
    return f"{at:g} min"


# --------------------------------------------------------------------------- helpers


def as_float(value: Any) -> float | None:
    try:
        return float(value)
    except (TypeError, ValueError):
        return None
