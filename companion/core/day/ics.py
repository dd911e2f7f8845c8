"""Interview invitations from iCalendar (.ics) files: each VEVENT's start and summary.

The properties are parsed by the maintained ``icalendar`` package (time zones from the
file's VTIMEZONE blocks, IANA names and Windows zone names, RFC 5545 escaping and
folding); this module only finds the events, with the line each starts on, so a bad
event is reported by line and the good events of the same file still come through.
Files are read through :func:`companion.core.fileio.read_limited` (regular files only,
at most 2 MiB). ``DTSTART`` may be UTC (``...Z``), have a ``TZID``, be floating (the
reader's local time) or an all-day date; ``RRULE`` marks a repeating event.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from pathlib import Path

from companion.core.day.ics_zones import FileZones

MIN_YEAR, MAX_YEAR = 1970, 2200


class IcsError(ValueError):
    """The whole file cannot be read as a calendar; the message says why."""


@dataclass(frozen=True)
class IcsEvent:
    summary: str
    start: dt.datetime  # aware; an all-day event starts at local midnight
    line: int  # the line of its BEGIN:VEVENT
    all_day: bool = False
    repeats: bool = False
    minutes: int | None = None  # from DTEND or DURATION; None: the round type's length
    interviewer: str = ""  # from DESCRIPTION ("Interviewer: Priya Raman")
    interviewer_role: str = ""  # "hiring-manager" when DESCRIPTION says so
    link: str = ""  # the call link: URL, else the first http(s) address in LOCATION


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


def _name(line: str) -> str:
    """The property name of a content line (before the first ';' or ':'), upper-case."""
    cut = len(line)
    for sep in (";", ":"):
        at = line.find(sep)
        if at != -1:
            cut = min(cut, at)
    return line[:cut].strip().upper()


def _event_start(
    block: list[str], zones: FileZones, local_tz: dt.tzinfo
) -> tuple[str, dt.datetime, bool, bool, int | None]:
    """(summary, start, all_day, repeats, minutes) of one VEVENT; ValueError says what is
    wrong. ``minutes`` is the invitation's length (DTEND or DURATION) when it is sane."""
    import icalendar

    block = zones.hide(block)
    text = "\r\n".join(["BEGIN:VCALENDAR", *zones.inline, *block, "END:VCALENDAR"]) + "\r\n"
    try:
        calendar = icalendar.Calendar.from_ical(text)
        event = calendar.walk("VEVENT")[0]
        prop = event.get("DTSTART")
        value = None if prop is None else prop.dt
    except (OSError, LookupError) as exc:  # e.g. TZID=America names a folder of zones
        raise ValueError(f"unknown time zone in DTSTART ({exc.__class__.__name__})") from None
    except Exception as exc:  # icalendar's own errors for a malformed property
        raw = next((ln.partition(":")[2] for ln in block if _name(ln) == "DTSTART"), "")
        raise ValueError(
            f"DTSTART {raw.strip()[:40]!r} is not a date-time like 20261201T100000 "
            f"({str(exc).splitlines()[0][:80]})"
        ) from None
    if value is None:
        raise ValueError("event has no readable DTSTART")
    tzid = zones.tzid(prop)
    summary = str(event.get("SUMMARY", "") or "").strip()
    repeats = event.get("RRULE") is not None
    if isinstance(value, dt.datetime):
        if value.tzinfo is None and tzid:
            value = zones.localize(value, tzid)  # the file's own VTIMEZONE
            if value is None:
                raise ValueError(f"unknown time zone {str(tzid)[:40]!r} in DTSTART")
        if value.tzinfo is None:
            value = value.replace(tzinfo=local_tz)  # floating time: the reader's local time
        all_day = False
    elif isinstance(value, dt.date):
        value = dt.datetime.combine(value, dt.time(), local_tz)
        all_day = True
    else:
        raise ValueError("DTSTART is not a date or a date-time")
    if not MIN_YEAR <= value.year <= MAX_YEAR:
        raise ValueError(f"DTSTART year {value.year} is outside {MIN_YEAR}-{MAX_YEAR}")
    minutes = None if all_day else _minutes(event, value, local_tz, zones)
    return summary, value, all_day, repeats, minutes


