"""The one rule for stored times.

Times are stored as ISO 8601 text with a UTC offset. Reading one back, a time without a
zone (written by hand, by an older version or by another program) is local time,
everywhere: the loops, the cue card, the study list and the About page all agree.
"""

from __future__ import annotations

import datetime as dt
import functools
import os


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


def local_zone() -> dt.tzinfo:
    """The machine's zone with its rules for every date (a ``ZoneInfo``), so that a round
    after a clock change shows at its own offset, not today's. ``TZ`` wins, then the
    system's setting (tzlocal reads ``/etc/localtime``, the macOS link, the Windows
    registry). A zone zoneinfo cannot name (a POSIX ``TZ`` string) falls back to today's
    fixed offset, as before. Cached per value of ``TZ`` (a test or a user that sets it
    in-process gets that zone); ``local_zone.cache_clear()`` forgets the system's."""
    return _zone(os.environ.get("TZ"))


@functools.cache
def _zone(_tz_variable: str | None) -> dt.tzinfo:
    import tzlocal  # seam: the first ``now()``; the first frame never asks for a zone

    try:  # reload: tzlocal keeps its own answer, which would outlive a change of TZ
        return tzlocal.reload_localzone()
    except Exception:  # ZoneInfoNotFoundError, or a registry key tzlocal cannot map
        return dt.datetime.now().astimezone().tzinfo or dt.UTC


local_zone.cache_clear = _zone.cache_clear  # type: ignore[attr-defined]


def local_now() -> dt.datetime:
    """Now, aware, in :func:`local_zone`: ``now.tzinfo`` converts any date right."""
    return dt.datetime.now(local_zone())


def to_local(moment: dt.datetime) -> dt.datetime:
    """``moment`` in the local zone, at that date's own offset (naive means local)."""
    if moment.tzinfo is None:
        return moment.replace(tzinfo=local_zone())
    return moment.astimezone(local_zone())
