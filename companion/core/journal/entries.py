"""The journal: what was asked, what was flubbed, what went well, notes and thank-yous.

Entries hang off a loop and, when known, a round. Entry times are stored as UTC ISO
strings so they sort as text. The Today page and the tray read :func:`captures_due` and
:func:`thank_yous_due`; both are cheap even with thousands of loops.
"""

from __future__ import annotations

import datetime as dt
import re
import unicodedata
from dataclasses import dataclass, field

from sqlite_utils import Database

from companion.core.day.loops import Loop, Round, get_loop, get_round, list_rounds, parse_time

# fallbacks only: the pack's after-loop `within_hours:` is used (Content.capture_window
# and Content.thank_you_after), passed in by the callers that have the content
CAPTURE_WINDOW = dt.timedelta(hours=1)
THANK_YOU_AFTER = dt.timedelta(hours=24)
THANK_YOU_REMIND_BEFORE = dt.timedelta(hours=4)
THANK_YOU_KEEP_SHOWING = dt.timedelta(days=3)
SEVERITIES = {1: "minor", 2: "noticeable", 3: "bad"}
ENTRY_TABLES = {"asked": "asked", "flub": "flubs", "went_well": "went_well", "weak": "weak_topics"}
MAX_TEXT = 200_000  # characters; a generous cap so a pasted novel cannot bloat the journal


@dataclass(frozen=True)
class Asked:
    id: int
    loop_id: int | None
    round_id: int | None
    question: str
    topic: str
    created_at: str


@dataclass(frozen=True)
class Flub:
    id: int
    loop_id: int | None
    round_id: int | None
    topic: str
    detail: str
    severity: int
    created_at: str
    studied_at: str | None


@dataclass(frozen=True)
class WentWell:
    id: int
    loop_id: int | None
    round_id: int | None
    text: str
    created_at: str


@dataclass(frozen=True)
class WeakTopic:
    id: int
    loop_id: int | None
    round_id: int | None
    topic: str
    note: str
    created_at: str
    studied_at: str | None


@dataclass(frozen=True)
class ThankYou:
    loop_id: int
    to_whom: str
    draft: str
    sent_at: str | None
    due_at: dt.datetime | None

    @property
    def sent(self) -> bool:
        return bool(self.sent_at)


@dataclass(frozen=True)
class CaptureDue:
    """A round just ended and nothing is written down for it yet (loop_id None: a round
    recorded without a loop)."""

    loop_id: int | None
    company: str
    round_id: int
    ended_at: dt.datetime
    deadline: dt.datetime


@dataclass(frozen=True)
class ThankYouDue:
    loop_id: int
    company: str
    due_at: dt.datetime
    sent: bool


@dataclass
class RoundEntries:
    round: Round | None  # None: entries recorded for the loop but no particular round
    asked: list[Asked] = field(default_factory=list)
    flubs: list[Flub] = field(default_factory=list)
    went_well: list[WentWell] = field(default_factory=list)
    weak: list[WeakTopic] = field(default_factory=list)

    @property
    def empty(self) -> bool:
        return not (self.asked or self.flubs or self.went_well or self.weak)


@dataclass
class LoopDetail:
    loop: Loop
    rounds: list[RoundEntries]
    thank_you: ThankYou


# --- helpers -----------------------------------------------------------------------


def utc_iso(moment: dt.datetime | None = None) -> str:
    moment = moment or dt.datetime.now(dt.UTC)
    if moment.tzinfo is None:
        moment = moment.astimezone()
    return moment.astimezone(dt.UTC).isoformat(timespec="seconds")


def topic_key(topic: str) -> str:
    """The grouping key of a topic: case, accents, punctuation and spacing ignored."""
    text = unicodedata.normalize("NFKD", topic)
    text = "".join(ch for ch in text if not unicodedata.combining(ch)).casefold()
    return " ".join(re.findall(r"\w+", text))


def _clean(text: str, what: str, *, required: bool = False) -> str:
    if not isinstance(text, str):
        raise ValueError(f"{what} must be text.")
    text = text.replace("\x00", "").strip()
    if required and not text:
        raise ValueError(f"{what} is empty; write a few words.")
    if len(text) > MAX_TEXT:
        raise ValueError(f"{what} is {len(text):,} characters; the limit is {MAX_TEXT:,}.")
    return text


