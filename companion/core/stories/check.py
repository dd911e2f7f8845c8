"""The story bank against the pack: each story's told length and its Result's number,
each common question's stories (those sharing a tag) and the gaps, and the warnings.

``companion stories check``, the Stories tab and the card all read this one analysis.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.core.content.stories import Question, StoryPack
from companion.core.stories.parse import Story, StoryBank, StoryProblem, parse_stories


@dataclass(frozen=True)
class StoryReport:
    story: Story
    seconds: float
    budget: int

    @property
    def has_number(self) -> bool:
        return self.story.has_number

    @property
    def over(self) -> bool:
        """Longer than the budget by more than a quarter (the pitch's own tolerance)."""
        return self.seconds > self.budget * 1.25


@dataclass(frozen=True)
class QuestionMatch:
    question: Question
    stories: tuple[Story, ...]  # best first: most shared tags, then document order

    @property
    def gap(self) -> bool:
        return not self.stories and not self.question.answer_with


@dataclass(frozen=True)
class BankAnalysis:
    reports: tuple[StoryReport, ...]
    matches: tuple[QuestionMatch, ...]
    warnings: tuple[str, ...]
    errors: tuple[StoryProblem, ...]

    @property
    def gaps(self) -> tuple[Question, ...]:
        return tuple(m.question for m in self.matches if m.gap)

    def gap_lines(self, pack: StoryPack) -> list[str]:
        """Each gap in the pack's words, naming the tags a story needs."""
        return [pack.text("gap", question=q.text, tags=", ".join(q.tags)) for q in self.gaps]

    def as_json(self) -> dict:
        return {
            "stories": [
                {
                    "title": r.story.title,
                    "tags": list(r.story.tags),
                    "seconds": round(r.seconds),
                    "has_number": r.has_number,
                }
                for r in self.reports
            ],
            "gaps": [q.text for q in self.gaps],
            "warnings": list(self.warnings),
            "errors": [str(e) for e in self.errors],
        }


def stories_for(question: Question, stories: tuple[Story, ...]) -> tuple[Story, ...]:
    """The stories whose tags share at least one with the question's, most shared first."""
    wanted = set(question.tags)
    scored = [(len(wanted & set(s.tags)), n, s) for n, s in enumerate(stories)]
    return tuple(s for shared, _, s in sorted(scored, key=lambda t: (-t[0], t[1])) if shared)


def analyze_bank(bank: StoryBank | str, pack: StoryPack, words_per_minute: float) -> BankAnalysis:
    if isinstance(bank, str):
        bank = parse_stories(bank)
    reports = tuple(StoryReport(s, s.seconds(words_per_minute), pack.seconds) for s in bank.stories)
    matches = tuple(QuestionMatch(q, stories_for(q, bank.stories)) for q in pack.questions)
    warnings: list[str] = []
    known = set(pack.tags)
    for report in reports:
        story = report.story
        if story.tags_line is None:
            warnings.append(pack.text("no_tags", title=story.title))
        for tag in story.tags:
            if known and tag not in known:
                warnings.append(
                    pack.text("unknown_tag", title=story.title, tag=tag, known=", ".join(pack.tags))
                )
        if report.over:
            warnings.append(
                pack.text(
                    "over", title=story.title, seconds=round(report.seconds), budget=pack.seconds
                )
            )
        if not report.has_number:
            warnings.append(f'"{story.title}": ' + pack.text("no_number"))
    if len(reports) > pack.max_stories:
        warnings.append(pack.text("too_many", count=len(reports), max=pack.max_stories))
    return BankAnalysis(reports, matches, tuple(warnings), bank.errors)
