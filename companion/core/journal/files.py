"""Whole-journal export and import as JSON (backup, moving machines).

Format ``interview-companion-journal``, version 1::

    {
      "format": "interview-companion-journal", "version": 1, "exported_at": "<UTC ISO>",
      "loops": [
        {"company", "role", "starts_on", "ends_on", "status", "notes", "created_at",
         "rounds": [{"ref": 1, "type", "interviewer_role", "interviewer_name",
                     "scheduled_at", "started_at", "ended_at", "notes"}],
         "asked":      [{"round": 1 | null, "question", "topic", "created_at"}],
         "flubs":      [{"round", "topic", "detail", "severity", "created_at", "studied_at"}],
         "went_well":  [{"round", "text", "created_at"}],
         "weak_topics":[{"round", "topic", "note", "created_at", "studied_at"}],
         "asked_them": [{"round", "text", "audience", "asked_at"}],
         "thank_you":  {"to_whom", "draft", "sent_at"} | null}
      ],
      "unfiled": {same lists as a loop, for rounds and entries without a loop},
      "study_marks": [{"topic_key", "topic", "source", "studied_at"}],
      "review": {"cards": [...], "log": [...]}  (see companion.core.review.transfer)
      "stories": {"document", "rounds": [...]}  (see companion.core.stories.transfer)
    }

``ref`` numbers a round inside the file; entries point at it with ``round``. Import
checks the whole file first (a bad file changes nothing and the message names the
place, e.g. ``loops[2].flubs[0].severity``), then adds everything in one transaction.
A loop already present (same company and created_at) is skipped, and unfiled rounds and
entries already present (same content) are not added again, so importing the same file
twice adds nothing, whatever it holds. The checks (strict parsing, dates in range,
control characters) live in :mod:`.validate`. Export streams (:func:`export_journal`).
"""

from __future__ import annotations

import contextlib
import datetime as dt
import json
import sqlite3
from dataclasses import dataclass
from pathlib import Path

from sqlite_utils import Database

from companion.core.journal.entries import topic_key
from companion.core.journal.validate import (
    ENTRY_KINDS,
    JOURNAL_FORMAT,
    VERSION,
    JournalImportError,
    parse_journal,
    read_journal,
)
from companion.core.timeutil import to_stored_utc

LOOP_FIELDS = ("company", "role", "starts_on", "ends_on", "status", "notes", "created_at")
ROUND_FIELDS = (
    "type",
    "interviewer_role",
    "interviewer_name",
    "scheduled_at",
    "started_at",
    "ended_at",
    "notes",
)


@dataclass
class ImportReport:
    loops_added: int = 0
    loops_skipped: int = 0
    entries_added: int = 0
    asked_them_skipped: int = 0  # the planner feature is not available in this copy
    entries_skipped: int = 0  # unfiled rows already here (importing twice adds nothing)
    reviews_added: int = 0  # review log entries not here yet
    stories_added: int = 0  # story bank rows not here yet (companion.core.stories.transfer)
    control_chars_removed: int = 0


# --- export ------------------------------------------------------------------------------


def _planner():
    try:
        from companion.core.selfcheck import planner
    except ImportError:
        return None
    return planner


class _Stream:
    """Rows of one query ordered by loop id, handed out one loop at a time (a merge
    join with the loops cursor), so no more than one loop's rows are held at once."""

    def __init__(self, cursor):
        self._rows = iter(cursor)
        self._next = next(self._rows, None)

    def _rows_all(self):
        while self._next is not None:
            yield self._next
            self._next = next(self._rows, None)

    def take(self, loop_id: int) -> list[tuple]:
        out = []
        while self._next is not None and self._next[0] is not None and self._next[0] <= loop_id:
            if self._next[0] == loop_id:
                out.append(self._next)
            self._next = next(self._rows, None)
        return out


def _streams(db: Database, where: str) -> dict[str, _Stream]:
    order = "loop_id, id" if where == "loop_id IS NOT NULL" else "id"
    streams = {
        "rounds": _Stream(
            db.execute(
                f"SELECT loop_id, id, {', '.join(ROUND_FIELDS)} FROM rounds "
                f"WHERE {where} ORDER BY {order}"
            )
        )
    }
    for name, (table, fields, optional) in ENTRY_KINDS.items():
        cols = ", ".join(("round_id", *fields, *optional))
        streams[name] = _Stream(
            db.execute(f"SELECT loop_id, {cols} FROM {table} WHERE {where} ORDER BY {order}")
        )
    return streams


