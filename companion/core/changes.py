"""What a write changed, said once (in the spirit of Anki's ``OpChanges``).

Every transition or edit announces one :class:`Change`: the kinds of thing it touched,
the ids it touched (empty: any of that kind) and who asked. A view refreshes only when a
kind it shows is set, and skips its own echo by comparing ``origin`` with itself, so no
page needs a private "this was me" flag.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

#: the kinds a change can name; a view lists the ones it shows
KINDS = frozenset(
    {
        "loop",  # a loop's company, dates, status, notes
        "round",  # a round added, started, ended, skipped, rescheduled, retimed
        "capture",  # what was asked, flubs, what went well, a round's notes
        "thank-you",  # the thank-you draft or its sent mark
        "about",  # the about-me one-pager and its takes
        "stories",  # the story bank
        "quiz",  # self-check marks, flags
        "review",  # scheduled review cards and their log
        "plan",  # questions planned for an interviewer
        "study",  # study-list marks
        "checklist",  # ticks on a checklist
        "prefs",  # a preference (the loop Today follows, look, do-not-disturb choice)
        "content",  # the content packs were reloaded
    }
)

#: the kinds that live in the journal database and move the day
DAY_KINDS = frozenset({"loop", "round", "capture", "thank-you"})


@dataclass(frozen=True)
class Change:
    kinds: frozenset[str]
    ids: frozenset[int] = field(default_factory=frozenset)
    origin: object = None

    def __post_init__(self) -> None:
        unknown = self.kinds - KINDS
        if unknown:
            raise ValueError(f"unknown change kinds: {', '.join(sorted(unknown))}")

    @classmethod
    def of(cls, *kinds: str, ids: Iterable[int] = (), origin: object = None) -> Change:
        return cls(frozenset(kinds), frozenset(int(i) for i in ids if i), origin)

    def touches(self, *kinds: str) -> bool:
        """True when any of ``kinds`` changed."""
        return not self.kinds.isdisjoint(kinds)

    def is_from(self, who: object) -> bool:
        """True when ``who`` asked for this change (a view's own echo)."""
        return self.origin is not None and self.origin is who
