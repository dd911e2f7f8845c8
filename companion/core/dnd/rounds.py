"""Do-not-disturb around rounds (DAY.md: "do-not-disturb on/off per the view and the
user's choice"): the pause starts when the chosen round runs and ends when it is over.

Ticking "Do not disturb during the round" before the round records the choice
(:data:`ROUND_PREF`) instead of pausing at once, 13 minutes early; the choice outlives a
restart, so a pause restored at start-up mid-round is made again for the rest of it.
"""

from __future__ import annotations

import datetime as dt

#: the round the user asked do-not-disturb for (0: none)
ROUND_PREF = "day.dnd_round"


def chosen_round(settings) -> int:
    """The round do-not-disturb was asked for (0: none); ``settings``: the database's."""
    value = settings.get(ROUND_PREF, 0)
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else 0


def choose_round(settings, round_id: int) -> None:
    """Keep the choice (0 forgets it): the switch's click, or the round being over."""
    settings.set(ROUND_PREF, int(round_id or 0))


def round_running(started: dt.datetime | None, scheduled: dt.datetime | None, ended, now) -> bool:
    """A round whose start (pressed, else scheduled) has come and that has not ended."""
    start = started or scheduled
    return start is not None and start <= now and not ended


def dnd_step(view, hold, *, auto: bool, chosen_round: int) -> tuple[str, int]:
    """What the day does to do-not-disturb now: ("off", 0) when the round a pause of this
    app was for is over; ("on", round_id) when a round runs that the user chose (or every
    round, ``auto``) and nothing is paused; else ("", 0)."""
    if hold is not None:
        if hold.holder == "app" and hold.round_id:
            held = view.round(hold.round_id)
            if held is None or held.state not in ("running", "scheduled"):
                return "off", 0
        return "", 0
    current = view.current
    if current is None or current.round.ended_at:
        return "", 0
    if auto or (chosen_round and chosen_round == current.id):
        return "on", current.id
    return "", 0