def _group_from(rows: dict[str, list[tuple]], planner, db: Database, loop_id, asked_loops) -> dict:
    refs: dict[int, int] = {}
    rounds = []
    for row in rows["rounds"]:
        refs[row[1]] = len(rounds) + 1
        rounds.append({"ref": refs[row[1]], **dict(zip(ROUND_FIELDS, row[2:], strict=True))})
    group: dict = {"rounds": rounds}
    for name, (_table, fields, optional) in ENTRY_KINDS.items():
        keys = ("round", *fields, *optional)
        group[name] = [dict(zip(keys, (refs.get(r[1]), *r[2:]))) for r in rows[name]]
    group["asked_them"] = []
    if planner is not None and loop_id is not None and loop_id in asked_loops:
        group["asked_them"] = _asked_them(planner, db, loop_id, refs)
    return group


def _asked_them(planner, db: Database, loop_id: int, refs: dict[int, int]) -> list[dict]:
    """The questions the user asked them in a loop, each round named by its ``ref``."""
    return [
        {
            "round": refs.get(q.round_id),
            "text": q.text,
            "audience": q.audience,
            "asked_at": q.asked_at,
        }
        for q in planner.asked_questions(db, loop_id)
    ]


def _asked_loops(db: Database) -> set[int]:
    """Loops with questions the user asked (the planner is asked only about those)."""
    try:
        rows = db.execute(
            "SELECT DISTINCT loop_id FROM planned_questions WHERE asked_at IS NOT NULL"
        ).fetchall()
    except sqlite3.Error:
        return set()
    return {r[0] for r in rows}


def iter_loops(db: Database):
    """Every loop as its export dict, one at a time, in id order."""
    planner = _planner()
    asked = _asked_loops(db) if planner is not None else set()
    streams = _streams(db, "loop_id IS NOT NULL")
    thanks = _Stream(
        db.execute(
            "SELECT loop_id, to_whom, draft, sent_at FROM thank_yous "
            "WHERE loop_id IS NOT NULL ORDER BY loop_id, id"
        )
    )
    for row in db.execute(f"SELECT id, {', '.join(LOOP_FIELDS)} FROM loops ORDER BY id"):
        loop_id = row[0]
        loop = dict(zip(LOOP_FIELDS, row[1:], strict=True))
        rows = {name: stream.take(loop_id) for name, stream in streams.items()}
        loop.update(_group_from(rows, planner, db, loop_id, asked))
        ty = thanks.take(loop_id)
        loop["thank_you"] = (
            None if not ty else {"to_whom": ty[-1][1], "draft": ty[-1][2], "sent_at": ty[-1][3]}
        )
        yield loop


def unfiled_group(db: Database) -> dict:
    streams = _streams(db, "loop_id IS NULL")
    rows = {name: list(stream._rows_all()) for name, stream in streams.items()}
    return _group_from(rows, None, db, None, set())


def _study_marks(db: Database):
    for r in db.execute("SELECT topic_key, topic, source, studied_at FROM study_marks ORDER BY id"):
        yield {"topic_key": r[0], "topic": r[1], "source": r[2], "studied_at": r[3]}


def journal_dict(db: Database, now: dt.datetime) -> dict:
    """The whole journal as one dict (tests, small journals); exports stream instead."""
    return {
        "format": JOURNAL_FORMAT,
        "version": VERSION,
        "exported_at": to_stored_utc(now),
        "loops": list(iter_loops(db)),
        "unfiled": unfiled_group(db),
        "study_marks": list(_study_marks(db)),
        "review": _review_dict(db),
        "stories": _stories_dict(db),
    }


def _review_dict(db: Database) -> dict:
    from companion.core.review.transfer import review_dict

    return review_dict(db)


def _stories_dict(db: Database) -> dict:
    from companion.core.stories.transfer import stories_dict

    return stories_dict(db)


def _json_args(fields) -> str:
    return ", ".join(f"'{f}', {f}" for f in fields)


