"""Whole-journal export and import as JSON (backup, moving machines).

Format ``interview-companion-journal``, version 1::

    {
      "format": "interview-companion-journal", "version": 1, "exported_at": "<UTC ISO>",
      "loops": [
        {"company", "role", "starts_on", "ends_on", "status", "notes", "created_at",
         "rounds": [{"ref": 1, "type", "interviewer_role", "interviewer_name", "organizer",
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
      "rehearsal_takes": [{"at", "seconds", ...figures}]  (see companion.core.about.takes)
    }

``ref`` numbers a round inside the file; entries point at it with ``round``. Import
checks the whole file first (a bad file changes nothing and the message names the
place, e.g. ``loops[2].flubs[0].severity``), then adds everything in one transaction.
A loop already present (same company and created_at, or for a loop without created_at
the same content) is skipped, and unfiled rounds and entries already present (same
content) are not added again, so importing the same file twice adds nothing, whatever
it holds. The checks (strict parsing of the whole file, dates in range, control
characters) live in :mod:`.validate` and :mod:`.check_fields`, and the inserts, table by
table, in :mod:`.importer`. Export streams (:func:`export_journal`).
"""

from __future__ import annotations

import contextlib
import datetime as dt
import json
import sqlite3
from pathlib import Path

from sqlite_utils import Database

from companion.core.about.takes import takes_list
from companion.core.journal.importer import ImportReport, import_checked, import_journal_data
from companion.core.journal.validate import (
    ENTRY_KINDS,
    JOURNAL_FORMAT,
    LOOP_FIELDS,
    ROUND_FIELDS,
    VERSION,
    JournalImportError,
    read_journal,
)
from companion.core.review.transfer import review_dict
from companion.core.selfcheck import planner
from companion.core.storage.files import atomic_writer
from companion.core.stories.transfer import stories_dict
from companion.core.timeutil import to_stored_utc

__all__ = [
    "ImportReport",
    "JournalImportError",
    "export_journal",
    "import_journal",
    "import_journal_data",
    "iter_loops",
    "journal_dict",
]


# --- export ------------------------------------------------------------------------------


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
    if loop_id is not None and loop_id in asked_loops:
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
    asked = _asked_loops(db)
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
        "rehearsal_takes": _takes_list(db),
    }


def _review_dict(db: Database) -> dict:
    return review_dict(db)


def _takes_list(db: Database) -> list:
    return takes_list(db)


def _stories_dict(db: Database) -> dict:
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
    asked = _asked_loops(db)
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
            put(',"rehearsal_takes":' + encode(_takes_list(db)))
        put("}\n")
        fh.write("".join(buffer).encode("utf-8"))
    return count


# --- import (see .importer) ------------------------------------------------------------


def import_journal(db: Database, path: Path, now: dt.datetime | None = None) -> ImportReport:
    """Import a journal JSON file; a bad file changes nothing."""
    return import_checked(db, read_journal(path, now))