def _owner(
    db: Database, loop_id: int | None, round_id: int | None
) -> tuple[int | None, int | None]:
    """Fill the loop from the round, and check both exist."""
    if round_id:
        found = get_round(db, round_id)
        if found is None:
            raise ValueError(f"Round {round_id} does not exist.")
        if loop_id is None:
            loop_id = found.loop_id
    else:
        round_id = None
    if loop_id is not None and get_loop(db, loop_id) is None:
        raise ValueError(f"Loop {loop_id} does not exist.")
    return loop_id, round_id


def _insert(db: Database, sql: str, params: list) -> int:
    cursor = db.execute(sql, params)
    return int(cursor.lastrowid)


# --- adding and removing entries ------------------------------------------------------


def add_asked(
    db: Database,
    loop_id: int | None,
    round_id: int | None,
    question: str,
    topic: str = "",
    *,
    at: dt.datetime | None = None,
) -> int:
    loop_id, round_id = _owner(db, loop_id, round_id)
    return _insert(
        db,
        "INSERT INTO asked(loop_id, round_id, question, topic, created_at) VALUES (?, ?, ?, ?, ?)",
        [
            loop_id,
            round_id,
            _clean(question, "The question", required=True),
            _clean(topic, "The topic"),
            utc_iso(at),
        ],
    )


def add_flub(
    db: Database,
    loop_id: int | None,
    round_id: int | None,
    topic: str,
    detail: str = "",
    severity: int = 2,
    *,
    at: dt.datetime | None = None,
) -> int:
    if severity not in SEVERITIES:
        raise ValueError(f"How bad a flub was must be 1, 2 or 3, not {severity!r}.")
    loop_id, round_id = _owner(db, loop_id, round_id)
    topic = _clean(topic, "The flubbed topic", required=True)
    return _insert(
        db,
        "INSERT INTO flubs(loop_id, round_id, topic, topic_key, detail, severity, created_at) "
        "VALUES (?, ?, ?, ?, ?, ?, ?)",
        [
            loop_id,
            round_id,
            topic,
            topic_key(topic),
            _clean(detail, "The flub detail"),
            severity,
            utc_iso(at),
        ],
    )


def add_went_well(
    db: Database,
    loop_id: int | None,
    round_id: int | None,
    text: str,
    *,
    at: dt.datetime | None = None,
) -> int:
    loop_id, round_id = _owner(db, loop_id, round_id)
    return _insert(
        db,
        "INSERT INTO went_well(loop_id, round_id, text, created_at) VALUES (?, ?, ?, ?)",
        [loop_id, round_id, _clean(text, "What went well", required=True), utc_iso(at)],
    )


def add_weak_topic(
    db: Database,
    topic: str,
    *,
    loop_id: int | None = None,
    round_id: int | None = None,
    note: str = "",
    at: dt.datetime | None = None,
) -> int:
    """Mark a topic weak (it goes on the study list until studied)."""
    loop_id, round_id = _owner(db, loop_id, round_id)
    topic = _clean(topic, "The weak topic", required=True)
    return _insert(
        db,
        "INSERT INTO weak_topics(loop_id, round_id, topic, topic_key, note, created_at) "
        "VALUES (?, ?, ?, ?, ?, ?)",
        [loop_id, round_id, topic, topic_key(topic), _clean(note, "The note"), utc_iso(at)],
    )


def delete_entry(db: Database, kind: str, entry_id: int) -> None:
    table = ENTRY_TABLES.get(kind)
    if table is None:
        raise ValueError(f"Unknown journal entry kind {kind!r}.")
    db.execute(f"DELETE FROM {table} WHERE id = ?", [entry_id])


def set_loop_notes(db: Database, loop_id: int, notes: str) -> None:
    db.execute("UPDATE loops SET notes = ? WHERE id = ?", [_clean(notes, "The notes"), loop_id])


def set_round_notes(db: Database, round_id: int, notes: str) -> None:
    db.execute("UPDATE rounds SET notes = ? WHERE id = ?", [_clean(notes, "The notes"), round_id])


# --- reading ------------------------------------------------------------------------


def _rows(db: Database, cls, sql: str, params: list) -> list:
    return [cls(*row) for row in db.execute(sql, params).fetchall()]


