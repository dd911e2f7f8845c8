"""A calendar file's own time zones (its VTIMEZONE blocks), built once per file.

Each event used to be parsed together with every VTIMEZONE of its file, so a 1.36 MB
invitation with one big zone (a transition block per year, written out in full) and 800
events parsed the zone 800 times (still running at 150 s). Here each zone is built once
(``dateutil.tz.tzical``, which icalendar itself uses for such zones) and kept in a map
for this file only: icalendar's own zone cache is process-wide, so a zone of one file
never stands in for another file's zone of the same name.

A zone is first cut to the transitions that can matter for the file's events: an
observance that starts after the last event is dropped, and of those without an RRULE
that ended before the first event only the latest of each kind (STANDARD, DAYLIGHT) is
kept. The offset at a moment is the one of the latest onset at or before it, so what is
dropped never decides an event's offset; a zone with hundreds of yearly blocks becomes
a handful. A zone ``tzical`` cannot read is read by icalendar (which mends a DTSTART that
is a date first), also once; one neither reads is dropped, and its events' TZID is then
looked up by name like any other. (Such zones went inline with every event: a file of
many events and a large unreadable zone parsed it once per event, 2 s for 17 KB.)
"""

from __future__ import annotations

import datetime as dt
import io
import re

_TOP = {"TZID", "TZURL", "LAST-MODIFIED"}
_SUB = {"DTSTART", "RRULE", "RDATE", "EXRULE", "EXDATE", "TZOFFSETFROM", "TZOFFSETTO", "TZNAME"}
_KINDS = {"STANDARD", "DAYLIGHT"}
_MOMENT = re.compile(r"(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2}))?")
MARGIN = dt.timedelta(days=3)  # covers any UTC offset, a DST shift and a 12-hour length


_NAME = re.compile(r"[^;:]*")
HIDDEN = "X-COMPANION-TZID"  # TZID of a zone built here, hidden from icalendar (see hide)


def _name(line: str) -> str:
    return _NAME.match(line).group().strip().upper()


def _moments(value: str) -> list[dt.datetime]:
    out = []
    for m in _MOMENT.finditer(value):
        try:
            out.append(dt.datetime(*(int(g) for g in m.groups() if g is not None)))
        except ValueError:
            continue
    return out


def event_window(
    blocks: list[list[str]], years: tuple[int, int] = (1, 9999)
) -> tuple[dt.datetime, dt.datetime] | None:
    """The span of the events' DTSTART and DTEND (local wall times) in ``years`` (the
    reader refuses the others, so they need no zone), with a margin."""
    found = [
        moment
        for block in blocks
        for line in block
        if _name(line) in ("DTSTART", "DTEND")
        for moment in _moments(line.rpartition(":")[2])[:1]
        if years[0] <= moment.year <= years[1]
    ]
    if not found:
        return None
    return _shift(min(found), -MARGIN), _shift(max(found), MARGIN)


def _shift(moment: dt.datetime, by: dt.timedelta) -> dt.datetime:
    """``moment + by``, held at the calendar's ends (an event in year 1 or 9999 beside a
    VTIMEZONE overflowed here and lost the whole file)."""
    try:
        return moment + by
    except OverflowError:
        return dt.datetime.min if by < dt.timedelta(0) else dt.datetime.max


def split_zones(lines: list[str]) -> list[list[str]]:
    """The VTIMEZONE blocks of a file's zone lines (BEGIN:VTIMEZONE ... END:VTIMEZONE)."""
    zones: list[list[str]] = []
    for line in lines:
        if line.strip().upper() == "BEGIN:VTIMEZONE" or not zones:
            zones.append([])
        zones[-1].append(line)
    return zones


def _tzid(zone: list[str]) -> str | None:
    for line in zone:
        if _name(line) == "TZID":
            return line.partition(":")[2].strip()
    return None


