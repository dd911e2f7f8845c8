"""A loop as the Journal page shows it: its rounds and everything written for each."""

from __future__ import annotations

from dataclasses import dataclass, field

from sqlite_utils import Database

from companion.core.day.loops import Loop, Round, get_loop, list_rounds
from companion.core.journal.entries import Asked, Flub, WeakTopic, WentWell
from companion.core.journal.round_order import in_time_order as in_time_order  # re-exported
from companion.core.journal.thankyou import ThankYou, thank_you
from companion.core.selfcheck.planner import asked_questions


@dataclass
class RoundEntries:
    round: Round | None  # None: entries recorded for the loop but no particular round
    asked: list[Asked] = field(default_factory=list)
    flubs: list[Flub] = field(default_factory=list)
    went_well: list[WentWell] = field(default_factory=list)
    weak: list[WeakTopic] = field(default_factory=list)
    asked_them: list = field(default_factory=list)  # PlannedQuestion the user asked them

    @property
    def empty(self) -> bool:
        return not (self.asked or self.flubs or self.went_well or self.weak or self.asked_them)


@dataclass
class LoopDetail:
    loop: Loop
    rounds: list[RoundEntries]
    thank_you: ThankYou


def _rows(db: Database, cls, sql: str, params: list) -> list:
    return [cls(*row) for row in db.execute(sql, params).fetchall()]


def loop_detail(db: Database, loop_id: int) -> LoopDetail | None:
    """A loop with its rounds and everything written for each (one query per kind)."""
    loop = get_loop(db, loop_id)
    if loop is None:
        return None
    rounds = in_time_order(list_rounds(db, loop_id))
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

    for question in asked_questions(db, loop_id):
        bucket(question.round_id).asked_them.append(question)
    entries = [groups[r.id] for r in rounds]
    if not loose.empty:
        entries.append(loose)
    return LoopDetail(loop=loop, rounds=entries, thank_you=thank_you(db, loop_id))