def loop_detail(
    db: Database, loop_id: int, thank_you_after: dt.timedelta | None = None
) -> LoopDetail | None:
    """A loop with its rounds and everything written for each (one query per kind)."""
    loop = get_loop(db, loop_id)
    if loop is None:
        return None
    rounds = list_rounds(db, loop_id)
    groups: dict[int | None, RoundEntries] = {r.id: RoundEntries(r) for r in rounds}
    loose = RoundEntries(None)

    def bucket(round_id: int | None) -> RoundEntries:
        return groups.get(round_id, loose) if round_id is not None else loose

    per_loop = (
        (Asked, "asked", "id, loop_id, round_id, question, topic, created_at", "asked"),
        (
            Flub,
            "flubs",
            "id, loop_id, round_id, topic, detail, severity, created_at, studied_at",
            "flubs",
        ),
        (WentWell, "went_well", "id, loop_id, round_id, text, created_at", "went_well"),
        (
            WeakTopic,
            "weak_topics",
            "id, loop_id, round_id, topic, note, created_at, studied_at",
            "weak",
        ),
    )
    for cls, table, columns, group in per_loop:
        sql = f"SELECT {columns} FROM {table} WHERE loop_id = ? ORDER BY created_at, id"
        for entry in _rows(db, cls, sql, [loop_id]):
            getattr(bucket(entry.round_id), group).append(entry)
    entries = [groups[r.id] for r in rounds]
    if not loose.empty:
        entries.append(loose)
    return LoopDetail(loop=loop, rounds=entries, thank_you=thank_you(db, loop_id, thank_you_after))


def round_entries(db: Database, round_id: int) -> RoundEntries:
    found = get_round(db, round_id)
    out = RoundEntries(found)
    out.asked = _rows(
        db,
        Asked,
        "SELECT id, loop_id, round_id, question, topic, created_at FROM asked WHERE round_id = ? ORDER BY id",
        [round_id],
    )
    out.flubs = _rows(
        db,
        Flub,
        "SELECT id, loop_id, round_id, topic, detail, severity, created_at, studied_at "
        "FROM flubs WHERE round_id = ? ORDER BY id",
        [round_id],
    )
    out.went_well = _rows(
        db,
        WentWell,
        "SELECT id, loop_id, round_id, text, created_at FROM went_well WHERE round_id = ? ORDER BY id",
        [round_id],
    )
    return out


def loop_end(db: Database, loop_id: int) -> dt.datetime | None:
    """When the loop ended: its last round's end, else the end of its last day."""
    row = db.execute(
        "SELECT ended_at FROM rounds WHERE loop_id = ? AND ended_at IS NOT NULL AND ended_at != ''",
        [loop_id],
    ).fetchall()
    ends = [t for t in (parse_time(r[0]) for r in row) if t]
    if ends:
        return max(ends)
    loop = get_loop(db, loop_id)
    if loop and (loop.ends_on or loop.starts_on):
        try:
            day = dt.date.fromisoformat(loop.ends_on or loop.starts_on)
        except ValueError:
            return None
        return dt.datetime.combine(day, dt.time(18, 0)).astimezone()
    return None


# --- thank-you notes ------------------------------------------------------------------


def thank_you(db: Database, loop_id: int, after: dt.timedelta | None = None) -> ThankYou:
    row = db.execute(
        "SELECT to_whom, draft, sent_at FROM thank_yous WHERE loop_id = ?", [loop_id]
    ).fetchone()
    end = loop_end(db, loop_id)
    due = end + (after or THANK_YOU_AFTER) if end else None
    if row is None:
        return ThankYou(loop_id, "", "", None, due)
    return ThankYou(loop_id, row[0], row[1], row[2], due)


