"""The study list: every unresolved flub, every topic marked weak and every missed or
shaky self-check question, grouped by topic and ranked.

Rank score (higher first), documented so users can predict it::

    score = times seen + 1.5 * worst severity (1-3) + 3 * 0.5 ** (days since last seen / 14)

so a topic flubbed often, badly and recently comes first. A topic a round asked that you
did not expect (the debrief, :mod:`companion.core.stories.debrief`) counts with the pack's
``surprise_severity`` (3, the worst, as shipped). Each item links to the guide
section that covers it when one matches (see :class:`GuideIndex`). Marking a topic
studied removes it from the list and records it in ``study_marks`` (the history); the
flub rows themselves are kept with ``studied_at`` set.
"""

from __future__ import annotations

import datetime as dt
import math
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from companion.core.selfcheck.quiz import weak_topics
from companion.core.text import topic_key
from companion.core.timeutil import parse_stored, to_stored_utc

if TYPE_CHECKING:
    from sqlite_utils import Database

RECENCY_HALF_LIFE_DAYS = 14.0
QUIZ_SEVERITY = {"missed": 3, "shaky": 2}
WEAK_SEVERITY = 2
GUIDE_KINDS = (
    "steps",
    "traps",
    "recovery",
    "pitch",
    "nudges",
    "summary",
    "quiz",
    "questions",
    "note",
)

STUDY_LIST_SQL = """
SELECT topic_key, topic, COUNT(*), MAX(created_at), MAX(severity), 'flub'
  FROM flubs WHERE studied_at IS NULL GROUP BY topic_key
UNION ALL
SELECT topic_key, topic, COUNT(*), MAX(created_at), 2, 'weak'
  FROM weak_topics WHERE studied_at IS NULL GROUP BY topic_key
UNION ALL
SELECT topic_key, topic, COUNT(*), MAX(created_at), MAX(severity), 'surprise'
  FROM study_surprises WHERE studied_at IS NULL GROUP BY topic_key
"""


@dataclass(frozen=True)
class GuideLink:
    section_id: str
    section_title: str
    item: str = ""  # the item of the section that matched best ("" = the section as a whole)
    say: str = ""


@dataclass
class StudyItem:
    key: str  # topic key, or "quiz:<question id>"
    topic: str
    count: int
    last_seen: str  # UTC ISO timestamp
    worst: int  # 1..3
    sources: set[str] = field(default_factory=set)  # flub, weak, quiz
    score: float = 0.0
    guide: GuideLink | None = None
    see: tuple[str, ...] = ()  # section ids named by a quiz question


@dataclass
class StudyDetail:
    companies: list[str] = field(default_factory=list)
    round_types: list[str] = field(default_factory=list)
    details: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class StudyMark:
    topic_key: str
    topic: str
    source: str
    studied_at: str


def rank_score(count: int, worst: int, last_seen: str, now: dt.datetime) -> float:
    seen = parse_stored(last_seen)
    days = 365.0 if seen is None else max(0.0, (now - seen).total_seconds() / 86400)
    return count + 1.5 * worst + 3 * math.pow(0.5, days / RECENCY_HALF_LIFE_DAYS)


# --- linking topics to the guide ---------------------------------------------------------

_STOP = frozenset(
    "the a an and or of to in on for with without how what why when is are was be your you "
    "my me we our it its this that at by from into about not no vs versus".split()
)


def _words(text: str) -> set[str]:
    words = set()
    for word in re.findall(r"\w+", topic_key(text)):
        if word in _STOP or len(word) < 2 or (len(word) < 3 and not word.isdigit()):
            continue
        words.add(word[:-1] if len(word) > 4 and word.endswith("s") else word)
    return words


class GuideIndex:
    """Matches topic words against guide section titles and items.

    A section title sharing a word counts 3; the best single item counts its shared
    words. A link is made when the best item shares at least half of the topic's words
    (at least one) or the title shares one.
    """

    def __init__(self, content) -> None:
        self._sections = []
        self._cache: dict[str, GuideLink | None] = {}
        self.round_titles: dict[str, str] = {}  # round type id -> title (exports name rounds)
        if content is None:
            return
        self.round_titles = content.round_titles()
        for kind in GUIDE_KINDS:
            for section in content.by_kind(kind):
                items = [
                    (_words(item.text + " " + (item.get("say") or "")), item)
                    for item in section.items
                ]
                self._sections.append((section, _words(section.title), items))

    def match(self, topic: str, key: str | None = None) -> GuideLink | None:
        """The guide's place for ``topic``; ``key`` is its topic_key when the caller has
        it already (the study list does: normalising every topic again cost most of it)."""
        key = key or topic_key(topic)
        if key in self._cache:
            return self._cache[key]
        words = _words(topic)
        best: tuple[float, GuideLink] | None = None
        if words:
            need = max(1, math.ceil(len(words) / 2))
            for section, title_words, items in self._sections:
                title_hits = len(words & title_words)
                item_hits, item = 0, None
                for item_words, candidate in items:
                    hits = len(words & item_words)
                    if hits > item_hits:
                        item_hits, item = hits, candidate
                if item_hits < need and not title_hits:
                    continue
                score = 3 * title_hits + item_hits
                if best is None or score > best[0]:
                    link = GuideLink(
                        section.id,
                        section.title,
                        item.text if item is not None and item_hits >= need else "",
                        (item.get("say") or "") if item is not None and item_hits >= need else "",
                    )
                    best = (score, link)
        self._cache[key] = best[1] if best else None
        return self._cache[key]

    def quiz_answers(self) -> dict[str, str]:
        """Self-check answers by question id (for the Anki export's backs)."""
        return {
            item.get("id") or "": item.get("answer") or ""
            for section, _t, items in self._sections
            if section.kind == "quiz"
            for _w, item in items
            if item.get("id")
        }

    def link_for_see(self, see: Iterable[str]) -> GuideLink | None:
        for section_id in see:
            for section, _t, _i in self._sections:
                if section.id == section_id:
                    return GuideLink(section.id, section.title)
        return None


