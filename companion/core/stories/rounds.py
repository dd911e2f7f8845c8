"""Stories in a round: which stories the card offers for a round and a question type,
marking one used (stored per round), and the topics expected in a round (stored on it)."""

from __future__ import annotations

import datetime as dt
import json
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from companion.core.content.stories import Question, StoryPack
from companion.core.stories.check import stories_for
from companion.core.stories.parse import Story, StoryBank
from companion.core.study.ranking import study_list
from companion.core.text import topic_key
from companion.core.timeutil import to_stored_utc

if TYPE_CHECKING:
    from sqlite_utils import Database

MAX_TOPICS = 40
MAX_TOPIC_CHARS = 120


# --- the card's fold ---------------------------------------------------------------------


@dataclass(frozen=True)
class CardStory:
    story: Story
    questions: tuple[str, ...]  # the question ids it answers in this round
    used: bool


def shows_stories(pack: StoryPack, round_type: str) -> bool:
    """The Stories fold belongs to the pack's ``card_rounds`` (hiring-manager, peer and
    leadership as shipped)."""
    return round_type in pack.card_rounds


def card_stories(
    bank: StoryBank,
    pack: StoryPack,
    round_type: str,
    *,
    audience: str = "",
    question_id: str | None = None,
    used: frozenset[str] = frozenset(),
) -> list[CardStory]:
    """The stories for this round's questions (or for one question type), each once, in
    the order the questions come and best fit first; then the rest of the bank when no
    filter is given, so an unplanned question still finds a story. A question the pitch
    answers (``answer_with: pitch``, "Tell me about yourself") lists no story."""
    questions: tuple[Question, ...] = pack.questions_for(round_type, audience)
    if question_id is not None:
        questions = tuple(q for q in pack.questions if q.id == question_id)
    questions = tuple(q for q in questions if not q.answer_with)
    answers: dict[str, list[str]] = {}
    order: list[Story] = []
    for question in questions:
        for story in stories_for(question, bank.stories):
            if story.id not in answers:
                answers[story.id] = []
                order.append(story)
            answers[story.id].append(question.id)
    if question_id is None:
        order += [s for s in bank.stories if s.id not in answers]
    return [CardStory(s, tuple(answers.get(s.id, ())), s.id in used) for s in order]


# --- story use ---------------------------------------------------------------------------


def used_stories(db: Database, round_id: int) -> frozenset[str]:
    rows = db.execute("SELECT story FROM story_use WHERE round_id = ?", [round_id])
    return frozenset(r[0] for r in rows)


def toggle_used(db: Database, round_id: int, story: Story, at: dt.datetime) -> bool:
    """Mark ``story`` told in the round, or take the mark off again; True when now used."""
    with db.atomic():
        gone = db.execute(
            "DELETE FROM story_use WHERE round_id = ? AND story = ?", [round_id, story.id]
        ).rowcount
        if gone:
            return False
        db.execute(
            "INSERT INTO story_use (round_id, story, title, used_at) VALUES (?, ?, ?, ?)",
            [round_id, story.id, story.title, to_stored_utc(at)],
        )
    return True


def use_titles(db: Database, round_id: int) -> list[str]:
    rows = db.execute(
        "SELECT title FROM story_use WHERE round_id = ? ORDER BY used_at, story", [round_id]
    )
    return [r[0] for r in rows]


# --- expected topics ---------------------------------------------------------------------


def clean_topics(topics) -> list[str]:
    """Topics as stored: trimmed, '#' dropped, each once (by its key), at most MAX_TOPICS."""
    out: list[str] = []
    seen: set[str] = set()
    for raw in topics:
        topic = " ".join(str(raw).strip().lstrip("#").split())[:MAX_TOPIC_CHARS]
        key = topic_key(topic)
        if key and key not in seen:
            seen.add(key)
            out.append(topic)
    return out[:MAX_TOPICS]


def parse_topics_line(text: str) -> list[str]:
    """'kv cache, #retries; failure' -> ['kv cache', 'retries', 'failure'] (the dialog's field)."""
    return clean_topics(part for chunk in text.split(";") for part in chunk.split(","))


def expected_for(
    pack: StoryPack, round_type: str, study_topics: list[str], audience: str = ""
) -> list[str]:
    """The prefill: the pack's question tags for the round (its behavioural topics), the
    round type's own ``topics:`` (design, coding), then the top ``expect_from_study``
    topics of the study list; for a type with topics of its own, only the study topics
    that share a word with them (a design round got unrelated study topics)."""
    topics: list[str] = []
    for question in pack.questions_for(round_type, audience):
        topics.append(question.tags[0] if question.tags else question.id)
    own = pack.round_topics.get(round_type, ())
    topics += list(own)
    if own:
        words = {w for t in own for w in _words(t)}
        study_topics = [t for t in study_topics if _words(t) & words]
    topics += list(study_topics[: pack.expect_from_study])
    return clean_topics(topics)


def _words(text: str) -> set[str]:
    return {w for w in re.findall(r"[a-z0-9]+", text.lower()) if len(w) > 2}


def study_top(db: Database, now: dt.datetime, limit: int) -> list[str]:
    """The first ``limit`` topics of the ranked study list ([] when it cannot be read)."""
    if limit <= 0:
        return []
    import sqlite3

    try:
        return [item.topic for item in study_list(db, now)[:limit]]
    except sqlite3.Error:
        return []


def load_expected(db: Database, round_id: int) -> list[str] | None:
    """The round's expected topics; None when never set."""
    row = db.execute("SELECT topics FROM round_expected WHERE round_id = ?", [round_id]).fetchone()
    if row is None or not row[0]:
        return None
    try:
        value = json.loads(row[0])
    except ValueError:
        return None
    return clean_topics(value) if isinstance(value, list) else None


def save_expected(db: Database, round_id: int, topics) -> list[str]:
    topics = clean_topics(topics)
    db.execute(
        "INSERT INTO round_expected (round_id, topics) VALUES (?, ?) "
        "ON CONFLICT(round_id) DO UPDATE SET topics = excluded.topics",
        [round_id, json.dumps(topics, ensure_ascii=False)],
    )
    return topics


def prefill_missing(db: Database, pack: StoryPack, now: dt.datetime) -> list[int]:
    """Prefill every round that has not ended (nor been skipped) and has no expected
    topics yet: new rounds from the dialog, the card or an .ics import. Returns their ids."""
    rows = db.execute(
        "SELECT r.id, r.type, r.interviewer_role FROM rounds r "
        "LEFT JOIN round_expected e ON e.round_id = r.id "
        "WHERE e.round_id IS NULL AND r.ended_at IS NULL AND r.skipped_at IS NULL ORDER BY r.id"
    ).fetchall()
    if not rows:
        return []
    study = study_top(db, now, pack.expect_from_study)
    with db.atomic():
        for round_id, round_type, role in rows:
            save_expected(db, round_id, expected_for(pack, round_type or "", study, role or ""))
    return [r[0] for r in rows]
