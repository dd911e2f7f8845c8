"""Interview invitations from iCalendar (.ics) files: each VEVENT's start and summary.

The properties are parsed by the maintained ``icalendar`` package (time zones from the
file's VTIMEZONE blocks, IANA names and Windows zone names, RFC 5545 escaping and
folding); this module only finds the events, with the line each starts on, so a bad
event is reported by line and the good events of the same file still come through.
Files are read through :func:`companion.core.fileio.read_limited` (regular files only,
at most 2 MiB). ``DTSTART`` may be UTC (``...Z``), have a ``TZID``, be floating (the
reader's local time on that date, with that date's daylight-saving offset) or an all-day
date; ``RRULE`` marks a repeating event. ``UID``, ``SEQUENCE``, ``DTSTAMP``, ``STATUS`` and
the calendar's ``METHOD`` say whether an event updates or cancels one imported before.
"""

from __future__ import annotations

import datetime as dt
import warnings
from dataclasses import dataclass
from pathlib import Path

from companion.core.day.ics_zones import FileZones
from companion.core.day.invite_fields import (
    Person,
    call_link_of,
    interviewer_in,
    mentioned,
    person_of,
    role_in,
)
from companion.core.fileio import FileReadError, read_limited

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
    link: str = ""  # the call link (see invite_fields.call_link_of)
    uid: str = ""
    sequence: int = 0
    stamp: dt.datetime | None = None  # DTSTAMP: which of two equal SEQUENCEs is newer
    cancelled: bool = False  # METHOD:CANCEL or STATUS:CANCELLED
    organizer: Person | None = None
    attendees: tuple[Person, ...] = ()
    recurrence_id: dt.datetime | None = None  # RECURRENCE-ID: the occurrence it changes
    rule: str = ""  # RRULE as written, for the series' first occurrence
    excluded: tuple[dt.datetime, ...] = ()  # EXDATE: occurrences removed from the series
    reply: bool = False  # METHOD:REPLY: an attendee's answer, never a round

    @property
    def named(self) -> str:
        """How a message names the event: its line, UID and summary."""
        return _naming(self.line, self.uid, self.summary)


def _naming(line: int, uid: str, summary: str) -> str:
    parts = [f"line {line}"]
    # a UID may hold an escaped newline (\n): the message stays one line
    uid = " ".join(uid.split())
    if uid:
        parts.append(f"UID {uid[:60]}")
    if summary:
        parts.append(repr(summary[:60] + ("…" if len(summary) > 60 else "")))
    return ", ".join(parts)


@dataclass(frozen=True)
class IcsProblem:
    line: int
    message: str
    uid: str = ""
    summary: str = ""

    def __str__(self) -> str:
        return f"{_naming(self.line, self.uid, self.summary)}: {self.message}"


def read_ics(
    path: Path, *, local_tz: dt.tzinfo | None = None
) -> tuple[list[IcsEvent], list[IcsProblem]]:
    """Read a calendar file; raise :class:`IcsError` naming the file when it cannot be read."""

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


def floating(value: dt.datetime, local_tz: dt.tzinfo | None) -> dt.datetime:
    """A floating (zone-less) time as local time on its own date: with ``local_tz`` None,
    the machine's zone with the offset that date has (15 July in New York is -04:00 even
    when read in December), never today's offset."""
    if local_tz is None:
        return value.astimezone()  # naive: the system's local time at that moment
    return value.replace(tzinfo=local_tz)


def _aware(value, tzid, zones: FileZones, local_tz: dt.tzinfo | None) -> dt.datetime | None:
    """A DTSTART-like value as an aware time: in the file's zone ``tzid`` (else the zone
    it names), floating as local time on its date, a date at its local midnight; None
    when its zone is unknown."""
    if isinstance(value, dt.datetime):
        if value.tzinfo is None and tzid:
            return zones.localize(value, tzid)
        return value if value.tzinfo else floating(value, local_tz)
    if isinstance(value, dt.date):
        return floating(dt.datetime.combine(value, dt.time()), local_tz)
    return None


def _series(event, zones: FileZones, local_tz: dt.tzinfo | None) -> dict:
    """RECURRENCE-ID, RRULE and EXDATE of an event (unreadable ones are left out: the
    event then counts as on its own)."""
    out: dict = {}
    try:
        prop = event.get("RECURRENCE-ID")
        if prop is not None:
            out["recurrence_id"] = _aware(prop.dt, zones.tzid(prop), zones, local_tz)
        rule = event.get("RRULE")
        if rule is not None:
            out["rule"] = rule.to_ical().decode("ascii", "replace")
        props = event.get("EXDATE")
        props = props if isinstance(props, list) else [props] if props is not None else []
        excluded = (_aware(d.dt, zones.tzid(p), zones, local_tz) for p in props for d in p.dts)
        out["excluded"] = tuple(x for x in excluded if x is not None)
    except Exception:  # noqa: BLE001 - a bad series part: the event stands alone
        return {k: v for k, v in out.items() if k == "recurrence_id"}
    return out


def _event_start(block: list[str], zones: FileZones, local_tz: dt.tzinfo | None):
    """(summary, start, all_day, repeats, minutes) of one VEVENT; ValueError says what is
    wrong. ``minutes`` is the invitation's length (DTEND or DURATION) when it is sane."""
    import icalendar

    starts = sum(1 for ln in _own_lines(block) if _name(ln) == "DTSTART")
    if starts > 1:
        raise ValueError(f"the event has {starts} DTSTART lines; it may have one")
    block = zones.hide(block)
    text = "\r\n".join(["BEGIN:VCALENDAR", *block, "END:VCALENDAR"]) + "\r\n"
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
            value = floating(value, local_tz)  # the reader's local time on that date
        all_day = False
    elif isinstance(value, dt.date):
        value = floating(dt.datetime.combine(value, dt.time()), local_tz)
        all_day = True
    else:
        raise ValueError("DTSTART is not a date or a date-time")
    if not MIN_YEAR <= value.year <= MAX_YEAR:
        raise ValueError(f"DTSTART year {value.year} is outside {MIN_YEAR}-{MAX_YEAR}")
    minutes = None if all_day else _minutes(event, value, local_tz, zones)
    return summary, value, all_day, repeats, minutes, event