# --- the list --------------------------------------------------------------------------


def _quiz_weak(db: Database) -> list:
    try:
        return list(weak_topics(db))
    except Exception:  # another feature's data problem must not take the study list down
        return []


def study_list(
    db: Database,
    now: dt.datetime,
    *,
    guide: GuideIndex | None = None,
    include_quiz: bool = True,
) -> list[StudyItem]:
    """The ranked study list (best first)."""
    items: dict[str, StudyItem] = {}
    for key, topic, count, last, worst, source in db.execute(STUDY_LIST_SQL).fetchall():
        item = items.get(key)
        if item is None:
            items[key] = StudyItem(key, topic, count, last, worst, {source})
        else:
            item.count += count
            item.worst = max(item.worst, worst)
            if last > item.last_seen:
                item.last_seen, item.topic = last, topic
            item.sources.add(source)
    if include_quiz:
        _add_quiz(db, items)
    for item in items.values():
        item.score = rank_score(item.count, item.worst, item.last_seen, now)
        if guide is not None:
            item.guide = (guide.link_for_see(item.see) if item.see else None) or guide.match(
                item.topic, item.key
            )
    return sorted(items.values(), key=lambda i: (-i.score, i.topic.casefold()))


def _add_quiz(db: Database, items: dict[str, StudyItem]) -> None:
    weak = _quiz_weak(db)
    if not weak:
        return
    studied = dict(
        db.execute(
            "SELECT topic_key, MAX(studied_at) FROM study_marks WHERE source = 'quiz' GROUP BY topic_key"
        ).fetchall()
    )
    for q in weak:
        key = f"quiz:{q.question_id}"
        last = _as_utc(q.last_seen)
        if key in studied and studied[key] >= last:
            continue
        items[key] = StudyItem(
            key=key,
            topic=q.question,
            count=1,
            last_seen=last,
            worst=QUIZ_SEVERITY.get(q.state, 2),
            sources={"quiz"},
            see=tuple(q.see),
        )


def _as_utc(text: str) -> str:
    moment = parse_stored(text)
    return to_stored_utc(moment) if moment is not None else ""


def study_details(db: Database, keys: Iterable[str]) -> dict[str, StudyDetail]:
    """Companies, round types and flub details behind each open topic, a surprise's round
    included (for exports and the selected item; kept out of :func:`study_list` so the
    list stays fast)."""
    wanted = [k for k in keys if not k.startswith("quiz:")]
    out: dict[str, StudyDetail] = {k: StudyDetail() for k in keys}
    for start in range(0, len(wanted), 500):
        chunk = wanted[start : start + 500]
        marks = ",".join("?" * len(chunk))
        rows = db.execute(
            f"""
            SELECT e.topic_key, COALESCE(l.company, ''), COALESCE(r.type, ''), e.detail
              FROM (SELECT topic_key, loop_id, round_id, detail, created_at FROM flubs
                     WHERE studied_at IS NULL AND topic_key IN ({marks})
                    UNION ALL
                    SELECT topic_key, loop_id, round_id, note, created_at FROM weak_topics
                     WHERE studied_at IS NULL AND topic_key IN ({marks})
                    UNION ALL
                    SELECT s.topic_key, sr.loop_id, s.round_id, '', s.created_at
                      FROM study_surprises s JOIN rounds sr ON sr.id = s.round_id
                     WHERE s.studied_at IS NULL AND s.topic_key IN ({marks})) AS e
              LEFT JOIN loops l ON l.id = e.loop_id
              LEFT JOIN rounds r ON r.id = e.round_id
             ORDER BY e.created_at DESC
            """,
            chunk * 3,
        ).fetchall()
        for key, company, round_type, detail in rows:
            d = out[key]
            if company and company not in d.companies:
                d.companies.append(company)
            if round_type and round_type not in d.round_types:
                d.round_types.append(round_type)
            if detail and detail not in d.details:
                d.details.append(detail)
    return out


def mark_studied(db: Database, item: StudyItem, at: dt.datetime) -> None:
    """Take a topic off the list; it stays in the history (``study_marks``)."""
    stamp = to_stored_utc(at)
    with db.atomic():
        if not item.key.startswith("quiz:"):
            db.execute(
                "UPDATE flubs SET studied_at = ? WHERE topic_key = ? AND studied_at IS NULL",
                [stamp, item.key],
            )
            db.execute(
                "UPDATE weak_topics SET studied_at = ? WHERE topic_key = ? AND studied_at IS NULL",
                [stamp, item.key],
            )
            db.execute(
                "UPDATE study_surprises SET studied_at = ? "
                "WHERE topic_key = ? AND studied_at IS NULL",
                [stamp, item.key],
            )
        db.execute(
            "INSERT INTO study_marks(topic_key, topic, source, studied_at) VALUES (?, ?, ?, ?)",
            [item.key, item.topic, "quiz" if item.key.startswith("quiz:") else "journal", stamp],
        )


def study_history(db: Database, limit: int = 500) -> list[StudyMark]:
    """Topics marked studied, newest first."""
    return [
        StudyMark(*row)
        for row in db.execute(
            "SELECT topic_key, topic, source, studied_at FROM study_marks "
            "ORDER BY studied_at DESC, id DESC LIMIT ?",
            [limit],
        ).fetchall()
    ]
