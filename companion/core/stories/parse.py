"""Reading the story bank: one ``## Story: title`` per story, a ``Tags:`` line of
competencies, and the parts Situation, Task, Action, Result and what you would do
differently, each as a sub-heading (``### Result``) or a labelled line
(``**Result:** ...`` or ``Result: ...``). Pure and fast enough for every pause in typing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from companion.core.about.spoken import find_numbers, line_words, seconds_for, spoken_text
from companion.core.content.loader import slug

PARTS = ("situation", "task", "action", "result", "differently")
PART_TITLES = {
    "situation": "Situation",
    "task": "Task",
    "action": "Action",
    "result": "Result",
    "differently": "Differently",
}
_ALIASES = {
    "situation": "situation",
    "context": "situation",
    "task": "task",
    "action": "action",
    "actions": "action",
    "result": "result",
    "results": "result",
    "outcome": "result",
    "differently": "differently",
    "what i would do differently": "differently",
    "what i'd do differently": "differently",
    "next time": "differently",
    "lesson": "differently",
    "lessons": "differently",
}
# no pattern here backtracks over a run of blanks: each is linear in the line (the
# trailing blanks and '#' of a heading are stripped in Python, not by the regex), so a
# bank nested 3,000 levels deep is read in one pass
_STORY = re.compile(r"^##[ \t]+story[ \t]*:(.*)$", re.IGNORECASE)
_HEADING = re.compile(r"^(#{1,6})[ \t]+(.*)$")
_TAGS = re.compile(r"^(?:[-*][ \t]+)?\**tags\**[ \t]*:\**[ \t]*(.*)$", re.IGNORECASE)
_LABEL = re.compile(
    r"^(?:[-*][ \t]+)?(?:(?:\*\*|__)[ \t]*)?([A-Za-z'][A-Za-z' ]{2,29}?)[ \t]*:"
    r"(?:\*\*|__)?[ \t]*(.*)$"
)
_TAG_OK = re.compile(r"^[a-z0-9][a-z0-9 -]*$")
_FENCE = re.compile(r"^\s{0,3}(```|~~~)")


@dataclass(frozen=True)
class Story:
    id: str  # the title's slug, unique in the document
    title: str
    line: int  # 1-based line of the ``## Story:`` heading
    tags: tuple[str, ...] = ()
    tags_line: int | None = None  # 1-based, None without a Tags line
    parts: dict[str, str] = field(default_factory=dict)  # part -> its text (spoken words)
    words: int = 0

    def seconds(self, words_per_minute: float) -> float:
        return seconds_for(self.words, words_per_minute)

    @property
    def has_number(self) -> bool:
        return bool(find_numbers(self.parts.get("result", "")))

    def part_line(self, part: str) -> str:
        """The first sentence of a part, for the card ('' when the part is missing)."""
        text = " ".join(self.parts.get(part, "").split())
        first = re.split(r"(?<=[.!?])\s", text, maxsplit=1)[0]
        return first if len(first) <= 140 else first[:139].rstrip() + "…"


@dataclass(frozen=True)
class StoryProblem:
    line: int  # 1-based
    message: str

    def __str__(self) -> str:
        return f"line {self.line}: {self.message}"


@dataclass(frozen=True)
class StoryBank:
    stories: tuple[Story, ...]
    errors: tuple[StoryProblem, ...] = ()

    def story(self, story_id: str) -> Story | None:
        return next((s for s in self.stories if s.id == story_id), None)


def _part_of(label: str) -> str | None:
    key = " ".join(re.sub(r"[*_`:()]", " ", label).lower().split())
    return _ALIASES.get(key)


def parse_tags(raw: str, line: int) -> tuple[tuple[str, ...], list[StoryProblem]]:
    """'Ownership, impact' -> ('ownership', 'impact'); a tag with other characters than
    letters, digits, '-' and spaces, or an empty line, is a problem naming the line."""
    tags: list[str] = []
    problems = []
    for part in raw.split(","):
        tag = " ".join(part.strip().strip("*_`").lower().split())
        if not tag:
            continue
        if not _TAG_OK.match(tag):
            problems.append(
                StoryProblem(
                    line, f"the tag {part.strip()!r} is not a word: use letters, digits and '-'"
                )
            )
            continue
        tag = tag.replace(" ", "-")
        if tag not in tags:
            tags.append(tag)
    if not tags and not problems:
        problems.append(StoryProblem(line, "the Tags line is empty: name a competency or two"))
    return tuple(tags), problems


def parse_stories(text: str) -> StoryBank:
    """Every ``## Story:`` section of ``text``, with the problems found (broken tags, a
    story without a title)."""
    stories: list[Story] = []
    errors: list[StoryProblem] = []
    current: dict | None = None
    in_fence = False
    used: set[str] = set()  # ids so far, and the next suffix per title: a bank of one
    next_suffix: dict[str, int] = {}  # title repeated 1,500 times took 54 s

    def finish() -> None:
        if current is None:
            return
        base = slug(current["title"]) or f"story-{current['line']}"
        story_id, n = base, next_suffix.get(base, 2)
        while story_id in used:
            story_id, n = f"{base}-{n}", n + 1
        next_suffix[base] = n
        used.add(story_id)
        parts = {k: " ".join(v).strip() for k, v in current["parts"].items() if " ".join(v).strip()}
        stories.append(
            Story(
                story_id,
                current["title"],
                current["line"],
                current["tags"],
                current["tags_line"],
                parts,
                current["words"],
            )
        )

    for number, line in enumerate(text.splitlines(), 1):
        if _FENCE.match(line):
            in_fence = not in_fence
        if not in_fence and (match := _STORY.match(line)):
            finish()
            title = match.group(1).strip(" \t").rstrip(" \t#").strip()
            if not title:
                errors.append(StoryProblem(number, "a '## Story:' heading needs a title"))
                title = f"Story on line {number}"
            current = {
                "title": title,
                "line": number,
                "tags": (),
                "tags_line": None,
                "parts": {},
                "part": None,
                "words": 0,
            }
            continue
        if current is None:
            continue
        heading = None if in_fence else _HEADING.match(line)
        if heading and len(heading.group(1)) <= 2:  # another top section ends the story
            finish()
            current = None
            continue
        if heading:
            part = _part_of(heading.group(2).rstrip(" \t#"))
            current["part"] = part
            continue
        if not in_fence and current["tags_line"] is None and (tags := _TAGS.match(line.lstrip())):
            current["tags"], problems = parse_tags(tags.group(1), number)
            current["tags_line"] = number
            errors.extend(problems)
            continue
        body = line
        if (
            not in_fence
            and (label := _LABEL.match(line.lstrip()))
            and (part := _part_of(label.group(1)))
        ):
            current["part"] = part
            body = label.group(2)
        words = line_words(body)
        current["words"] += words
        if current["part"] and words:
            current["parts"].setdefault(current["part"], []).append(spoken_text(body).strip())
    finish()
    return StoryBank(tuple(stories), tuple(errors))
