"""The debrief: the ``#topics`` a round asked against the topics you expected and the
stories you told, per round and per loop, and the prep recall

    recall = |asked and expected| / |asked|        (None when nothing was asked)

Topics compare by :func:`topic_key` (case, accents and punctuation ignored). Topics asked
but not expected join the study list with the pack's extra weight (``study_surprises``).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import TYPE_CHECKING

from companion.core.stories.rounds import load_expected, use_titles
from companion.core.text import topic_key
from companion.core.timeutil import to_stored_utc

if TYPE_CHECKING:
    from sqlite_utils import Database


def recall(hits: int, asked: int) -> float | None:
    return None if asked == 0 else hits / asked


@dataclass(frozen=True)
class RoundDebrief:
    id: int
    type: str
    expected: tuple[str, ...]
    asked: tuple[str, ...]
    stories: tuple[str, ...] = ()

    def _keys(self, topics) -> dict[str, str]:
        return {topic_key(t): t for t in topics if topic_key(t)}

    @property
    def hits(self) -> tuple[str, ...]:
        """Expected and asked (in the asked words)."""
        expected = self._keys(self.expected)
        return tuple(t for k, t in self._keys(self.asked).items() if k in expected)

    @property
    def misses(self) -> tuple[str, ...]:
        """Asked but not expected."""
        expected = self._keys(self.expected)
        return tuple(t for k, t in self._keys(self.asked).items() if k not in expected)

    @property
    def unasked(self) -> tuple[str, ...]:
        """Expected but not asked."""
        asked = self._keys(self.asked)
        return tuple(t for k, t in self._keys(self.expected).items() if k not in asked)

    @property
    def recall(self) -> float | None:
        return recall(len(self.hits), len(self._keys(self.asked)))

    def as_json(self) -> dict:
        return {
            "id": self.id,
            "type": self.type,
            "expected": list(self.expected),
            "asked": list(self._keys(self.asked).values()),
            "hits": list(self.hits),
            "misses": list(self.misses),
            "recall": self.recall,
        }


@dataclass(frozen=True)
class LoopDebrief:
    id: int | None
    company: str
    rounds: tuple[RoundDebrief, ...]

    @property
    def recall(self) -> float | None:
        hits = sum(len(r.hits) for r in self.rounds)
        asked = sum(len(r.hits) + len(r.misses) for r in self.rounds)
        return recall(hits, asked)

    def as_json(self) -> dict:
        return {
            "id": self.id,
            "company": self.company,
            "recall": self.recall,
            "rounds": [r.as_json() for r in self.rounds],
        }


_PREPPED = "SELECT r.loop_id FROM round_expected e JOIN rounds r ON r.id = e.round_id"


def _load(db: Database, loop_id: int | None = None, *, prepped: bool = False) -> list[LoopDebrief]:
    """Loops (one, or all oldest first; ``prepped``: only those with expected topics) with
    their rounds, in five queries whatever the journal's size."""
    import json

    if loop_id is not None:
        where, rwhere, args = "WHERE id = ?", "r.loop_id = ?", [loop_id]
    elif prepped:
        where, rwhere, args = f"WHERE id IN ({_PREPPED})", f"r.loop_id IN ({_PREPPED})", []
    else:
        where, rwhere, args = "", "r.loop_id IS NOT NULL", []
    loops = db.execute(
        f"SELECT id, company FROM loops {where} ORDER BY starts_on, created_at, id", args
    ).fetchall()
    if not loops:
        return []
    rounds = db.execute(
        f"SELECT r.id, r.loop_id, r.type FROM rounds r WHERE {rwhere} ORDER BY r.id", args
    ).fetchall()
    expected: dict[int, tuple[str, ...]] = {}
    for round_id, raw in db.execute(
        f"SELECT e.round_id, e.topics FROM round_expected e JOIN rounds r ON r.id = e.round_id "
        f"WHERE {rwhere}",
        args,
    ):
        try:
            value = json.loads(raw)
        except ValueError:
            continue
        if isinstance(value, list):
            expected[round_id] = tuple(str(t) for t in value)
    asked: dict[int, list[str]] = {}
    for round_id, topic in db.execute(
        f"SELECT a.round_id, a.topic FROM asked a JOIN rounds r ON r.id = a.round_id "
        f"WHERE {rwhere} AND a.topic != '' ORDER BY a.id",
        args,
    ):
        asked.setdefault(round_id, []).append(topic)
    told: dict[int, list[str]] = {}
    for round_id, title in db.execute(
        f"SELECT u.round_id, u.title FROM story_use u JOIN rounds r ON r.id = u.round_id "
        f"WHERE {rwhere} ORDER BY u.used_at, u.story",
        args,
    ):
        told.setdefault(round_id, []).append(title)
    by_loop: dict[int, list[RoundDebrief]] = {}
    for round_id, owner, round_type in rounds:
        by_loop.setdefault(owner, []).append(
            RoundDebrief(
                round_id,
                round_type or "",
                expected.get(round_id, ()),
                tuple(asked.get(round_id, ())),
                tuple(told.get(round_id, ())),
            )
        )
    return [LoopDebrief(i, company or "", tuple(by_loop.get(i, ()))) for i, company in loops]


def round_debrief(db: Database, round_id: int) -> RoundDebrief | None:
    row = db.execute("SELECT loop_id FROM rounds WHERE id = ?", [round_id]).fetchone()
    if row is None:
        return None
    if row[0] is None:  # a round outside a loop
        topics = db.execute(
            "SELECT topic FROM asked WHERE round_id = ? AND topic != '' ORDER BY id", [round_id]
        )
        kind = db.execute("SELECT type FROM rounds WHERE id = ?", [round_id]).fetchone()[0]
        return RoundDebrief(
            round_id,
            kind or "",
            tuple(load_expected(db, round_id) or ()),
            tuple(t for (t,) in topics),
            tuple(use_titles(db, round_id)),
        )
    loop = loop_debrief(db, row[0])
    return next((r for r in loop.rounds if r.id == round_id), None) if loop else None


def loop_debrief(db: Database, loop_id: int) -> LoopDebrief | None:
    found = _load(db, loop_id)
    return found[0] if found else None


def all_debriefs(db: Database) -> list[LoopDebrief]:
    """Every loop, oldest first."""
    return _load(db)


def prepped_debriefs(db: Database) -> list[LoopDebrief]:
    """The loops you set expected topics for, oldest first: the recall across loops (a
    loop never prepared here has no prep to score)."""
    return _load(db, prepped=True)


def record_surprises(db: Database, round_id: int, severity: int, at: dt.datetime) -> int:
    """Put the round's asked-but-not-expected topics on the study list (again: a new
    capture replaces the round's open rows; studied ones stay studied). Returns how many."""
    debrief = round_debrief(db, round_id)
    if debrief is None:
        return 0
    stamp = to_stored_utc(at)
    with db.atomic():
        db.execute(
            "DELETE FROM study_surprises WHERE round_id = ? AND studied_at IS NULL", [round_id]
        )
        for topic in debrief.misses:
            db.execute(
                "INSERT OR IGNORE INTO study_surprises "
                "(round_id, topic_key, topic, severity, created_at) VALUES (?, ?, ?, ?, ?)",
                [round_id, topic_key(topic), topic, severity, stamp],
            )
    return len(debrief.misses)
