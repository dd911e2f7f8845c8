"""The questions-to-ask planner: three or four questions per loop, each for the right person.

A planned question belongs to a loop and an audience (hiring-manager, peer, leadership).
Questions from the content carry the audiences they suit; the planner warns (never
blocks) when more than four are planned or a question goes to an audience it does not
suit. The same question is never planned twice in one loop: checked here and enforced by
a UNIQUE index. Asked questions keep the time and round; they are the journal's
"questions you asked them".
"""

from __future__ import annotations

import datetime as dt
import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass

from companion.core.content.audiences import AUDIENCES
from companion.core.content.audiences import audience_person as audience_person  # re-exported
from companion.core.content.audiences import audience_title as audience_title  # re-exported
from companion.core.content.loader import Content
from companion.core.content.plans import FALLBACK_PLANNER, PlannerRules
from companion.core.timeutil import to_stored

# fallback only: the pack's questions `pick:` is used (Content.planner_rules())
MAX_PLANNED = FALLBACK_PLANNER.max_questions
MIN_PLANNED = FALLBACK_PLANNER.min_questions


class PlannerError(ValueError):
    """A plan change that cannot be made; the message says what was wrong."""


@dataclass(frozen=True)
class PlannedQuestion:
    id: int
    loop_id: int
    text: str
    audience: str
    round_id: int | None
    asked_at: str | None
    suits: tuple[str, ...] = ()  # audiences the content tags it for; () = custom, any
    topic: str = ""
    source: str = "content"

    @property
    def asked(self) -> bool:
        return bool(self.asked_at)


@dataclass(frozen=True)
class Suggestion:
    """A question from the content, with the audiences it suits."""

    text: str
    audiences: tuple[str, ...]
    topic: str = ""


@dataclass(frozen=True)
class PlanWarning:
    message: str
    plan_id: int | None = None  # the question it is about, None for the whole plan


def text_key(text: str) -> str:
    """The identity of a question's wording: case, spacing and end punctuation ignored."""
    return " ".join(text.lower().split()).rstrip("?.!: ")


def suggestions(content: Content) -> list[Suggestion]:
    """Every content question (sections of kind ``questions``), each once, in content order."""
    seen: set[str] = set()
    out = []
    for section in content.by_kind("questions"):
        for item in section.items:
            key = text_key(item.text)
            if not key or key in seen:
                continue
            seen.add(key)
            audiences = tuple(a for a in item.list("audience") if a in AUDIENCES)
            out.append(Suggestion(item.text, audiences, item.get("topic", "") or ""))
    return out


def plan_rule(content: Content) -> str:
    """The content's own wording of the rule, for display."""
    return content.planner_rules().rule


_COLS = "id, loop_id, text, audience, round_id, asked_at, suits, topic, source"


def _row(row) -> PlannedQuestion:
    pid, loop_id, text, audience, round_id, asked_at, suits, topic, source = row
    return PlannedQuestion(
        id=pid,
        loop_id=loop_id,
        text=text,
        audience=audience,
        round_id=round_id,
        asked_at=asked_at,
        suits=tuple(part for part in (suits or "").split(",") if part),
        topic=topic or "",
        source=source,
    )


def _check_audience(audience: str) -> None:
    if audience not in AUDIENCES:
        raise PlannerError(f"Unknown audience {audience!r}; choose one of {', '.join(AUDIENCES)}.")


def _check_loop(db, loop_id: int) -> None:
    if not db.execute("SELECT 1 FROM loops WHERE id = ?", [loop_id]).fetchone():
        raise PlannerError(
            f"There is no loop with id {loop_id}; add the loop in the Journal first."
        )


def plan(db, loop_id: int) -> list[PlannedQuestion]:
    """Everything planned for a loop, in the order it was planned."""
    rows = db.execute(
        f"SELECT {_COLS} FROM planned_questions WHERE loop_id = ? ORDER BY id", [loop_id]
    ).fetchall()
    return [_row(row) for row in rows]


def get_planned(db, plan_id: int) -> PlannedQuestion | None:
    row = db.execute(f"SELECT {_COLS} FROM planned_questions WHERE id = ?", [plan_id]).fetchone()
    return _row(row) if row else None


def find_planned(db, loop_id: int, text: str) -> PlannedQuestion | None:
    row = db.execute(
        f"SELECT {_COLS} FROM planned_questions WHERE loop_id = ? AND text_key = ?",
        [loop_id, text_key(text)],
    ).fetchone()
    return _row(row) if row else None


def planned_for(db, loop_id: int, audience: str) -> list[PlannedQuestion]:
    """The questions planned for one audience in a loop, asked ones included (see asked_at)."""
    rows = db.execute(
        f"SELECT {_COLS} FROM planned_questions WHERE loop_id = ? AND audience = ? ORDER BY id",
        [loop_id, audience],
    ).fetchall()
    return [_row(row) for row in rows]


def asked_questions(db, loop_id: int) -> list[PlannedQuestion]:
    """The questions the user asked in a loop, in the order they were asked."""
    rows = db.execute(
        f"SELECT {_COLS} FROM planned_questions WHERE loop_id = ? AND asked_at IS NOT NULL "
        "ORDER BY asked_at, id",
        [loop_id],
    ).fetchall()
    return [_row(row) for row in rows]


