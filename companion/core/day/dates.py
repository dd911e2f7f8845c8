"""A day typed in words: "3 March", "Mar 3 2026", "3/3/2026", "2026-03-03", "tomorrow",
and a day with a time: "3 March 14:30", "tomorrow 2pm".

The loop dialog's date field and the round dialog's start field read what the user types
with these parsers, so a month name works as well as the picker. A day without a year is
the next such day from today.
"""

from __future__ import annotations

import calendar
import datetime as dt
import re

_MONTHS = {
    name.lower(): n
    for n in range(1, 13)
    for name in (calendar.month_name[n], calendar.month_abbr[n], calendar.month_name[n][:4])
}
_MONTHS["sept"] = 9
_WEEKDAYS = {
    name.lower()
    for n in range(7)
    for name in (calendar.day_name[n], calendar.day_abbr[n], calendar.day_name[n][:4])
} | {"tues", "thur", "thurs"}


def _month(word: str) -> int | None:
    return _MONTHS.get(word.lower().rstrip("."))


def _day(day: int, month: int, year: int | None, today: dt.date) -> dt.date | None:
    try:
        if year is not None:
            return dt.date(year if year >= 100 else 2000 + year, month, day)
        found = dt.date(today.year, month, day)
        return found if found >= today else dt.date(today.year + 1, month, day)
    except (ValueError, OverflowError):  # no such day; a number too long for a date
        return None


def parse_day(text: str, today: dt.date) -> dt.date | None:
    """The day ``text`` names, or None when it names none."""
    words = re.findall(r"[A-Za-z]+\.?|\d+", text.strip().lower().replace(",", " "))
    if not words:
        return None
    if words in (["today"],):
        return today
    if words == ["tomorrow"]:
        return today + dt.timedelta(days=1)
    iso = re.fullmatch(r"\s*(\d{4})-(\d{1,2})-(\d{1,2})\s*", text)
    if iso:
        return _day(int(iso.group(3)), int(iso.group(2)), int(iso.group(1)), today)
    words = [w for w in words if w not in ("the", "of", "st", "nd", "rd", "th")]
    words = [re.sub(r"(st|nd|rd|th)$", "", w) if re.fullmatch(r"\d+(st|nd|rd|th)", w) else w
             for w in words]  # fmt: skip
    digits = [w for w in words if w.isdigit()]
    if any(len(w) > 4 for w in digits):
        return None  # no day, month or year has five digits (and int() refuses 4,300+)
    numbers = [int(w) for w in digits]
    others = [w for w in words if not w.isdigit()]
    names = [_month(w) for w in others]
    if any(m is None and w.rstrip(".") not in _WEEKDAYS for w, m in zip(others, names)):
        return None  # a word that is neither a month nor a weekday: not a day we can read
    names = [m for m in names if m]
    if len(set(names)) > 1:
        return None  # two different months
    if names and 1 <= len(numbers) <= 2:
        year = next((n for n in numbers if n > 31), None)
        rest = [n for n in numbers if n != year] or numbers[:1]
        if year is None and len(numbers) == 2:
            if len(digits[1]) not in (2, 4):
                return None  # "30 Nov 0" names no year
            year = numbers[1]
            rest = numbers[:1]
        return _day(rest[0], names[0], year, today)
    if not names and len(numbers) == 3:  # d/m/y, the order the display format uses
        day, month, year = numbers
        return _day(day, month, year, today)
    return None


def default_round_start(
    now: dt.datetime, starts_on: dt.date | None, scheduled: list[dt.datetime]
) -> dt.datetime:
    """When a new round starts unless the user says otherwise: an hour after the loop's
    last scheduled round, unless that hour has passed; else, on a loop that starts today
    (or has begun), the next full hour today; else 10:00 on the loop's first day
    (tomorrow when that is unknown or late tonight)."""
    if scheduled:
        after_last = (max(scheduled) + dt.timedelta(hours=1)).astimezone(now.tzinfo)
        if after_last > now:
            return after_last
    at_ten = now.replace(hour=10, minute=0, second=0, microsecond=0)
    if starts_on is not None and starts_on > now.date():
        return at_ten + dt.timedelta(days=(starts_on - now.date()).days)
    next_hour = now.replace(minute=0, second=0, microsecond=0) + dt.timedelta(hours=1)
    if starts_on is not None and next_hour.date() == now.date() and next_hour.hour < 22:
        return next_hour
    return at_ten + dt.timedelta(days=1)


# A time is "14:30", "2:30 pm", "2.30pm", "2pm", "noon" or "midnight"; a bare number is
# never an hour, so the 3 of "3 March" stays a day.
_TIME = re.compile(
    r"(?<![\w:./-])(?:"
    r"(?P<h12>\d{1,2})(?:[:.](?P<m12>\d{2}))?\s*(?P<ampm>[ap])\.?m\.?"
    r"|(?P<h24>\d{1,2}):(?P<m24>\d{2})"
    r"|(?P<word>noon|midday|midnight)"
    r")(?![\w:./-])",
    re.IGNORECASE,
)


def _time(found: re.Match) -> dt.time | None:
    if found["word"]:
        return dt.time(0 if found["word"].lower() == "midnight" else 12)
    if found["h24"] is not None:
        hour, minute = int(found["h24"]), int(found["m24"])
    else:
        hour, minute = int(found["h12"]), int(found["m12"] or 0)
        if not 1 <= hour <= 12:
            return None
        hour = hour % 12 + (12 if found["ampm"].lower() == "p" else 0)
    return dt.time(hour, minute) if hour < 24 and minute < 60 else None


def parse_day_time(text: str, today: dt.date, current: dt.datetime) -> dt.datetime | None:
    """The moment ``text`` names: a day as :func:`parse_day` reads it and/or a time
    ("3 March 14:30", "tomorrow 2pm", "14:30"), or None when it names none or a bad one.

    A time alone keeps ``current``'s day; a day alone keeps ``current``'s time (both as
    wall time: the result is naive).
    """
    text = re.sub(r"(\d)T(\d)", r"\1 \2", text)  # 2026-03-03T14:30
    times = list(_TIME.finditer(text))
    if len(times) > 1:
        return None
    when = current.time().replace(second=0, microsecond=0, tzinfo=None)
    rest = text
    if times:
        when = _time(times[0])
        if when is None:
            return None
        rest = text[: times[0].start()] + " " + text[times[0].end() :]
    rest = re.sub(r"(?i)(?:^|\s|,)at(?:\s|,|$)", " ", rest).strip(" ,")
    if ":" in rest:  # a time half typed ("14:") or one too many ("9:15:00")
        return None
    if not rest:
        return dt.datetime.combine(current.date(), when) if times else None
    day = parse_day(rest, today)
    return dt.datetime.combine(day, when) if day else None