def save_thank_you(
    db: Database,
    loop_id: int,
    *,
    to_whom: str | None = None,
    draft: str | None = None,
    sent_at: dt.datetime | None | bool = False,
) -> None:
    """Save the recipient and/or draft; ``sent_at`` a datetime marks it sent, None un-marks,
    False leaves it as it was."""
    if get_loop(db, loop_id) is None:
        raise ValueError(f"Loop {loop_id} does not exist.")
    current = thank_you(db, loop_id)
    values = {
        "to_whom": _clean(to_whom, "The recipient") if to_whom is not None else current.to_whom,
        "draft": _clean(draft, "The draft") if draft is not None else current.draft,
        "sent_at": current.sent_at
        if sent_at is False
        else (utc_iso(sent_at) if isinstance(sent_at, dt.datetime) else None),
    }
    db.execute(
        "INSERT INTO thank_yous(loop_id, to_whom, draft, sent_at, updated_at) VALUES (?, ?, ?, ?, ?) "
        "ON CONFLICT(loop_id) DO UPDATE SET to_whom = excluded.to_whom, draft = excluded.draft, "
        "sent_at = excluded.sent_at, updated_at = excluded.updated_at",
        [loop_id, values["to_whom"], values["draft"], values["sent_at"], utc_iso()],
    )


def mark_thank_you_sent(db: Database, loop_id: int, at: dt.datetime) -> None:
    save_thank_you(db, loop_id, sent_at=at)


def specific_topic(db: Database, loop_id: int) -> str | None:
    """One specific thing discussed in the loop, for the thank-you: the most mentioned
    topic of what they asked, else what went well, else a question (never a flub)."""
    row = db.execute(
        "SELECT topic, COUNT(*) AS n FROM asked WHERE loop_id = ? AND topic != '' "
        "GROUP BY lower(topic) ORDER BY n DESC, MIN(id) LIMIT 1",
        [loop_id],
    ).fetchone()
    if row:
        return row[0]
    row = db.execute(
        "SELECT text FROM went_well WHERE loop_id = ? ORDER BY id LIMIT 1", [loop_id]
    ).fetchone()
    if row:
        return _short(row[0])
    row = db.execute(
        "SELECT question FROM asked WHERE loop_id = ? ORDER BY id LIMIT 1", [loop_id]
    ).fetchone()
    return _short(row[0]) if row else None


def _short(text: str, limit: int = 90) -> str:
    text = " ".join(text.split()).rstrip("?.!")
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def default_recipient(db: Database, loop_id: int) -> str:
    names = [
        r[0]
        for r in db.execute(
            "SELECT DISTINCT interviewer_name FROM rounds WHERE loop_id = ? AND interviewer_name != '' "
            "ORDER BY id",
            [loop_id],
        ).fetchall()
    ]
    return ", ".join(names)


def draft_thank_you(db: Database, loop_id: int) -> str:
    """A one-paragraph thank-you filled from the notes, naming one specific topic."""
    loop = get_loop(db, loop_id)
    if loop is None:
        raise ValueError(f"Loop {loop_id} does not exist.")
    who = thank_you(db, loop_id).to_whom or default_recipient(db, loop_id)
    greeting = f"Hi {who.split(',')[0].strip()}," if who else "Hello,"
    role = f"the {loop.role} role" if loop.role else "the role"
    topic = specific_topic(db, loop_id)
    about = (
        f"I especially enjoyed our conversation about {topic}; it gave me a clear picture "
        "of the problems the team is working on."
        if topic
        else "I especially enjoyed our conversation about [one specific topic you discussed]."
    )
    return (
        f"{greeting}\n\nThank you for taking the time to talk with me about {role} at "
        f"{loop.company}. {about} It left me even more excited about the chance to join, and "
        "I would be glad to follow up on anything that would help.\n\nBest regards,"
    )


# --- what is due now ---------------------------------------------------------------------


def _recent_rounds(db: Database, now: dt.datetime, days: int) -> list[tuple]:
    # ended_at carries a local offset, so compare dates with a margin, then parse exactly
    floor = (now - dt.timedelta(days=days)).date().isoformat()
    return db.execute(
        "SELECT r.id, r.loop_id, r.ended_at, COALESCE(l.company, '') FROM rounds r "
        "LEFT JOIN loops l ON l.id = r.loop_id WHERE r.ended_at >= ?",
        [floor],
    ).fetchall()


def _round_has_notes(db: Database, round_id: int) -> bool:
    row = db.execute(
        "SELECT EXISTS(SELECT 1 FROM asked WHERE round_id = :r) "
        "OR EXISTS(SELECT 1 FROM flubs WHERE round_id = :r) "
        "OR EXISTS(SELECT 1 FROM went_well WHERE round_id = :r) "
        "OR EXISTS(SELECT 1 FROM rounds WHERE id = :r AND notes != '')",
        {"r": round_id},
    ).fetchone()
    return bool(row[0])


