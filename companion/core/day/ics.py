"""A small iCalendar (.ics) reader for interview invitations: VEVENT start and summary.

Reads what calendar exports put in an invitation: ``DTSTART`` in UTC (``...Z``), with a
``TZID`` parameter, floating (local time) or as an all-day date, and ``SUMMARY``. Anything
else is ignored. Problems are reported with the line they are on; the good events of a
file with one bad event still come through.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from pathlib import Path

MAX_BYTES = 2 * 1024 * 1024

# Names Outlook/Exchange write as TZID, mapped to IANA zones (the common ones).
_WINDOWS_ZONES = {
    "W. Europe Standard Time": "Europe/Berlin",
    "Romance Standard Time": "Europe/Paris",
    "Central Europe Standard Time": "Europe/Budapest",
    "GMT Standard Time": "Europe/London",
    "Eastern Standard Time": "America/New_York",
    "Central Standard Time": "America/Chicago",
    "Mountain Standard Time": "America/Denver",
    "Pacific Standard Time": "America/Los_Angeles",
    "India Standard Time": "Asia/Kolkata",
    "Tokyo Standard Time": "Asia/Tokyo",
    "AUS Eastern Standard Time": "Australia/Sydney",
    "UTC": "UTC",
}


class IcsError(ValueError):
    """The whole file cannot be read as a calendar; the message says why."""


@dataclass(frozen=True)
class IcsEvent:
    summary: str
    start: dt.datetime  # aware; an all-day event starts at local midnight
    line: int  # the line of its BEGIN:VEVENT
    all_day: bool = False
    repeats: bool = False


@dataclass(frozen=True)
class IcsProblem:
    line: int
    message: str

    def __str__(self) -> str:
        return f"line {self.line}: {self.message}"


def read_ics(
    path: Path, *, local_tz: dt.tzinfo | None = None
) -> tuple[list[IcsEvent], list[IcsProblem]]:
    """Read a calendar file; raise :class:`IcsError` naming the file when it cannot be read."""
    from companion.core.fileio import FileReadError, read_limited

    path = Path(path)
    try:
        raw = read_limited(path, "calendar")
    except FileReadError as exc:
        raise IcsError(str(exc)) from None
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        text = raw.decode("latin-1")  # some old exporters; SUMMARY may look odd but times are ASCII
    try:
        return parse_ics(text, local_tz=local_tz)
    except IcsError as exc:
        raise IcsError(f"{path}: {exc}") from None


def _unfold(text: str) -> list[tuple[int, str]]:
    """Logical lines with the physical line number they start on (RFC 5545 folding)."""
    out: list[tuple[int, str]] = []
    for n, line in enumerate(text.replace("\r\n", "\n").replace("\r", "\n").split("\n"), 1):
        if line[:1] in (" ", "\t") and out:
            out[-1] = (out[-1][0], out[-1][1] + line[1:])
        elif line.strip():
            out.append((n, line))
    return out


_PARAM = re.compile(r';([A-Za-z0-9-]+)=("[^"]*"|[^;:]*)')


def _split(line: str) -> tuple[str, dict[str, str], str]:
    """NAME;PARAM=x:value -> (NAME, {PARAM: x}, value)."""
    match = re.match(r"([A-Za-z0-9-]+)((?:;[A-Za-z0-9-]+=(?:\"[^\"]*\"|[^;:]*))*):(.*)$", line)
    if not match:
        return "", {}, ""
    name, params_text, value = match.groups()
    params = {k.upper(): v.strip('"') for k, v in _PARAM.findall(params_text)}
    return name.upper(), params, value


def _unescape(value: str) -> str:
    return re.sub(
        r"\\([\\;,nN])", lambda m: "\n" if m.group(1) in "nN" else m.group(1), value
    ).strip()


def _zone(tzid: str) -> dt.tzinfo | None:
    from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

    name = tzid.strip().lstrip("/")
    name = _WINDOWS_ZONES.get(name, name)
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return None


def _parse_start(
    value: str, params: dict[str, str], local_tz: dt.tzinfo | None
) -> tuple[dt.datetime, bool]:
    value = value.strip()
    local_tz = local_tz or dt.datetime.now().astimezone().tzinfo
    if params.get("VALUE", "").upper() == "DATE" or re.fullmatch(r"\d{8}", value):
        day = dt.datetime.strptime(value, "%Y%m%d")
        return day.replace(tzinfo=local_tz), True
    match = re.fullmatch(r"(\d{8}T\d{4}(?:\d{2})?)(Z?)", value)
    if not match:
        raise ValueError(f"DTSTART {value!r} is not a date-time like 20261201T100000")
    stamp, utc = match.groups()
    naive = dt.datetime.strptime(stamp, "%Y%m%dT%H%M%S" if len(stamp) == 15 else "%Y%m%dT%H%M")
    if utc:
        return naive.replace(tzinfo=dt.UTC), False
    if "TZID" in params:
        zone = _zone(params["TZID"])
        if zone is None:
            raise ValueError(f"unknown time zone {params['TZID']!r} in DTSTART")
        return naive.replace(tzinfo=zone), False
    return naive.replace(tzinfo=local_tz), False  # floating time: the reader's local time


def parse_ics(
    text: str, *, local_tz: dt.tzinfo | None = None
) -> tuple[list[IcsEvent], list[IcsProblem]]:
    """Events (sorted by start) and per-event problems; :class:`IcsError` if not a calendar."""
    lines = _unfold(text)
    if not lines:
        raise IcsError("the file is empty")
    if lines[0][1].strip().upper() != "BEGIN:VCALENDAR":
        raise IcsError(
            f"line {lines[0][0]}: not an iCalendar file (it should start with BEGIN:VCALENDAR)"
        )
    events: list[IcsEvent] = []
    problems: list[IcsProblem] = []
    current: dict | None = None
    depth = 0  # nested components inside a VEVENT (VALARM)
    for n, line in lines:
        upper = line.strip().upper()
        if upper == "BEGIN:VEVENT":
            if current is not None:
                problems.append(IcsProblem(current["line"], "VEVENT not closed by END:VEVENT"))
            current = {"line": n, "summary": "", "start": None, "problem": None, "repeats": False}
            depth = 0
            continue
        if current is None:
            continue
        if upper.startswith("BEGIN:"):
            depth += 1
            continue
        if upper.startswith("END:") and depth:
            depth -= 1
            continue
        if upper == "END:VEVENT":
            if current["problem"]:
                problems.append(current["problem"])
            elif current["start"] is None:
                problems.append(IcsProblem(current["line"], "event has no DTSTART; skipped"))
            else:
                start, all_day = current["start"]
                events.append(
                    IcsEvent(
                        current["summary"], start, current["line"], all_day, current["repeats"]
                    )
                )
            current = None
            continue
        if depth:
            continue
        name, params, value = _split(line)
        if name == "SUMMARY":
            current["summary"] = _unescape(value)
        elif name == "RRULE":
            current["repeats"] = True
        elif name == "DTSTART":
            try:
                current["start"] = _parse_start(value, params, local_tz)
            except ValueError as exc:
                current["problem"] = IcsProblem(n, f"{exc}; event skipped")
    if current is not None:
        problems.append(IcsProblem(current["line"], "VEVENT not closed by END:VEVENT; skipped"))
    if not events and not problems:
        raise IcsError("the calendar holds no events (VEVENT)")
    events.sort(key=lambda e: e.start)
    return events, problems