def _observances(zone: list[str]) -> tuple[list[str], list[tuple[str, list[str]]]]:
    """The zone's own properties (only those a VTIMEZONE reader knows) and its STANDARD and
    DAYLIGHT blocks; anything else (X- properties, unknown components) is dropped."""
    top: list[str] = []
    subs: list[tuple[str, list[str]]] = []
    current: list[str] | None = None
    depth = 0
    for line in zone[1:]:
        name = _name(line)
        value = line.partition(":")[2].strip().upper()
        if name == "BEGIN":
            depth += 1
            if depth == 1 and value in _KINDS:
                current = []
                subs.append((value, current))
            continue
        if name == "END":
            depth -= 1
            if depth == 0:
                current = None
            continue
        if depth == 0 and name in _TOP:
            top.append(line)
        elif depth == 1 and current is not None and name in _SUB:
            current.append(line)
    return top, subs


def _onsets(sub: list[str]) -> tuple[list[dt.datetime], bool, bool]:
    """(onsets from DTSTART and RDATE, has a rule, every date could be read)."""
    onsets: list[dt.datetime] = []
    rule = False
    readable = True
    for line in sub:
        name = _name(line)
        if name in ("RRULE", "EXRULE", "EXDATE"):
            rule = True  # kept whenever it starts in time
        elif name in ("DTSTART", "RDATE"):
            found = _moments(line.partition(":")[2])
            readable = readable and bool(found)
            onsets += found[:1] if name == "DTSTART" else found
    return onsets, rule, readable


def _cut(subs, window) -> list[tuple[str, list[str]]]:
    """The observances that can decide an offset inside ``window`` (see the module)."""
    if window is None:
        return subs
    lo, hi = window
    keep: list[bool] = []
    latest: dict[str, tuple[dt.datetime, int]] = {}  # kind -> (onset, index) before lo
    for n, (kind, sub) in enumerate(subs):
        onsets, rule, readable = _onsets(sub)
        if not readable or not onsets:
            keep.append(True)
        elif rule:
            keep.append(min(onsets) <= hi)
        elif any(lo <= o <= hi for o in onsets):
            keep.append(True)
        else:
            keep.append(False)
            before = [o for o in onsets if o < lo]
            if before and (kind not in latest or max(before) > latest[kind][0]):
                latest[kind] = (max(before), n)
    for _onset, n in latest.values():
        keep[n] = True
    # tzical falls back to the first STANDARD (else the first) block for a moment before
    # every onset: keep those too, so the cut zone falls back the same way
    first_standard = next((n for n, (kind, _sub) in enumerate(subs) if kind == "STANDARD"), 0)
    for n in {0, first_standard}:
        if subs:
            keep[n] = True
    return [s for s, k in zip(subs, keep, strict=True) if k]


def build_zone(zone: list[str], window) -> dt.tzinfo | None:
    """The tzinfo of one VTIMEZONE block cut to ``window``; None when it cannot be read."""
    from dateutil import tz

    top, subs = _observances(zone)
    subs = _cut(subs, window)
    lines = ["BEGIN:VTIMEZONE", *top]
    for kind, sub in subs:
        lines += [f"BEGIN:{kind}", *sub, f"END:{kind}"]
    lines.append("END:VTIMEZONE")
    try:
        return tz.tzical(io.StringIO("\n".join(lines))).get()
    except Exception:  # noqa: BLE001 - any failure: icalendar may read it
        return _icalendar_zone(lines)


def _icalendar_zone(lines: list[str]) -> dt.tzinfo | None:
    """icalendar's tzinfo for a VTIMEZONE block ``tzical`` refused, or None."""
    import icalendar
    from icalendar.timezone import tzp

    try:
        text = "\r\n".join(["BEGIN:VCALENDAR", *lines, "END:VCALENDAR"]) + "\r\n"
        (component,) = icalendar.Calendar.from_ical(text).walk("VTIMEZONE")
        zone = tzp.create_timezone(component)
        dt.datetime(2026, 1, 1, tzinfo=zone).utcoffset()  # it answers, or it is not a zone
    except Exception:  # noqa: BLE001 - unreadable: the TZID is looked up by name
        return None
    return zone