def captures_due(
    db: Database, now: dt.datetime, window: dt.timedelta | None = None
) -> list[CaptureDue]:
    """Loops whose last round ended less than ``window`` (the pack's capture window) ago
    and have nothing written for it yet: "write down what was asked", with ``deadline``
    for the countdown."""
    window = window or CAPTURE_WINDOW
    latest: dict[object, tuple[dt.datetime, int, int | None, str]] = {}
    for round_id, loop_id, ended_at, company in _recent_rounds(db, now, window.days + 2):
        ended = parse_time(ended_at)
        if ended is None or ended > now:
            continue
        key = loop_id if loop_id is not None else ("round", round_id)
        if key not in latest or ended > latest[key][0]:
            latest[key] = (ended, round_id, loop_id, company)
    due = []
    for ended, round_id, loop_id, company in latest.values():
        deadline = ended + window
        if now < deadline and not _round_has_notes(db, round_id):
            due.append(CaptureDue(loop_id, company, round_id, ended, deadline))
    return sorted(due, key=lambda c: c.deadline)


def thank_yous_due(
    db: Database, now: dt.datetime, after: dt.timedelta | None = None
) -> list[ThankYouDue]:
    """Thank-yous of loops that have ended: due ``after`` (the pack's, 24 h as shipped)
    after the last round. Unsent ones stay listed until three days past due; sent ones
    show as sent until then too."""
    after = after or THANK_YOU_AFTER
    ends: dict[int, tuple[dt.datetime, str]] = {}
    lookback = (after + THANK_YOU_KEEP_SHOWING).days + 2
    for _round_id, loop_id, ended_at, company in _recent_rounds(db, now, lookback):
        ended = parse_time(ended_at)
        if loop_id is None or ended is None or ended > now:
            continue
        if loop_id not in ends or ended > ends[loop_id][0]:
            ends[loop_id] = (ended, company)
    if not ends:
        return []
    marks = ",".join("?" * len(ends))
    sent = {
        r[0]
        for r in db.execute(
            f"SELECT loop_id FROM thank_yous WHERE sent_at IS NOT NULL AND loop_id IN ({marks})",
            list(ends),
        ).fetchall()
    }
    out = []
    for loop_id, (ended, company) in ends.items():
        due_at = ended + after
        if now <= due_at + THANK_YOU_KEEP_SHOWING:
            out.append(ThankYouDue(loop_id, company, due_at, loop_id in sent))
    return sorted(out, key=lambda t: t.due_at)


def thank_you_reminders(
    db: Database, now: dt.datetime, after: dt.timedelta | None = None
) -> list[ThankYouDue]:
    """Unsent thank-yous due within four hours (or overdue): what the tray reminds of."""
    return [
        t
        for t in thank_yous_due(db, now, after)
        if not t.sent and now >= t.due_at - THANK_YOU_REMIND_BEFORE
    ]


# --- editing, undoing and weak topics -------------------------------------------------
# The Journal page edits entries in place and undoes deletes by putting the very row
# back (same id when it is free), so search (kept in sync by triggers) follows along.

LOOP_STATUSES = ("planned", "active", "done", "offer", "rejected", "withdrawn")
INTERVIEWER_ROLES = ("", "hiring-manager", "peer", "leadership")
ENTRY_LABELS = {
    "asked": "question",
    "flub": "flub",
    "went_well": "went-well note",
    "weak": "weak topic",
}
_ENTRY_COLUMNS = {
    "asked": ("id", "loop_id", "round_id", "question", "topic", "created_at"),
    "flub": (
        "id",
        "loop_id",
        "round_id",
        "topic",
        "topic_key",
        "detail",
        "severity",
        "created_at",
        "studied_at",
    ),
    "went_well": ("id", "loop_id", "round_id", "text", "created_at"),
    "weak": ("id", "loop_id", "round_id", "topic", "topic_key", "note", "created_at", "studied_at"),
}
_ENTRY_CLASSES = {"asked": Asked, "flub": Flub, "went_well": WentWell, "weak": WeakTopic}
_ENTRY_ORDER = {  # columns of each dataclass, in order
    "asked": ("id", "loop_id", "round_id", "question", "topic", "created_at"),
    "flub": (
        "id",
        "loop_id",
        "round_id",
        "topic",
        "detail",
        "severity",
        "created_at",
        "studied_at",
    ),
    "went_well": ("id", "loop_id", "round_id", "text", "created_at"),
    "weak": ("id", "loop_id", "round_id", "topic", "note", "created_at", "studied_at"),
}
_EDITABLE = {
    # kind: {field: (label, required)}
    "asked": {"question": ("The question", True), "topic": ("The topic", False)},
    "flub": {"topic": ("The flubbed topic", True), "detail": ("The flub detail", False)},
    "went_well": {"text": ("What went well", True)},
    "weak": {"topic": ("The weak topic", True), "note": ("The note", False)},
}


