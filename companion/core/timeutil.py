"""The one rule for stored times.

Times are stored as ISO 8601 text with a UTC offset. Reading one back, a time without a
zone (written by hand, by an older version or by another program) is local time,
everywhere: the loops, the cue card, the study list and the About page all agree.
"""

from __future__ import annotations

import datetime as dt


def parse_stored(text: str | None) -> dt.datetime | None:
    """A stored time as an aware datetime; a time without a zone is local time. None when
    ``text`` is empty, not an ISO 8601 time or out of range (an imported ``0001-01-01``
    must not break every view that shows it)."""
    if not text or not isinstance(text, str):
        return None
    try:
        moment = dt.datetime.fromisoformat(text)
        if not 1900 <= moment.year <= 9000:  # a stored 0001-01-01 cannot be shown locally
            return None
        return moment if moment.tzinfo else moment.astimezone()
    except (ValueError, OverflowError, OSError):
        return None


def to_stored(moment: dt.datetime) -> str:
    """``moment`` as stored text, to the second, keeping its offset (naive means local)."""
    return (moment if moment.tzinfo else moment.astimezone()).isoformat(timespec="seconds")


def to_stored_utc(moment: dt.datetime | None = None) -> str:
    """``moment`` (default: now) as stored UTC text, which sorts as text."""
    moment = moment or dt.datetime.now(dt.UTC)
    if moment.tzinfo is None:
        moment = moment.astimezone()
    return to_stored(moment.astimezone(dt.UTC))
