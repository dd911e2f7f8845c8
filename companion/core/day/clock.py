"""The day's clock texts: "10:00" (or "Tue 1 Dec 10:00"), and "in 4 min 30 s";
"ends about 10:35" or the overrun."""

from __future__ import annotations

import datetime as dt
import math


def _local(moment: dt.datetime, now: dt.datetime) -> dt.datetime:
    return moment.astimezone(now.tzinfo)


def clock_text(moment: dt.datetime, now: dt.datetime) -> str:
    """10:00, or "Tue 1 Dec 10:00" when not today."""
    local = _local(moment, now)
    if local.date() == now.date():
        return local.strftime("%H:%M")
    return f"{local.strftime('%a')} {local.day} {local.strftime('%b %H:%M')}"


def ends_text(ends_at: dt.datetime, now: dt.datetime) -> str:
    """ "ends about 10:35" while the round's end is ahead; past it, the overrun: "was due
    to end at 10:35, 12 min over" (at 10:47 "ends about 10:35" read as a mistake)."""
    over = now - ends_at
    if over.total_seconds() <= 0:
        return f"ends about {clock_text(ends_at, now)}"
    minutes = int(over.total_seconds() // 60)
    by = f"{minutes} min over" if minutes else "just over"
    return f"was due to end at {clock_text(ends_at, now)}, {by}"


def ends_text_changes_in(ends_at: dt.datetime, now: dt.datetime) -> dt.timedelta:
    """How long :func:`ends_text` keeps its words: until the end, then to the next whole
    minute over it."""
    over = (now - ends_at).total_seconds()
    if over <= 0:
        return ends_at - now
    return dt.timedelta(seconds=60 - over % 60)


def countdown_text(delta: dt.timedelta) -> str:
    """ "in 1 h 05 min", "in 7 min", "in 45 s", "now": the one rounding of time left
    that the header, the card and the reminders share. Minutes round up (6 min 10 s left
    is "in 7 min"), so the text changes as a whole minute passes, and a reminder sent a
    moment after its 10-minute mark still says "in 10 min"."""
    seconds = math.ceil(delta.total_seconds())
    if seconds <= 0:
        return "now"
    if seconds < 60:  # seconds only in the last minute
        return f"in {seconds} s"
    if seconds >= 86400:
        days, rest = divmod(seconds, 86400)
        return f"in {days} d {rest // 3600} h"
    hours, minutes = divmod(math.ceil(seconds / 60), 60)
    if hours:
        return f"in {hours} h {minutes:02d} min"
    return f"in {minutes} min"


def countdown_changes_in(delta: dt.timedelta) -> dt.timedelta | None:
    """How long :func:`countdown_text` of ``delta`` keeps its words as the time runs
    down (None: "now" stays). Every view that shows a countdown wakes at this moment, so
    two of them never show the same moment rounded two ways ("in 3 min" beside "in 2 min")."""
    seconds = delta.total_seconds()
    if seconds <= 0:
        return None
    whole = math.ceil(seconds)
    if whole <= 60:  # seconds (and "in 1 min" at exactly 60 s): the next whole second down
        last = whole - 1
    elif whole >= 86400:  # days and hours: the next whole hour down
        last = (whole // 3600) * 3600 - 1
    else:  # minutes round up: the words change as the next whole minute is reached
        last = (math.ceil(whole / 60) - 1) * 60
    return dt.timedelta(seconds=max(seconds - last, 0.001))