def coverage(zone: list[str]) -> tuple[dt.datetime | None, dt.datetime | None]:
    """The wall times a VTIMEZONE block has rules for: from its first onset (DTSTART or
    RDATE) to its last when no observance repeats (an RRULE) and it has a daylight part;
    None for an open end."""
    subs = _observances(zone)[1]
    onsets = [o for _kind, sub in subs for o in _onsets(sub)[0]]
    if not onsets:
        return None, None
    ends = any(kind == "DAYLIGHT" for kind, _sub in subs) and not any(
        _onsets(sub)[1] for _kind, sub in subs
    )
    return min(onsets), max(onsets) if ends else None


def named_zone(name: str) -> dt.tzinfo | None:
    """The zone a TZID names (an IANA or Windows name, a vendor prefix stripped), with
    zoneinfo's rules; None when it names none. icalendar's guess at a prefixed name
    ("/mozilla.org/…/Europe/Berlin") is a warning to a developer, not to the user."""
    import warnings

    from icalendar.timezone import tzp

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return tzp.timezone(name)
        except Exception:  # noqa: BLE001 - a name no zone has
            return None


class FileZones:
    """The VTIMEZONEs of one file, built once each, by TZID (a zone that cannot be read
    is left out). A zone is used only where it has rules (:func:`coverage`): before its
    first onset (WordPress plugins write only recent years) the zone its TZID names holds
    the instant, as icalendar with zoneinfo gives it."""

    def __init__(
        self,
        zone_lines: list[str],
        event_blocks: list[list[str]],
        years: tuple[int, int] = (1, 9999),
    ):
        self.built: dict[str, dt.tzinfo] = {}
        self.covers: dict[str, tuple] = {}  # TZID -> (first, last) onset it has rules for
        window = event_window(event_blocks, years) if zone_lines else None
        for zone in split_zones(zone_lines):
            tzid = _tzid(zone)
            built = build_zone(zone, window) if tzid else None
            if built is not None:
                span = coverage(zone)
                for name in (tzid, tzid.strip("/")):
                    self.built.setdefault(name, built)
                    self.covers.setdefault(name, span)

    def hide(self, block: list[str]) -> list[str]:
        """The event's lines with the TZID of each zone built here renamed, so icalendar
        leaves the time naive instead of searching the system's zones for the name (a
        miss is not cached: 0.4 s for 800 events); :meth:`tzid` reads it back."""
        if not self.built:
            return block
        out = []
        for line in block:
            head, sep, value = line.partition(":")
            if ";TZID=" in head.upper():
                params = head.split(";")
                for n, param in enumerate(params[1:], 1):
                    key, eq, zone = param.partition("=")
                    if key.upper() == "TZID" and zone.strip('"') in self.built:
                        params[n] = f"{HIDDEN}={zone}"
                line = ";".join(params) + sep + value
            out.append(line)
        return out

    @staticmethod
    def tzid(prop) -> str | None:
        """The TZID of a parsed property, hidden or not."""
        params = getattr(prop, "params", None)
        if params is None:
            return None
        return params.get("TZID") or params.get(HIDDEN)

    def localize(self, value: dt.datetime, tzid) -> dt.datetime | None:
        """A naive ``value`` in the file's zone ``tzid``; None when the file has no such zone."""
        name = str(tzid).strip('"')
        key = name if name in self.built else name.strip("/")
        zone = self.built.get(key)
        if zone is None:
            return None
        first, last = self.covers.get(key, (None, None))
        if (first and value < first) or (last and value > last):  # the file says nothing
            zone = named_zone(name) or zone
        return value.replace(tzinfo=zone)