def entry_kind_of(entry: object) -> str:
    """The kind name ("asked", "flub", "went_well", "weak") of an entry object."""
    for kind, cls in _ENTRY_CLASSES.items():
        if isinstance(entry, cls):
            return kind
    raise ValueError(f"{type(entry).__name__} is not a journal entry.")


def _table(kind: str) -> str:
    table = ENTRY_TABLES.get(kind)
    if table is None:
        raise ValueError(f"Unknown journal entry kind {kind!r}.")
    return table


def get_entry(db: Database, kind: str, entry_id: int) -> Asked | Flub | WentWell | WeakTopic | None:
    table = _table(kind)
    cols = ", ".join(_ENTRY_ORDER[kind])
    row = db.execute(f"SELECT {cols} FROM {table} WHERE id = ?", [entry_id]).fetchone()
    return _ENTRY_CLASSES[kind](*row) if row else None


def clean_entry_fields(kind: str, fields: dict) -> dict:
    """Check and tidy edited entry fields; ValueError names the field that is wrong."""
    allowed = _EDITABLE.get(kind)
    if allowed is None:
        raise ValueError(f"Unknown journal entry kind {kind!r}.")
    out: dict = {}
    for name, value in fields.items():
        if name == "severity" and kind == "flub":
            try:
                severity = int(value)
            except (TypeError, ValueError):
                severity = 0
            if severity not in SEVERITIES:
                raise ValueError(f"How bad a flub was must be 1, 2 or 3, not {value!r}.")
            out[name] = severity
        elif name in allowed:
            label, required = allowed[name]
            out[name] = _clean(value, label, required=required)
        else:
            raise ValueError(f"A {ENTRY_LABELS[kind]} has no field {name!r}.")
    if "topic" in out and kind in ("flub", "weak"):
        out["topic_key"] = topic_key(out["topic"])
    return out


def update_entry(db: Database, kind: str, entry_id: int, **fields) -> dict:
    """Change some fields of an entry; returns their previous values (for undo)."""
    current = get_entry(db, kind, entry_id)
    if current is None:
        raise ValueError(f"That {ENTRY_LABELS.get(kind, 'entry')} no longer exists.")
    values = clean_entry_fields(kind, fields)
    previous = {name: getattr(current, name) for name in fields}
    if values:
        sets = ", ".join(f"{name} = ?" for name in values)
        db.execute(f"UPDATE {_table(kind)} SET {sets} WHERE id = ?", [*values.values(), entry_id])
    return previous


def entry_row(db: Database, kind: str, entry_id: int) -> dict | None:
    """Every column of one entry, to put it back exactly with :func:`restore_entry`."""
    table = _table(kind)
    cols = _ENTRY_COLUMNS[kind]
    row = db.execute(f"SELECT {', '.join(cols)} FROM {table} WHERE id = ?", [entry_id]).fetchone()
    return dict(zip(cols, row, strict=True)) if row else None


def restore_entry(db: Database, kind: str, row: dict) -> int:
    """Put a deleted entry back; same id when it is still free. Returns its id."""
    import sqlite3

    table = _table(kind)
    cols = [c for c in _ENTRY_COLUMNS[kind] if c in row]
    taken = (
        row.get("id") is not None
        and db.execute(f"SELECT 1 FROM {table} WHERE id = ?", [row["id"]]).fetchone()
    )
    if taken:
        cols.remove("id")
    try:
        return _insert(
            db,
            f"INSERT INTO {table}({', '.join(cols)}) VALUES ({', '.join('?' * len(cols))})",
            [row[c] for c in cols],
        )
    except sqlite3.IntegrityError as exc:
        raise ValueError(
            f"The {ENTRY_LABELS[kind]} cannot be put back: its loop or round was deleted."
        ) from exc


