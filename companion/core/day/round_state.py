"""A round's state at one moment, derived, never stored (the state machine of
:mod:`companion.core.day.model`), with its title and its length from the one rule of
:mod:`companion.core.content.lengths`."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable, Mapping

from companion.core.content.lengths import round_minutes
from companion.core.day.loops import Round
from companion.core.day.view_types import DayRound, DayRules


def local_time(moment: dt.datetime, now: dt.datetime) -> dt.datetime:
    return moment.astimezone(now.tzinfo)


# a name that already says what it is gets no "round" after it ("Behavioral interview",
# "Recruiter screen" from an invitation, not "Behavioral interview round")
_NAMES_ITSELF = re.compile(r"\b(round|interview|screen)\b", re.IGNORECASE)


def round_title(rnd: Round, titles: Mapping[str, str]) -> str:
    label = getattr(rnd, "type_label", "") or ""
    name = titles.get(rnd.type) or label or rnd.type.replace("-", " ").strip().capitalize()
    name = name or "Round"
    return name if _NAMES_ITSELF.search(name) else f"{name} round"


def length_minutes(rnd: Round, rules: DayRules) -> int:
    own = getattr(rnd, "length_minutes", None)
    return round_minutes(own, rnd.type, rules.lengths, rules.default_minutes)


def day_round(rnd: Round, rules: DayRules, now: dt.datetime, captured: bool) -> DayRound:
    minutes = length_minutes(rnd, rules)
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


def first_of_day(target: DayRound, rounds: Iterable[DayRound], now: dt.datetime) -> bool:
    day = local_time(target.starts_at, now).date()
    return not any(
        other.id != target.id
        and other.state != "skipped"
        and other.starts_at is not None
        and local_time(other.starts_at, now).date() == day
        and other.starts_at < target.starts_at
        for other in rounds
    )


def at_time(day: dt.date, when: dt.time, tz) -> dt.datetime:
    return dt.datetime.combine(day, when, tzinfo=tz)