def _minutes(event, start: dt.datetime, local_tz: dt.tzinfo | None, zones: FileZones) -> int | None:
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
                value = floating(value, local_tz)
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


def _own_lines(block: list[str]) -> list[str]:
    """A VEVENT's own content lines, without those of its alarms (or other parts)."""
    out: list[str] = []
    depth = 0
    for line in block[1:]:
        upper = line.strip().upper()
        if upper.startswith("BEGIN:"):
            depth += 1
        elif upper.startswith("END:"):
            depth = max(0, depth - 1)
        elif not depth:
            out.append(line)
    return out


def _props(block: list[str]) -> dict[str, list[str]]:
    """One VEVENT's own properties (an alarm's DESCRIPTION is not the event's): each name
    with its values, in the file's order."""
    props: dict[str, list[str]] = {}
    for line in _own_lines(block):
        props.setdefault(_name(line), []).append(_value(line))
    return props


def _details(block: list[str], event, cancel: bool) -> dict:
    """What an event says beyond its time: interviewer and role (DESCRIPTION), the call
    link, UID, SEQUENCE, DTSTAMP, whether it is cancelled, and the people."""

    props = _props(block)
    summary = (props.get("SUMMARY") or [""])[0]
    description = (props.get("DESCRIPTION") or [""])[0]
    name, role = interviewer_in(description)
    if not role:  # "Acme - Hiring manager": the title says whose round it is
        role = role_in(summary)
    organizer = next(iter(_people(event, "ORGANIZER")), None)
    attendees = tuple(_people(event, "ATTENDEE"))
    named = mentioned(attendees, organizer, summary, description)
    if named and (not name or named.lower().startswith(name.rstrip(".").lower())):
        name = named  # "Priya" in the text, "Priya Raman" invited: the attendee
    status = (props.get("STATUS") or [""])[0].strip().upper()
    return {
        "interviewer": name,
        "interviewer_role": role,
        "link": call_link_of(props),
        "uid": (props.get("UID") or [""])[0].strip()[:255],
        "sequence": _sequence((props.get("SEQUENCE") or ["0"])[0]),
        "stamp": _stamp(event),
        "cancelled": cancel or status == "CANCELLED",
        "organizer": organizer,
        "attendees": attendees,
    }


def _sequence(text: str) -> int:
    try:
        return max(0, min(int(text.strip()), 2**31))
    except ValueError:
        return 0


def _stamp(event) -> dt.datetime | None:
    try:
        value = event.get("DTSTAMP")
        value = None if value is None else value.dt
    except Exception:  # noqa: BLE001 - a bad DTSTAMP only loses the tie-break
        return None
    if not isinstance(value, dt.datetime):
        return None
    return value if value.tzinfo else value.replace(tzinfo=dt.UTC)


def _people(event, name: str) -> list[Person]:
    values = event.get(name)
    if values is None:
        return []
    if not isinstance(values, list):
        values = [values]
    out: list[Person] = []
    for value in values:
        person = person_of(str(value), dict(getattr(value, "params", {}) or {}))
        if person is not None and person not in out:
            out.append(person)
    return out


def _names(block: list[str]) -> tuple[str, str]:
    """(UID, SUMMARY) of an event that could not be read, for its message."""
    props = _props(block)
    return (props.get("UID") or [""])[0][:255], (props.get("SUMMARY") or [""])[0]


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
    zones: list[str] = []
    cancel = reply = False  # METHOD:CANCEL (Outlook's cancellation), METHOD:REPLY
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
            elif _name(line) == "METHOD":
                cancel = _value(line).upper() == "CANCEL"
                reply = _value(line).upper() == "REPLY"
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
    file_zones = FileZones(  # once per file
        zones, [block for _first, _at, block in blocks], (MIN_YEAR, MAX_YEAR)
    )
    with warnings.catch_warnings():  # icalendar's notes to a developer ("a globally
        warnings.simplefilter("ignore")  # unique TZID, guessed") are not the user's
        events = _events(blocks, file_zones, local_tz, cancel, reply, problems)
    if not events and not problems:
        raise IcsError("the calendar holds no events (VEVENT)")
    problems.sort(key=lambda p: p.line)
    events.sort(key=lambda e: e.start)
    return events, problems


def _events(blocks, file_zones, local_tz, cancel: bool, reply: bool, problems) -> list[IcsEvent]:
    """The readable events of ``blocks``; each unreadable one is added to ``problems``."""
    events: list[IcsEvent] = []
    for first, dtstart_at, block in blocks:
        if dtstart_at is None:
            problems.append(IcsProblem(first, "event has no DTSTART; skipped", *_names(block)))
            continue
        try:
            summary, start, all_day, repeats, minutes, event = _event_start(
                block, file_zones, local_tz
            )
        except ValueError as exc:
            problems.append(IcsProblem(dtstart_at, f"{exc}; event skipped", *_names(block)))
            continue
        details = _details(block, event, cancel)
        details.update(_series(event, file_zones, local_tz), reply=reply)
        events.append(IcsEvent(summary, start, first, all_day, repeats, minutes, **details))
    return events