def clean_loop_fields(fields: dict, current: Loop | None = None) -> dict:
    """Check and tidy edited loop fields (company, role, starts_on, ends_on, status, notes)."""
    out: dict = {}
    for name, value in fields.items():
        if name == "company":
            out[name] = _clean(value, "The company", required=True)
        elif name in ("role", "notes"):
            out[name] = _clean(value, f"The {name}")
        elif name in ("starts_on", "ends_on"):
            text = _clean(value or "", "The date")
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
            status = _clean(value, "The status", required=True).lower()
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


def edit_loop(db: Database, loop_id: int, **fields) -> dict:
    """Change a loop's company, role, dates, status or notes; returns the previous values."""
    current = get_loop(db, loop_id)
    if current is None:
        raise ValueError(f"Loop {loop_id} does not exist.")
    values = clean_loop_fields(fields, current)
    previous = {name: getattr(current, name) for name in values}
    if values:
        sets = ", ".join(f"{name} = ?" for name in values)
        db.execute(f"UPDATE loops SET {sets} WHERE id = ?", [*values.values(), loop_id])
    return previous


def edit_round(db: Database, round_id: int, **fields) -> dict:
    """Change a round's type, interviewer role and name, or notes; returns the previous values."""
    current = get_round(db, round_id)
    if current is None:
        raise ValueError(f"Round {round_id} does not exist.")
    values: dict = {}
    for name, value in fields.items():
        if name == "type":
            values[name] = _clean(value, "The round type", required=True)
        elif name == "interviewer_role":
            role = _clean(value, "The interviewer role")
            if role not in INTERVIEWER_ROLES and role != current.interviewer_role:
                raise ValueError(
                    f"The interviewer role {role!r} is not one of "
                    f"{', '.join(r for r in INTERVIEWER_ROLES if r)} (or empty)."
                )
            values[name] = role
        elif name in ("interviewer_name", "notes"):
            values[name] = _clean(value, "The interviewer name" if name != "notes" else "The notes")
        else:
            raise ValueError(f"A round has no field {name!r} that can be edited here.")
    previous = {name: getattr(current, name) for name in values}
    if values:
        sets = ", ".join(f"{name} = ?" for name in values)
        db.execute(f"UPDATE rounds SET {sets} WHERE id = ?", [*values.values(), round_id])
    return previous


def open_weak_topics(db: Database) -> list[WeakTopic]:
    """Topics marked weak and not yet studied, newest first."""
    return _rows(
        db,
        WeakTopic,
        "SELECT id, loop_id, round_id, topic, note, created_at, studied_at FROM weak_topics "
        "WHERE studied_at IS NULL ORDER BY created_at DESC, id DESC",
        [],
    )


def is_weak(db: Database, topic: str) -> bool:
    """Whether a topic (compared by :func:`topic_key`) is marked weak and not studied."""
    row = db.execute(
        "SELECT 1 FROM weak_topics WHERE topic_key = ? AND studied_at IS NULL LIMIT 1",
        [topic_key(topic)],
    ).fetchone()
    return row is not None


def mark_weak(
    db: Database,
    topic: str,
    *,
    loop_id: int | None = None,
    round_id: int | None = None,
    note: str = "",
    at: dt.datetime | None = None,
) -> int | None:
    """Mark a topic weak unless it already is (then None): one open mark per topic."""
    topic = _clean(topic, "The weak topic", required=True)
    if is_weak(db, topic):
        return None
    return add_weak_topic(db, topic, loop_id=loop_id, round_id=round_id, note=note, at=at)


def unmark_weak(db: Database, key: str) -> list[dict]:
    """Take a topic off the weak list (its open marks are removed); returns the removed
    rows so :func:`restore_entry` can put them back."""
    ids = [
        r[0]
        for r in db.execute(
            "SELECT id FROM weak_topics WHERE topic_key = ? AND studied_at IS NULL ORDER BY id",
            [topic_key(key)],
        ).fetchall()
    ]
    rows = [entry_row(db, "weak", i) for i in ids]
    with db.atomic():
        for i in ids:
            db.execute("DELETE FROM weak_topics WHERE id = ?", [i])
    return [r for r in rows if r is not None]