def add_planned(
    db,
    loop_id: int,
    text: str,
    audience: str,
    *,
    suits: Iterable[str] = (),
    topic: str = "",
    source: str = "content",
    at: dt.datetime,
) -> tuple[int, list[PlanWarning]]:
    """Plan one question for an audience; returns its id and the warnings the plan now has.

    ``suits`` are the audiences the content tags the question for (empty for a custom
    question, whose audience the user chose). Raises PlannerError for an empty question,
    an unknown audience or loop, or a question already planned in this loop.
    """
    text = " ".join(text.split())
    if not text_key(text):
        raise PlannerError("The question is empty; type the question you want to ask.")
    _check_audience(audience)
    _check_loop(db, loop_id)
    existing = find_planned(db, loop_id, text)
    if existing:
        raise PlannerError(
            f"“{existing.text}” is already planned for this loop "
            f"({audience_title(existing.audience)}); each question is asked once per loop."
        )
    suits = tuple(a for a in suits if a in AUDIENCES)
    try:
        with db.atomic():
            db.execute(
                "INSERT INTO planned_questions (loop_id, text, text_key, audience, suits, topic, "
                "source, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    loop_id,
                    text,
                    text_key(text),
                    audience,
                    ",".join(suits),
                    topic,
                    source if source in ("content", "custom") else "custom",
                    to_stored(at),
                ],
            )
            plan_id = db.execute("SELECT last_insert_rowid()").fetchone()[0]
    except sqlite3.IntegrityError:
        raise PlannerError("That question is already planned for this loop.") from None
    return plan_id, check_plan(db, loop_id)


def add_suggestion(
    db, loop_id: int, suggestion: Suggestion, audience: str, *, at: dt.datetime
) -> tuple[int, list[PlanWarning]]:
    return add_planned(
        db,
        loop_id,
        suggestion.text,
        audience,
        suits=suggestion.audiences,
        topic=suggestion.topic,
        source="content",
        at=at,
    )


def add_custom(
    db, loop_id: int, text: str, audience: str, *, at: dt.datetime
) -> tuple[int, list[PlanWarning]]:
    """A question the user typed; it suits whichever audience the user chose."""
    return add_planned(db, loop_id, text, audience, source="custom", at=at)


def set_audience(db, plan_id: int, audience: str) -> list[PlanWarning]:
    """Send a planned question to another audience; returns the loop's warnings."""
    _check_audience(audience)
    planned = _require(db, plan_id)
    with db.atomic():
        db.execute("UPDATE planned_questions SET audience = ? WHERE id = ?", [audience, plan_id])
    return check_plan(db, planned.loop_id)


def remove_planned(db, plan_id: int) -> None:
    with db.atomic():
        db.execute("DELETE FROM planned_questions WHERE id = ?", [plan_id])


def mark_asked(db, plan_id: int, round_id: int | None, at: dt.datetime) -> None:
    """Record that a planned question was asked (in ``round_id``, if known) at ``at``."""
    _require(db, plan_id)
    with db.atomic():
        db.execute(
            "UPDATE planned_questions SET asked_at = ?, round_id = ? WHERE id = ?",
            [to_stored(at), round_id, plan_id],
        )


def unmark_asked(db, plan_id: int) -> None:
    """Undo mark_asked: the question is planned again, not asked."""
    _require(db, plan_id)
    with db.atomic():
        db.execute(
            "UPDATE planned_questions SET asked_at = NULL, round_id = NULL WHERE id = ?",
            [plan_id],
        )


def record_asked(
    db, loop_id: int, text: str, audience: str, round_id: int | None, at: dt.datetime
) -> int:
    """Record a question asked in a loop (planned or not); returns its plan id.

    A question already planned in the loop is marked asked rather than added twice.
    """
    existing = find_planned(db, loop_id, text)
    if existing:
        mark_asked(db, existing.id, round_id, at)
        return existing.id
    plan_id, _ = add_planned(db, loop_id, text, audience, source="custom", at=at)
    mark_asked(db, plan_id, round_id, at)
    return plan_id


def check_plan(db, loop_id: int, rules: PlannerRules | None = None) -> list[PlanWarning]:
    """What is off about a loop's plan: more questions than the pack's ``rules`` allow, or
    a question for the wrong person."""
    rules = rules or FALLBACK_PLANNER  # a caller without the content pack at hand
    planned = plan(db, loop_id)
    warnings = []
    if len(planned) > rules.max_questions:
        warnings.append(
            PlanWarning(
                f"{len(planned)} questions are planned; keep it to {rules.count_text} across "
                "the whole loop so each gets a real answer."
            )
        )
    for question in planned:
        if question.suits and question.audience not in question.suits:
            suited = " or ".join(audience_person(a) for a in question.suits)
            warnings.append(
                PlanWarning(
                    f"“{question.text}” suits a {suited}; a "
                    f"{audience_person(question.audience)} may not be able to answer it.",
                    plan_id=question.id,
                )
            )
    return warnings


def _require(db, plan_id: int) -> PlannedQuestion:
    planned = get_planned(db, plan_id)
    if planned is None:
        raise PlannerError(f"There is no planned question with id {plan_id}.")
    return planned