def _loops_as_json(db: Database, encode):
    """Each loop's export object as JSON text, in id order (see :func:`iter_loops`).
    SQLite encodes every row (``json_object``); Python adds the per-loop round ``ref``
    and joins the pieces."""
    streams = {
        "rounds": _Stream(
            db.execute(
                f"SELECT loop_id, id, json_object({_json_args(ROUND_FIELDS)}) FROM rounds "
                "WHERE loop_id IS NOT NULL ORDER BY loop_id, id"
            )
        )
    }
    for name, (table, fields, optional) in ENTRY_KINDS.items():
        streams[name] = _Stream(
            db.execute(
                f"SELECT loop_id, round_id, json_object({_json_args((*fields, *optional))}) "
                f"FROM {table} WHERE loop_id IS NOT NULL ORDER BY loop_id, id"
            )
        )
    thanks = _Stream(
        db.execute(
            "SELECT loop_id, json_object('to_whom', to_whom, 'draft', draft, 'sent_at', "
            "sent_at) FROM thank_yous WHERE loop_id IS NOT NULL ORDER BY loop_id, id"
        )
    )
    planner = _planner()
    asked = _asked_loops(db) if planner is not None else set()
    for loop_id, head in db.execute(
        f"SELECT id, json_object({_json_args(LOOP_FIELDS)}) FROM loops ORDER BY id"
    ):
        rounds = streams["rounds"].take(loop_id)
        refs = {row[1]: n for n, row in enumerate(rounds, 1)}
        parts = [
            head[:-1],
            ',"rounds":[',
            ",".join(f'{{"ref":{n},{row[2][1:]}' for n, row in enumerate(rounds, 1)),
            "]",
        ]
        for name in ENTRY_KINDS:
            parts.append(f',"{name}":[')
            parts.append(
                ",".join(
                    f'{{"round":{refs.get(r[1], "null")},{r[2][1:]}'
                    for r in streams[name].take(loop_id)
                )
            )
            parts.append("]")
        asked_them = "[]"
        if loop_id in asked:
            asked_them = encode(_asked_them(planner, db, loop_id, refs))
        ty = thanks.take(loop_id)
        parts.append(f',"asked_them":{asked_them},"thank_you":{ty[-1][1] if ty else "null"}}}')
        yield "".join(parts)


@contextlib.contextmanager
def _snapshot(db: Database):
    """A read transaction (plain BEGIN: works on a read-only connection too)."""
    if db.conn.in_transaction:
        yield
        return
    db.conn.execute("BEGIN")
    try:
        yield
    finally:
        db.conn.execute("ROLLBACK")


def export_journal(db: Database, path: Path, now: dt.datetime) -> int:
    """Write the whole journal as JSON to ``path`` (atomic, 0600); returns loops written.

    Streamed: each loop is written as it is read, so memory stays flat however big the
    journal grows; SQLite encodes each row as JSON (``json_object``), Python only joins
    them. The document equals ``journal_dict()`` once parsed.
    """
    from companion.core.storage.files import atomic_writer

    encode = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode
    count = 0
    with atomic_writer(Path(path)) as fh:
        buffer: list[str] = []
        size = 0

        def put(text: str) -> None:
            nonlocal size
            buffer.append(text)
            size += len(text)
            if size >= 256 * 1024:
                fh.write("".join(buffer).encode("utf-8"))
                buffer.clear()
                size = 0

        head = {"format": JOURNAL_FORMAT, "version": VERSION, "exported_at": to_stored_utc(now)}
        put(encode(head)[:-1] + ',"loops":[')
        with _snapshot(db):  # one consistent view across the queries
            for loop_json in _loops_as_json(db, encode):
                put(("," if count else "") + loop_json)
                count += 1
            put('],"unfiled":' + encode(unfiled_group(db)) + ',"study_marks":[')
            for n, mark in enumerate(_study_marks(db)):
                put(("," if n else "") + encode(mark))
            put('],"review":' + encode(_review_dict(db)))
            put(',"stories":' + encode(_stories_dict(db)))
        put("}\n")
        fh.write("".join(buffer).encode("utf-8"))
    return count


# --- import ------------------------------------------------------------------------------


def _unfiled_pools(db: Database) -> tuple[dict, dict]:
    """What unfiled rows are already here: rounds by their fields (-> ids) and, per entry
    table, how many rows have each exact content. Importing the same file twice then
    adds nothing, whatever it holds, and a file's own repeated rows still all import."""
    from collections import Counter

    rounds: dict[tuple, list[int]] = {}
    for row in db.execute(
        f"SELECT id, {', '.join(ROUND_FIELDS)} FROM rounds WHERE loop_id IS NULL ORDER BY id"
    ).fetchall():
        rounds.setdefault(tuple(row[1:]), []).append(row[0])
    entries: dict[str, Counter] = {}
    for name, (table, fields, optional) in ENTRY_KINDS.items():
        cols = ", ".join(("round_id", *fields, *optional))
        entries[name] = Counter(
            tuple(r)
            for r in db.execute(f"SELECT {cols} FROM {table} WHERE loop_id IS NULL").fetchall()
        )
    return rounds, entries


