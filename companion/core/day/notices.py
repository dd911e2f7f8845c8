"""What a reminder looks like on the desktop, and when it must leave (Qt-free).

A :class:`~companion.core.day.model.Due` becomes one :class:`Notice`: its words at the
moment it is sent (a late "in 5 min" says the real time left, rounded as the Today
header rounds), a slot (a newer notice for the same slot replaces the shown one: the
10-minute step replaces the 15-minute one, a rescheduled round's replaces the old
time's), an expiry (never "stays until clicked") and the round states it belongs to:
once its round leaves them (the round started, ended or was skipped), it is closed.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from companion.core.day.model import DayView, Due, late_note
from companion.core.day.schedule import clock_text, countdown_text

#: a notice leaves the screen after at most this long (it stays in the daemon's history)
MAX_SHOWN = dt.timedelta(minutes=10)
MIN_SHOWN = dt.timedelta(seconds=10)
_BEFORE = frozenset({"night-before", "morning-of", "before-round", "start-soon"})


@dataclass(frozen=True)
class Notice:
    slot: str  # one notification per slot on screen: a newer one replaces it
    title: str
    body: str
    expire_ms: int  # > 0: the daemon takes it down after this long
    round_id: int = 0
    while_states: frozenset[str] = frozenset()  # the round states it belongs to


def notice_for(due: Due, view: DayView, at: dt.datetime | None = None) -> Notice:
    """The notification for ``due`` sent at ``at`` (``view.now`` unless given: a listing
    of the reminders to come words each as it will go out, "starts now" for a start held
    to the break that is the round's start, not "in 1 minute"; the round's time keeps the
    listing's date, "(Sun 8 Mar 10:00)" when it is not today)."""
    now = at or view.now
    rnd = view.round(due.round_id) if due.round_id else None
    title, body = due.title, due.text
    if due.kind in ("before-round", "start-soon") and rnd is not None and rnd.starts_at:
        left = countdown_text(rnd.starts_at - now)
        when = clock_text(rnd.starts_at, view.now)
        title = (
            f"{rnd.title} starts {left} ({when})"
            if due.kind == "start-soon"
            else f"{rnd.title} {left} ({when})"
        )
    else:
        body += late_note(due, now)
    if due.kind in _BEFORE:
        slot, states = f"before:{due.round_id}", frozenset({"scheduled"})
    elif due.kind == "capture":
        slot, states = f"capture:{due.round_id}", frozenset({"ended"})
    else:
        slot, states = due.key, frozenset()
    shown = min(MAX_SHOWN, max(MIN_SHOWN, due.expires_at - now))
    return Notice(
        slot=slot,
        title=title,
        body=body,
        expire_ms=int(shown.total_seconds() * 1000),
        round_id=due.round_id if states else 0,
        while_states=states,
    )


def stale(notice: Notice, view: DayView) -> bool:
    """True when ``notice`` no longer belongs on screen: its round started, ended, was
    skipped or is gone."""
    if not notice.round_id:
        return False
    rnd = view.round(notice.round_id)
    return rnd is None or rnd.state not in notice.while_states
