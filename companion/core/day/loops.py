"""Interview loops and their rounds: the rows every feature shares.

Times are ISO 8601 strings with a UTC offset (``dt.datetime.isoformat()`` of an aware
datetime); dates are ``YYYY-MM-DD``.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from sqlite_utils import Database


@dataclass(frozen=True)
class Loop:
    id: int
    company: str
    role: str
    starts_on: str | None
    ends_on: str | None
    status: str
    notes: str

    @property
    def label(self) -> str:
        """One line for a loop picker: company — role (first day)."""
        text = self.company + (f" — {self.role}" if self.role else "")
        return text + (f" ({self.starts_on})" if self.starts_on else "")


@dataclass(frozen=True)
class Round:
    id: int
    loop_id: int | None
    type: str
    interviewer_role: str
    interviewer_name: str
    scheduled_at: str | None
    started_at: str | None
    ended_at: str | None
    notes: str
    type_label: str = ""  # a custom round type's own words
    length_minutes: int | None = None  # from the invitation; None: the content's length
    skipped_at: str | None = None

    @property
    def scheduled(self) -> dt.datetime | None:
        return parse_time(self.scheduled_at)

    @property
    def started(self) -> dt.datetime | None:
        return parse_time(self.started_at)

    @property
    def ended(self) -> dt.datetime | None:
        return parse_time(self.ended_at)


def parse_time(value: str | None) -> dt.datetime | None:
    """A stored time, aware; None for empty, malformed or out-of-range values (an imported
    ``0001-01-01`` must not break every view that shows it)."""
    if not value or not isinstance(value, str):
        return None
    try:
        parsed = dt.datetime.fromisoformat(value)
        if not 1900 <= parsed.year <= 9000:  # a stored 0001-01-01 cannot be shown locally
            return None
        return parsed if parsed.tzinfo else parsed.astimezone()
    except (ValueError, OverflowError, OSError):
        return None


def iso(moment: dt.datetime) -> str:
    return (moment if moment.tzinfo else moment.astimezone()).isoformat(timespec="seconds")


def _utc_now() -> str:
    return dt.datetime.now(dt.UTC).isoformat(timespec="seconds")


def create_loop(
    db: Database,
    company: str,
    role: str = "",
    *,
    starts_on: str | None = None,
    ends_on: str | None = None,
    status: str = "planned",
    notes: str = "",
) -> int:
    company = company.strip()
    if not company:
        raise ValueError("A loop needs a company name.")
    table = db["loops"]
    table.insert(
        {
            "company": company,
            "role": role.strip(),
            "starts_on": starts_on,
            "ends_on": ends_on,
            "status": status,
            "notes": notes,
            "created_at": _utc_now(),
        }
    )
    return table.last_pk


def update_loop(db: Database, loop_id: int, **fields) -> None:
    db["loops"].update(loop_id, fields)


def get_loop(db: Database, loop_id: int) -> Loop | None:
    row = db.execute(
        "SELECT id, company, role, starts_on, ends_on, status, notes FROM loops WHERE id = ?",
        [loop_id],
    ).fetchone()
    return Loop(*row) if row else None


def list_loops(db: Database) -> list[Loop]:
    rows = db.execute(
        "SELECT id, company, role, starts_on, ends_on, status, notes FROM loops "
        "ORDER BY COALESCE(starts_on, created_at) DESC, id DESC"
    ).fetchall()
    return [Loop(*row) for row in rows]


def current_loop(db: Database, today: dt.date) -> Loop | None:
    """The loop the user is most likely in today: one spanning today, else the next one,
    else the most recent."""
    loops = list_loops(db)
    day = today.isoformat()
    for loop in loops:
        if loop.starts_on and loop.starts_on <= day <= (loop.ends_on or loop.starts_on):
            return loop
    upcoming = sorted(
        (lp for lp in loops if lp.starts_on and lp.starts_on > day), key=lambda lp: lp.starts_on
    )
    if upcoming:
        return upcoming[0]
    return loops[0] if loops else None


_ROUND_COLS = (
    "id, loop_id, type, interviewer_role, interviewer_name, scheduled_at, started_at, "
    "ended_at, notes, type_label, length_minutes, skipped_at"
)


def add_round(
    db: Database,
    loop_id: int | None,
    round_type: str,
    *,
    scheduled_at: dt.datetime | None = None,
    interviewer_role: str = "",
    interviewer_name: str = "",
) -> int:
    table = db["rounds"]
    table.insert(
        {
            "loop_id": loop_id,
            "type": round_type,
            "interviewer_role": interviewer_role,
            "interviewer_name": interviewer_name,
            "scheduled_at": iso(scheduled_at) if scheduled_at else None,
            "started_at": None,
            "ended_at": None,
            "notes": "",
        }
    )
    return table.last_pk


def update_round(db: Database, round_id: int, **fields) -> None:
    db["rounds"].update(round_id, fields)


def delete_round(db: Database, round_id: int) -> None:
    db["rounds"].delete(round_id)


def get_round(db: Database, round_id: int) -> Round | None:
    row = db.execute(f"SELECT {_ROUND_COLS} FROM rounds WHERE id = ?", [round_id]).fetchone()
    return Round(*row) if row else None


def list_rounds(db: Database, loop_id: int) -> list[Round]:
    rows = db.execute(
        f"SELECT {_ROUND_COLS} FROM rounds WHERE loop_id = ? "
        "ORDER BY COALESCE(scheduled_at, started_at), id",
        [loop_id],
    ).fetchall()
    return [Round(*row) for row in rows]


def start_round(
    db: Database,
    round_type: str,
    started_at: dt.datetime,
    *,
    loop_id: int | None = None,
    round_id: int | None = None,
    interviewer_role: str = "",
) -> int:
    """Record that a round started (the cue card's Start); returns the round id.

    With ``round_id`` a scheduled round is marked started; otherwise a new row is made.
    """
    with db.atomic():
        if round_id is None:
            round_id = add_round(db, loop_id, round_type, interviewer_role=interviewer_role)
        update_round(db, round_id, started_at=iso(started_at), type=round_type)
    return round_id


def end_round(db: Database, round_id: int, ended_at: dt.datetime) -> None:
    update_round(db, round_id, ended_at=iso(ended_at))
