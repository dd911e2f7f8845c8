"""A candidate's calendar for the tests of issue 61: three companies, two of them the same
day (Northwind's back-to-back rounds 10:00-10:45 and 10:45-11:30 and one at 14:00;
Cobalt's screen at 16:00), and one the next week with a round at 02:00 (Driftwood).
Every time is local wall time on the machine's zone (``local_zone()``), as the app and
``companion today --at`` read it."""

from __future__ import annotations

import datetime as dt

from companion.core.day.loops import add_round, create_loop, update_round
from companion.core.timeutil import local_zone

DAY = dt.date(2026, 12, 7)  # a Monday
NEXT_WEEK = dt.date(2026, 12, 14)


def local(day: dt.date, hour: int, minute: int = 0) -> dt.datetime:
    return dt.datetime.combine(day, dt.time(hour, minute), tzinfo=local_zone())


#: (company, [(type, day, hour, minute, minutes)])
CALENDAR = (
    (
        "Northwind",
        [
            ("coding", DAY, 10, 0, 45),
            ("design", DAY, 10, 45, 45),
            ("hiring-manager", DAY, 14, 0, 45),
        ],
    ),
    ("Cobalt", [("peer", DAY, 16, 0, 30)]),
    ("Driftwood", [("coding", NEXT_WEEK, 2, 0, 45)]),
)


def book(db) -> dict[str, tuple[int, list[int]]]:
    """Add the calendar's loops and rounds: {company: (loop id, round ids)}."""
    booked = {}
    for company, rounds in CALENDAR:
        loop_id = create_loop(db, company, "ML infra", starts_on=rounds[0][1].isoformat())
        ids = []
        for kind, day, hour, minute, minutes in rounds:
            round_id = add_round(db, loop_id, kind, scheduled_at=local(day, hour, minute))
            update_round(db, round_id, length_minutes=minutes)
            ids.append(round_id)
        booked[company] = (loop_id, ids)
    return booked


def spans() -> list[tuple[str, dt.datetime, dt.datetime]]:
    """(company, start, end) of every round."""
    return [
        (company, local(day, h, m), local(day, h, m) + dt.timedelta(minutes=minutes))
        for company, rounds in CALENDAR
        for _kind, day, h, m, minutes in rounds
    ]


def inside_a_round(moment: dt.datetime) -> bool:
    """Whether ``moment`` lies strictly inside a round (a break is the end itself)."""
    return any(start < moment < end for _c, start, end in spans())


#: the stretches walked minute by minute: each interview day from the evening before to
#: past its thank-you reminders
WALKS = (
    (local(DAY - dt.timedelta(days=1), 16), local(DAY + dt.timedelta(days=1), 18)),
    (local(NEXT_WEEK - dt.timedelta(days=1), 16), local(NEXT_WEEK, 23, 30)),
)
