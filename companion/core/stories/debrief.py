"""The debrief: the ``#topics`` a round asked against the topics you expected and the
stories you told, per round and per loop, and the prep recall

    recall = |asked and expected| / |asked|        (None when nothing was asked)

Topics compare by :func:`topic_key` (case, accents and punctuation ignored). Topics asked
but not expected join the study list with the pack's extra weight (``study_surprises``).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from sqlite_utils import Database

from companion.core.journal.entries import topic_key
from companion.core.stories.rounds import load_expected, use_titles
from companion.core.timeutil import to_stored_utc


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


def _asked(db: Database, round_id: int) -> tuple[str, ...]:
    rows = db.execute(
        "SELECT topic FROM asked WHERE round_id = ? AND topic != '' ORDER BY id", [round_id]
    )
    return tuple(r[0] for r in rows)


def round_debrief(db: Database, round_id: int) -> RoundDebrief | None:
    row = db.execute("SELECT id, type FROM rounds WHERE id = ?", [round_id]).fetchone()
    if row is None:
        return None
    return RoundDebrief(
        row[0],
        row[1] or "",
        tuple(load_expected(db, round_id) or ()),
        _asked(db, round_id),
        tuple(use_titles(db, round_id)),
    )


def loop_debrief(db: Database, loop_id: int) -> LoopDebrief | None:
    loop = db.execute("SELECT id, company FROM loops WHERE id = ?", [loop_id]).fetchone()
    if loop is None:
        return None
    ids = [
        r[0] for r in db.execute("SELECT id FROM rounds WHERE loop_id = ? ORDER BY id", [loop_id])
    ]
    rounds = tuple(d for d in (round_debrief(db, i) for i in ids) if d is not None)
    return LoopDebrief(loop[0], loop[1] or "", rounds)


def all_debriefs(db: Database) -> list[LoopDebrief]:
    """Every loop, oldest first (so the recall across loops reads as a trend)."""
    ids = [r[0] for r in db.execute("SELECT id FROM loops ORDER BY starts_on, created_at, id")]
    return [d for d in (loop_debrief(db, i) for i in ids) if d is not None]


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
