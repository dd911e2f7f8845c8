"""What the content pack says about stories (content/52-stories.md, ``kind: stories``):
the common questions with the tags that answer them, the per-story budget, the limits and
every text the checks show. A pack without the section falls back to :data:`FALLBACK`."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from companion.core.content.audiences import AUDIENCES

if TYPE_CHECKING:  # annotations only: the content loader fills numbers from here
    from companion.core.content.items import Section
    from companion.core.content.loader import Content


@dataclass(frozen=True)
class Question:
    id: str
    text: str
    tags: tuple[str, ...]
    rounds: tuple[str, ...]  # round type ids it comes up in
    audience: tuple[str, ...] = ()  # who asks it (custom round types fall back to this)
    answer_with: str = ""  # "pitch": the pitch answers it, not a story


@dataclass(frozen=True)
class StoryPack:
    questions: tuple[Question, ...] = ()
    seconds: int = 120  # one story's budget, told
    min_stories: int = 8  # the low end of the bank's advised size (only words use it)
    max_stories: int = 12
    expect_from_study: int = 3  # study-list topics added to a round's expected topics
    card_rounds: tuple[str, ...] = AUDIENCES  # the round types named for their interviewer
    surprise_severity: int = 3  # study-list weight of a topic asked but not expected
    tags: tuple[str, ...] = ()  # the competencies the questions use
    texts: dict[str, str] = field(default_factory=dict)
    intro: str = ""  # the section's intro: what is the pack's own (shown on the Stories page)
    # round type id -> the topics its own rounds bring (the `rounds` items' ``topics:``)
    round_topics: dict[str, tuple[str, ...]] = field(default_factory=dict)

    def text(self, key: str, **values) -> str:
        template = self.texts.get(key) or DEFAULT_TEXTS[key]
        try:
            return template.format(**values)
        except (KeyError, IndexError, ValueError):  # a pack's own text with a wrong slot
            return DEFAULT_TEXTS[key].format(**values)

    def questions_for(self, round_type: str, audience: str = "") -> tuple[Question, ...]:
        """The questions a round of this type (or, for a custom type, this audience) asks."""
        by_type = tuple(q for q in self.questions if round_type in q.rounds)
        if by_type or not audience:
            return by_type
        return tuple(q for q in self.questions if audience in q.audience)

    def question(self, question_id: str) -> Question | None:
        return next((q for q in self.questions if q.id == question_id), None)


DEFAULT_TEXTS = {
    "no_number": "The Result has no number.",
    "too_many": "{count} stories: at most {max} is easier to practise.",
    "gap": 'No story answers "{question}" (tags: {tags}).',
    "over": '"{title}" runs about {seconds} s; the budget is {budget} s.',
    "no_tags": '"{title}" has no Tags line.',
    "unknown_tag": '"{title}": the tag "{tag}" is not one the questions use ({known}).',
    "pitch_answer": "Your pitch answers this, not a story.",
}

FALLBACK = StoryPack()


def _int(section: Section, key: str, default: int) -> int:
    try:
        return int(section.meta.get(key, default))
    except (TypeError, ValueError):
        return default


def _ids(value: str | None) -> tuple[str, ...]:
    return tuple(part.strip() for part in (value or "").split(",") if part.strip())


def story_pack(content: Content | None) -> StoryPack:
    """The pack's stories section (the first of ``kind: stories``), checked on load by
    ``companion content check``."""
    sections = content.by_kind("stories") if content is not None else []
    if not sections:
        return FALLBACK
    round_topics = {
        item.get("id") or "": tuple(item.list("topics"))
        for rounds in content.by_kind("rounds")
        for item in rounds.items
        if item.list("topics")
    }
    section = sections[0]
    questions = tuple(
        Question(
            item.get("id") or "",
            item.text,
            tuple(item.list("tags")),
            tuple(item.list("rounds")),
            tuple(item.list("audience")),
            item.get("answer_with") or "",
        )
        for item in section.items
        if item.get("id")
    )
    return StoryPack(
        round_topics=round_topics,
        questions=questions,
        seconds=_int(section, "seconds", FALLBACK.seconds),
        min_stories=_int(section, "min_stories", FALLBACK.min_stories),
        max_stories=_int(section, "max_stories", FALLBACK.max_stories),
        expect_from_study=_int(section, "expect_from_study", FALLBACK.expect_from_study),
        card_rounds=_ids(section.meta.get("card_rounds")) or FALLBACK.card_rounds,
        surprise_severity=min(3, max(1, _int(section, "surprise_severity", 3))),
        tags=_ids(section.meta.get("tags"))
        or tuple(sorted({t for q in questions for t in q.tags})),
        texts={k: v for k, v in section.meta.items() if k in DEFAULT_TEXTS},
        intro=" ".join(section.intro.split()),
    )
