"""The day's clock texts: "10:00" (or "Tue 1 Dec 10:00"), and "in 4 min 30 s"."""

from __future__ import annotations

import datetime as dt


def _local(moment: dt.datetime, now: dt.datetime) -> dt.datetime:
    return moment.astimezone(now.tzinfo)


def clock_text(moment: dt.datetime, now: dt.datetime) -> str:
    """10:00, or "Tue 1 Dec 10:00" when not today."""
    local = _local(moment, now)
    if local.date() == now.date():
        return local.strftime("%H:%M")
    return f"{local.strftime('%a')} {local.day} {local.strftime('%b %H:%M')}"


def countdown_text(delta: dt.timedelta) -> str:
    """ "in 1 h 05 min", "in 4 min 30 s", "now"."""
    seconds = int(delta.total_seconds())
    if seconds <= 0:
        return "now"
    days, rest = divmod(seconds, 86400)
    hours, rest = divmod(rest, 3600)
    minutes, secs = divmod(rest, 60)
    if days:
        return f"in {days} d {hours} h"
    if hours:
        return f"in {hours} h {minutes:02d} min"
    if minutes:  # seconds only in the last minute: the line changes once a minute
        return f"in {minutes} min"
    return f"in {secs} s"
