"""The story bank in the journal's JSON export::

    "stories": {"document": "<Markdown>" | null,
                "rounds": [{"loop": {"company", "created_at"}, "round": <ref>,
                            "expected": [topic, ...],
                            "used": [{"story", "title", "used_at"}],
                            "surprises": [{"topic", "severity", "created_at", "studied_at"}]}]}

A round is named as the file names it: its loop (company and created_at) and its ``ref``,
the round's place among the loop's rounds by id. Importing adds what is not here yet:
expected topics are merged, a story use or surprise already here is kept as it is, and a
document different from yours is kept in the Stories history (yours stays the current
text), so importing the same file twice adds nothing. Rounds outside a loop are not carried.
"""

from __future__ import annotations

import datetime as dt
import sqlite3

from companion.core.about import store as about_store
from companion.core.stories.document import STORIES
from companion.core.stories.rounds import (
    MAX_TOPIC_CHARS,
    clean_topics,
    load_expected,
    save_expected,
)
from companion.core.text import lone_surrogate, topic_key

MAX_DOCUMENT_CHARS = 10_000_000


class StoriesImportError(ValueError):
    """The file's stories part is wrong; the message names the place."""


# the loops with a round that has story data: the export names only their rounds
_STORY_LOOPS = (
    "SELECT loop_id FROM rounds WHERE loop_id IS NOT NULL AND id IN "
    "(SELECT round_id FROM round_expected UNION SELECT round_id FROM story_use "
    "UNION SELECT round_id FROM study_surprises)"
)


def _loop_rounds(db, *, with_stories: bool = False) -> dict[int, tuple[dict, dict[int, int]]]:
    """loop id -> ({company, created_at}, round id -> ref). ``with_stories``: only the
    loops whose rounds have story data (an export of 100,000 loops with none would hold
    every loop and round here at once: 80 MiB)."""
    only = f" WHERE id IN ({_STORY_LOOPS})" if with_stories else ""
    only_rounds = f" AND loop_id IN ({_STORY_LOOPS})" if with_stories else ""
    out: dict[int, tuple[dict, dict[int, int]]] = {}
    for loop_id, company, created in db.execute(f"SELECT id, company, created_at FROM loops{only}"):
        out[loop_id] = ({"company": company, "created_at": created}, {})
    for loop_id, round_id in db.execute(
        f"SELECT loop_id, id FROM rounds WHERE loop_id IS NOT NULL{only_rounds} "
        "ORDER BY loop_id, id"
    ):
        refs = out[loop_id][1]
        refs[round_id] = len(refs) + 1
    return out


def stories_dict(db) -> dict:
    """The stories part of the export (empty before the tables exist)."""
    try:
        return _stories_dict(db)
    except sqlite3.OperationalError:
        return {"document": None, "rounds": []}


def _stories_dict(db) -> dict:
    rounds: dict[int, dict] = {}
    loops = _loop_rounds(db, with_stories=True)

    def entry(round_id: int, loop_id: int) -> dict | None:
        if loop_id not in loops or round_id not in loops[loop_id][1]:
            return None
        if round_id not in rounds:
            loop, refs = loops[loop_id]
            rounds[round_id] = {
                "loop": loop,
                "round": refs[round_id],
                "expected": [],
                "used": [],
                "surprises": [],
            }
        return rounds[round_id]

    for round_id, loop_id in db.execute(
        "SELECT e.round_id, r.loop_id FROM round_expected e JOIN rounds r ON r.id = e.round_id "
        "WHERE r.loop_id IS NOT NULL"
    ):
        if (e := entry(round_id, loop_id)) is not None:
            e["expected"] = load_expected(db, round_id) or []
    for round_id, loop_id, story, title, used_at in db.execute(
        "SELECT u.round_id, r.loop_id, u.story, u.title, u.used_at FROM story_use u "
        "JOIN rounds r ON r.id = u.round_id ORDER BY u.round_id, u.story"
    ):
        if (e := entry(round_id, loop_id)) is not None:
            e["used"].append({"story": story, "title": title, "used_at": used_at})
    for round_id, loop_id, topic, severity, created, studied in db.execute(
        "SELECT s.round_id, r.loop_id, s.topic, s.severity, s.created_at, s.studied_at "
        "FROM study_surprises s JOIN rounds r ON r.id = s.round_id ORDER BY s.round_id, s.topic_key"
    ):
        if (e := entry(round_id, loop_id)) is not None:
            e["surprises"].append(
                {"topic": topic, "severity": severity, "created_at": created, "studied_at": studied}
            )
    ordered = sorted(
        rounds.values(),
        key=lambda e: (e["loop"]["created_at"] or "", e["loop"]["company"], e["round"]),
    )
    return {"document": STORIES.load_document(db), "rounds": ordered}


# --- checking ----------------------------------------------------------------------------


def _fail(where: str, message: str):
    raise StoriesImportError(f"{where}: {message}")


def _text(
    obj: dict, key: str, where: str, *, nullable: bool = False, limit: int = 2000
) -> str | None:
    value = obj.get(key)
    if value is None and nullable:
        return None
    if not isinstance(value, str):
        _fail(f"{where}.{key}", "must be text")
    if len(value) > limit:
        _fail(f"{where}.{key}", f"is longer than {limit:,} characters")
    problem = lone_surrogate(value)  # the journal's field rule: it cannot be stored
    if problem:
        _fail(f"{where}.{key}", problem)
    return value


