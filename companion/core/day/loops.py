"""Interview loops and their rounds: the rows every feature shares.

Times are ISO 8601 strings with a UTC offset, read and written by
:mod:`companion.core.timeutil`; dates are ``YYYY-MM-DD``.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from companion.core.content.audiences import AUDIENCES
from companion.core.day.links import call_link
from companion.core.storage.rows import set_columns
from companion.core.text import MAX_TEXT, clean_text
from companion.core.timeutil import parse_stored, to_stored, to_stored_utc

if TYPE_CHECKING:
    from sqlite_utils import Database

LOOP_STATUSES = ("planned", "active", "done", "offer", "rejected", "withdrawn")
INTERVIEWER_ROLES = ("", *AUDIENCES)  # "": not known


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
    link: str = ""  # the call link (an http(s) address; see companion.core.day.links)
    organizer: str = ""  # the invitation's ORGANIZER (usually the recruiter)
    people: str = ""  # JSON: the invitation's people [{"name", "email", "organizer"}]
    ics_uid: str = ""  # the invitation event's UID, SEQUENCE and DTSTAMP
    ics_sequence: int = 0
    ics_stamp: str = ""
    skip_reason: str = ""  # why it was skipped ("cancelled by the organizer"); "" by hand
    ics_start: str = ""  # the invitation's start at the invitation's own offset

    @property
    def scheduled(self) -> dt.datetime | None:
        return parse_stored(self.scheduled_at)

    @property
    def started(self) -> dt.datetime | None:
        return parse_stored(self.started_at)

    @property
    def ended(self) -> dt.datetime | None:
        return parse_stored(self.ended_at)


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
    for text, what in ((company, "The company name"), (role, "The role"), (notes, "The notes")):
        if len(text) > MAX_TEXT:  # the limit the edit dialogs and the import hold to
            raise ValueError(f"{what} is {len(text):,} characters; the limit is {MAX_TEXT:,}.")
    table = db["loops"]
    table.insert(
        {
            "company": company,
            "role": role.strip(),
            "starts_on": starts_on,
            "ends_on": ends_on,
            "status": status,
            "notes": notes,
            "created_at": to_stored_utc(),
        }
    )
    return table.last_pk


def clean_loop_fields(fields: dict, current: Loop | None = None) -> dict:
    """Check and tidy edited loop fields (company, role, starts_on, ends_on, status, notes)."""
    out: dict = {}
    for name, value in fields.items():
        if name == "company":
            out[name] = clean_text(value, "The company", required=True)
        elif name in ("role", "notes"):
            out[name] = clean_text(value, f"The {name}")
        elif name in ("starts_on", "ends_on"):
            text = clean_text(value or "", "The date")
            if text:
                try:
                    text = dt.date.fromisoformat(text).isoformat()
                except ValueError:
                    what = "first day" if name == "starts_on" else "last day"
                    raise ValueError(
                        f"The {what} {text!r} is not a date like 2026-12-01."
                    ) from None
            out[name] = text or None
        elif name == "status":
            status = clean_text(value, "The status", required=True).lower()
            if status not in LOOP_STATUSES and not (current and status == current.status):
                raise ValueError(f"The status {status!r} is not one of {', '.join(LOOP_STATUSES)}.")
            out[name] = status
        else:
            raise ValueError(f"A loop has no field {name!r}.")
    starts = out.get("starts_on", current.starts_on if current else None)
    ends = out.get("ends_on", current.ends_on if current else None)
    if starts and ends and ends < starts:
        raise ValueError(f"The last day ({ends}) is before the first day ({starts}).")
    return out


def update_loop(db: Database, loop_id: int, **fields) -> dict:
    """Change a loop's company, role, dates, status or notes; returns the previous values.

    The one way a loop is changed: every field is checked by :func:`clean_loop_fields`.
    """
    current = get_loop(db, loop_id)
    if current is None:
        raise ValueError(f"Loop {loop_id} does not exist.")
    values = clean_loop_fields(fields, current)
    previous = {name: getattr(current, name) for name in values}
    set_columns(db, "loops", loop_id, values)
    return previous


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
    """A default for a form that asks for one loop (the planner, a capture with no
    round): one spanning today, else the next one, else the most recent. Never the
    day's filter: the day is built from every loop's rounds (``actions.load_view``)."""
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
    "ended_at, notes, type_label, length_minutes, skipped_at, link, organizer, people, "
    "ics_uid, ics_sequence, ics_stamp, skip_reason, ics_start"
)
ROUND_COLUMNS = _ROUND_COLS  # a query that builds Round(*row) selects these, in order


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
            "scheduled_at": to_stored(scheduled_at) if scheduled_at else None,
            "started_at": None,
            "ended_at": None,
            "notes": "",
        }
    )
    return table.last_pk


_ROUND_TIMES = {
    "scheduled_at": "scheduled",
    "started_at": "start",
    "ended_at": "end",
    "skipped_at": "skipped",
}
MAX_ROUND_MINUTES = 24 * 60


def clean_round_fields(fields: dict, current: Round | None = None) -> dict:
    """Check and tidy round fields: type (and a custom type's own label), interviewer role
    and name, notes, length in minutes, call link and its times."""
    values: dict = {}
    for name, value in fields.items():
        if name == "type":
            values[name] = clean_text(value, "The round type", required=True)
        elif name == "interviewer_role":
            role = clean_text(value, "The interviewer role")
            if role not in INTERVIEWER_ROLES and not (current and role == current.interviewer_role):
                raise ValueError(
                    f"The interviewer role {role!r} is not one of "
                    f"{', '.join(r for r in INTERVIEWER_ROLES if r)} (or empty)."
                )
            values[name] = role
        elif name in (
            "interviewer_name",
            "notes",
            "type_label",
            "organizer",
            "people",
            "ics_uid",
            "ics_stamp",
            "skip_reason",
            "ics_start",
        ):
            what = {
                "interviewer_name": "The interviewer name",
                "notes": "The notes",
                "type_label": "The round's label",
                "organizer": "The organizer",
                "people": "The list of people",
                "ics_uid": "The invitation's UID",
                "ics_stamp": "The invitation's stamp",
                "skip_reason": "The reason",
                "ics_start": "The invitation's start",
            }[name]
            values[name] = clean_text(value or "", what)
        elif name == "link":
            text = clean_text(value or "", "The call link")
            if text and not call_link(text):
                raise ValueError(f"The call link {text[:80]!r} is not a web address (https://…).")
            values[name] = text
        elif name == "ics_sequence":
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise ValueError(f"An invitation's SEQUENCE is a whole number, not {value!r}.")
            values[name] = value
        elif name == "length_minutes":
            if value is not None and (
                isinstance(value, bool)
                or not isinstance(value, int)
                or not 1 <= value <= MAX_ROUND_MINUTES
            ):
                raise ValueError(f"A round lasts between 1 minute and 24 hours, not {value!r}.")
            values[name] = value
        elif name in _ROUND_TIMES:
            if isinstance(value, dt.datetime):
                value = to_stored(value)
            if value is not None and parse_stored(value) is None:
                raise ValueError(
                    f"The round's {_ROUND_TIMES[name]} time {value!r} is not a date and time."
                )
            values[name] = value
        else:
            raise ValueError(f"A round has no field {name!r} that can be edited here.")
    return values


def update_round(db: Database, round_id: int, **fields) -> dict:
    """Change a round's type, label, interviewer, notes, length, link or times; returns the
    previous values.

    The one way a round is changed: every field is checked by :func:`clean_round_fields`.
    """
    current = get_round(db, round_id)
    if current is None:
        raise ValueError(f"Round {round_id} does not exist.")
    values = clean_round_fields(fields, current)
    previous = {name: getattr(current, name) for name in values}
    set_columns(db, "rounds", round_id, values)
    return previous


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


def loose_rounds(db: Database, since: dt.datetime) -> list[Round]:
    """Rounds outside any loop (started from the card before a loop existed) that began
    after ``since``: they belong to the day as much as a loop's rounds."""
    floor = (since - dt.timedelta(days=1)).date().isoformat()  # offsets vary: a margin
    rows = db.execute(
        f"SELECT {_ROUND_COLS} FROM rounds WHERE loop_id IS NULL "
        "AND COALESCE(started_at, scheduled_at) >= ? ORDER BY id",
        [floor],
    ).fetchall()
    found = [Round(*row) for row in rows]
    return [r for r in found if (r.started or r.scheduled) and (r.started or r.scheduled) >= since]


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
        update_round(db, round_id, started_at=to_stored(started_at), type=round_type)
    return round_id


def end_round(db: Database, round_id: int, ended_at: dt.datetime) -> None:
    update_round(db, round_id, ended_at=to_stored(ended_at))


def custom_types(db: Database, known: set[str]) -> list[tuple[str, str]]:
    """(type id, its words) of every round type in the journal that ``known`` (the
    content's type ids) lacks: the custom types of imported invitations and typed rounds."""
    rows = db.execute(
        "SELECT type, MAX(type_label) FROM rounds WHERE type != '' GROUP BY type ORDER BY type"
    ).fetchall()
    return [(t, label or t.replace("-", " ")) for t, label in rows if t not in known]


def type_names(db: Database, titles: Mapping[str, str]) -> dict[str, str]:
    """Every round type's name for people, by type id: the content's title (``titles``),
    else the words a custom type was made from (an invitation's, a typed round's)."""
    own = {t: words[:1].upper() + words[1:] for t, words in custom_types(db, set(titles))}
    return {**own, **titles}