def _minutes(event, start: dt.datetime, local_tz: dt.tzinfo, zones: FileZones) -> int | None:
    """The event's length in whole minutes, from DTEND or DURATION; None when absent,
    unreadable, or not between 1 minute and 12 hours (then the round type's length holds)."""
    try:
        end = event.get("DTEND")
        if end is not None:
            value = end.dt
            if not isinstance(value, dt.datetime):
                return None
            tzid = zones.tzid(end)
            if value.tzinfo is None and tzid:
                value = zones.localize(value, tzid)
                if value is None:  # no such zone: no length
                    return None
            if value.tzinfo is None:
                value = value.replace(tzinfo=local_tz)
            length = value - start
        else:
            duration = event.get("DURATION")
            if duration is None:
                return None
            length = duration.dt
        minutes = round(length.total_seconds() / 60)
    except Exception:  # noqa: BLE001 - a bad end only loses the length, never the event
        return None
    return minutes if 1 <= minutes <= 12 * 60 else None


def _value(line: str) -> str:
    """A content line's value (after the ':' that ends its parameters, quotes skipped),
    with RFC 5545 text escapes undone."""
    quoted = False
    for at, char in enumerate(line):
        if char == '"':
            quoted = not quoted
        elif char == ":" and not quoted:
            raw = line[at + 1 :]
            break
    else:
        return ""
    out, escape = [], False
    for char in raw:
        if escape:
            out.append("\n" if char in "nN" else char)
            escape = False
        elif char == "\\":
            escape = True
        else:
            out.append(char)
    return "".join(out).strip()


def _details(block: list[str]) -> tuple[str, str, str]:
    """(interviewer, role, call link) of one VEVENT's own lines (an alarm's DESCRIPTION is not
    the event's): DESCRIPTION -> interviewer, URL or LOCATION -> link."""
    from companion.core.day.invite_fields import interviewer_in, link_in

    props: dict[str, str] = {}
    depth = 0
    for line in block[1:]:
        upper = line.strip().upper()
        if upper.startswith("BEGIN:"):
            depth += 1
        elif upper.startswith("END:"):
            depth = max(0, depth - 1)
        elif not depth:
            props.setdefault(_name(line), _value(line))
    name, role = interviewer_in(props.get("DESCRIPTION", ""))
    return name, role, link_in(props.get("URL", ""), props.get("LOCATION", ""))


def parse_ics(
    text: str, *, local_tz: dt.tzinfo | None = None
) -> tuple[list[IcsEvent], list[IcsProblem]]:
    """Events (sorted by start) and per-event problems; :class:`IcsError` if not a calendar."""
    local_tz = local_tz or dt.datetime.now().astimezone().tzinfo
    lines = _unfold(text)
    if not lines:
        raise IcsError("the file is empty")
    if lines[0][1].strip().upper() != "BEGIN:VCALENDAR":
        raise IcsError(
            f"line {lines[0][0]}: not an iCalendar file (it should start with BEGIN:VCALENDAR)"
        )
    zones: list[str] = []
    blocks: list[tuple[int, int | None, list[str]]] = []  # (line, DTSTART line, lines)
    problems: list[IcsProblem] = []
    current: list[str] | None = None
    start_line = 0
    dtstart_line: int | None = None
    in_zone = False
    depth = 0
    for n, line in lines:
        upper = line.strip().upper()
        if current is None:
            if upper == "BEGIN:VTIMEZONE":
                in_zone = True
            if in_zone:
                zones.append(line)
                in_zone = upper != "END:VTIMEZONE"
                continue
            if upper == "BEGIN:VEVENT":
                current, start_line, dtstart_line, depth = [line], n, None, 0
            continue
        if upper == "BEGIN:VEVENT":
            problems.append(IcsProblem(start_line, "VEVENT not closed by END:VEVENT"))
            current, start_line, dtstart_line, depth = [line], n, None, 0
            continue
        current.append(line)
        if upper.startswith("BEGIN:"):
            depth += 1
        elif upper.startswith("END:") and depth:
            depth -= 1
        elif upper == "END:VEVENT":
            blocks.append((start_line, dtstart_line, current))
            current = None
        elif not depth and dtstart_line is None and _name(line) == "DTSTART":
            dtstart_line = n
    if current is not None:
        problems.append(IcsProblem(start_line, "VEVENT not closed by END:VEVENT; skipped"))
    file_zones = FileZones(zones, [block for _first, _at, block in blocks])  # once per file
    events: list[IcsEvent] = []
    for first, dtstart_at, block in blocks:
        if dtstart_at is None:
            problems.append(IcsProblem(first, "event has no DTSTART; skipped"))
            continue
        try:
            summary, start, all_day, repeats, minutes = _event_start(block, file_zones, local_tz)
        except ValueError as exc:
            problems.append(IcsProblem(dtstart_at, f"{exc}; event skipped"))
            continue
        events.append(IcsEvent(summary, start, first, all_day, repeats, minutes, *_details(block)))
    if not events and not problems:
        raise IcsError("the calendar holds no events (VEVENT)")
    problems.sort(key=lambda p: p.line)
    events.sort(key=lambda e: e.start)
    return events, problems