def _insert_group(
    db: Database, group: dict, loop_id: int | None, report: ImportReport, *, dedupe=False
) -> None:
    round_ids: dict[int, int] = {}
    round_pool, entry_pool = _unfiled_pools(db) if dedupe else ({}, {})
    for r in group["rounds"]:
        same = round_pool.get(tuple(r[k] for k in ROUND_FIELDS))
        if same:
            round_ids[r["ref"]] = same.pop(0)
            report.entries_skipped += 1
            continue
        cursor = db.execute(
            f"INSERT INTO rounds(loop_id, {', '.join(ROUND_FIELDS)}) VALUES (?{', ?' * len(ROUND_FIELDS)})",
            [loop_id] + [r[k] for k in ROUND_FIELDS],
        )
        round_ids[r["ref"]] = cursor.lastrowid
    for name, (table, fields, optional) in ENTRY_KINDS.items():
        for e in group[name]:
            cols = ["loop_id", "round_id", *fields, *optional]
            values = [loop_id, round_ids.get(e["round"])] + [e[k] for k in (*fields, *optional)]
            if dedupe and entry_pool[name][tuple(values[1:])] > 0:
                entry_pool[name][tuple(values[1:])] -= 1
                report.entries_skipped += 1
                continue
            if table in ("flubs", "weak_topics"):
                cols.append("topic_key")
                values.append(topic_key(e["topic"]))
            db.execute(
                f"INSERT INTO {table}({', '.join(cols)}) VALUES ({', '.join('?' * len(cols))})",
                values,
            )
            report.entries_added += 1
    if loop_id is not None and group["thank_you"] is not None:
        ty = group["thank_you"]
        db.execute(
            "INSERT INTO thank_yous(loop_id, to_whom, draft, sent_at, updated_at) VALUES (?, ?, ?, ?, ?)",
            [loop_id, ty["to_whom"], ty["draft"], ty["sent_at"], to_stored_utc()],
        )
    if group["asked_them"]:
        planner = _planner()
        if planner is None or loop_id is None:
            report.asked_them_skipped += len(group["asked_them"])
            return
        for q in group["asked_them"]:
            at = (
                dt.datetime.fromisoformat(q["asked_at"])
                if q["asked_at"]
                else dt.datetime.now(dt.UTC)
            )
            audience = (
                q["audience"]
                if q["audience"] in ("hiring-manager", "peer", "leadership")
                else "peer"
            )
            try:
                planner.record_asked(
                    db, loop_id, q["text"], audience, round_ids.get(q["round"]), at
                )
            except ValueError:  # the planner refused it (e.g. a duplicate); keep the rest
                report.asked_them_skipped += 1
                continue
            report.entries_added += 1


def import_journal_data(db: Database, data: object) -> ImportReport:
    doc = parse_journal(data)
    report = ImportReport(control_chars_removed=doc["stripped"])
    existing = {(c, t) for c, t in db.execute("SELECT company, created_at FROM loops").fetchall()}
    with db.atomic():
        for loop in doc["loops"]:
            if (loop["company"], loop["created_at"]) in existing:
                report.loops_skipped += 1
                continue
            cursor = db.execute(
                f"INSERT INTO loops({', '.join(LOOP_FIELDS)}) VALUES ({', '.join('?' * len(LOOP_FIELDS))})",
                [loop[k] for k in LOOP_FIELDS],
            )
            _insert_group(db, loop, cursor.lastrowid, report)
            report.loops_added += 1
        _insert_group(db, doc["unfiled"], None, report, dedupe=True)
        have = {
            tuple(r) for r in db.execute("SELECT topic_key, studied_at FROM study_marks").fetchall()
        }
        for m in doc["study_marks"]:
            if (m["topic_key"], m["studied_at"]) in have:
                continue
            db.execute(
                "INSERT INTO study_marks(topic_key, topic, source, studied_at) VALUES (?, ?, ?, ?)",
                [m["topic_key"], m["topic"], m["source"], m["studied_at"]],
            )
        from companion.core.review.transfer import import_review

        report.reviews_added = import_review(db, doc["review"])
        from companion.core.stories.transfer import import_stories

        report.stories_added = import_stories(db, doc["stories"], dt.datetime.now(dt.UTC))
    return report


def import_journal(db: Database, path: Path) -> ImportReport:
    """Import a journal JSON file; a bad file changes nothing."""
    data = read_journal(path)
    try:
        return import_journal_data(db, data)
    except JournalImportError as exc:
        raise JournalImportError(f"{path}: {exc}") from None