def _when(obj: dict, key: str, where: str, *, nullable: bool = False) -> str | None:
    value = _text(obj, key, where, nullable=nullable, limit=64)
    if value is None:
        return None
    try:
        moment = dt.datetime.fromisoformat(value)
    except ValueError:
        _fail(f"{where}.{key}", f"{value[:40]!r} is not an ISO 8601 time")
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=dt.UTC)
    return moment.astimezone(dt.UTC).isoformat()


def _list(obj: dict, key: str, where: str) -> list:
    value = obj.get(key)
    if value is None:
        return []
    if not isinstance(value, list):
        _fail(f"{where}.{key}", "must be a list")
    return value


def check_stories(data: object) -> dict:
    """The ``stories`` part of a journal file, checked and normalised."""
    if data is None:
        return {"document": None, "rounds": []}
    if not isinstance(data, dict):
        _fail("stories", "must be an object")
    out = {
        "document": _text(data, "document", "stories", nullable=True, limit=MAX_DOCUMENT_CHARS),
        "rounds": [],
    }
    for n, entry in enumerate(_list(data, "rounds", "stories")):
        where = f"stories.rounds[{n}]"
        if not isinstance(entry, dict) or not isinstance(entry.get("loop"), dict):
            _fail(where, "must be an object with a loop")
        ref = entry.get("round")
        if not isinstance(ref, int) or isinstance(ref, bool) or ref < 1:
            _fail(f"{where}.round", "must be a whole number of 1 or more")
        loop = {
            "company": _text(entry["loop"], "company", f"{where}.loop"),
            "created_at": _when(entry["loop"], "created_at", f"{where}.loop"),
        }
        expected = _list(entry, "expected", where)
        if not all(
            isinstance(t, str) and len(t) <= MAX_TOPIC_CHARS and not lone_surrogate(t)
            for t in expected
        ):
            _fail(
                f"{where}.expected",
                f"must be a list of topics of at most {MAX_TOPIC_CHARS} characters, "
                "with no lone surrogate",
            )
        used = []
        for k, u in enumerate(_list(entry, "used", where)):
            w = f"{where}.used[{k}]"
            if not isinstance(u, dict):
                _fail(w, "must be an object")
            story = _text(u, "story", w, limit=200)
            if not story:
                _fail(f"{w}.story", "is empty")
            used.append(
                {
                    "story": story,
                    "title": _text(u, "title", w, limit=500),
                    "used_at": _when(u, "used_at", w),
                }
            )
        surprises = []
        for k, s in enumerate(_list(entry, "surprises", where)):
            w = f"{where}.surprises[{k}]"
            if not isinstance(s, dict):
                _fail(w, "must be an object")
            severity = s.get("severity")
            if severity not in (1, 2, 3) or isinstance(severity, bool):
                _fail(f"{w}.severity", "must be 1, 2 or 3")
            topic = _text(s, "topic", w, limit=MAX_TOPIC_CHARS)
            if not topic_key(topic):
                _fail(f"{w}.topic", "is empty")
            surprises.append(
                {
                    "topic": topic,
                    "severity": severity,
                    "created_at": _when(s, "created_at", w),
                    "studied_at": _when(s, "studied_at", w, nullable=True),
                }
            )
        out["rounds"].append(
            {
                "loop": loop,
                "round": ref,
                "expected": clean_topics(expected),
                "used": used,
                "surprises": surprises,
            }
        )
    return out


# --- importing ---------------------------------------------------------------------------


def import_stories(db, stories: dict, now: dt.datetime) -> int:
    """Add a checked ``stories`` part (see :func:`check_stories`); returns rows added. The
    caller holds the transaction, after the loops and rounds are in."""

    added = 0
    document = stories["document"]
    if document:
        current = about_store.load_document(db, doc="stories")
        if current is None or not current.strip():
            about_store.save_text(db, document, now, reason="import", doc="stories")
            added += 1
        elif current != document:
            known = {t for (t,) in db.execute("SELECT text FROM stories_revisions")}
            if document not in known:
                about_store._insert_revision(
                    db.conn, document, now.isoformat(), "import", "stories"
                )
                added += 1
    by_loop = {}
    for loop, refs in (_loop_rounds(db) if stories["rounds"] else {}).values():
        created = loop["created_at"]
        try:
            created = dt.datetime.fromisoformat(created).astimezone(dt.UTC).isoformat()
        except (TypeError, ValueError):
            pass
        by_loop[(loop["company"], created)] = {ref: rid for rid, ref in refs.items()}
    for entry in stories["rounds"]:
        refs = by_loop.get((entry["loop"]["company"], entry["loop"]["created_at"]), {})
        round_id = refs.get(entry["round"])
        if round_id is None:
            continue  # its loop is not in this journal (nor in the file)
        if entry["expected"]:
            current = load_expected(db, round_id) or []
            merged = clean_topics(current + entry["expected"])
            if merged != current:
                save_expected(db, round_id, merged)
                added += 1
        for u in entry["used"]:
            added += db.execute(
                "INSERT OR IGNORE INTO story_use (round_id, story, title, used_at) VALUES (?, ?, ?, ?)",
                [round_id, u["story"], u["title"] or "", u["used_at"]],
            ).rowcount
        for s in entry["surprises"]:
            added += db.execute(
                "INSERT OR IGNORE INTO study_surprises "
                "(round_id, topic_key, topic, severity, created_at, studied_at) VALUES (?, ?, ?, ?, ?, ?)",
                [
                    round_id,
                    topic_key(s["topic"]),
                    s["topic"],
                    s["severity"],
                    s["created_at"],
                    s["studied_at"],
                ],
            ).rowcount
    return added
