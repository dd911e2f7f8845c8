"""The pages of the main window, in rail order.

Each page is ``companion.ui.<feature>.page`` and is a ``QWidget`` subclass constructed as
``PageClass(ctx, bus, parent=None)`` with ``ctx`` an
:class:`companion.core.context.AppContext` and ``bus`` an :class:`companion.ui.bus.AppBus`;
a page that shows the day (``day=True``) is also handed the session's day service as
``PageClass(ctx, bus, day=service)``.
A page may define ``on_shown()``, called each time it becomes the current page.
Pages are built on first use so that start-up pays only for the first one.
"""

from __future__ import annotations

from typing import NamedTuple


class PageSpec(NamedTuple):
    key: str
    title: str
    module: str  # the feature package: companion.ui.<module>.page
    cls: str
    icon: str  # resources/icons/<icon>.svg
    tooltip: str
    day: bool = False  # the page renders the day service's view: it is handed the service


PAGES = (
    PageSpec("today", "Today", "today", "TodayPage", "today", "What is next today", day=True),
    PageSpec(
        "about",
        "About me",
        "about",
        "AboutPage",
        "about",
        "Your pitch, timed against the pack's target",
    ),
    PageSpec("cue", "Cue card", "cue", "CuePage", "cue", "The card beside the call"),
    PageSpec(
        "checklist",
        "Checklist",
        "checklist",
        "ChecklistPage",
        "checklist",
        "Night before, morning of, before each round",
        day=True,
    ),
    PageSpec(
        "journal",
        "Journal",
        "journal",
        "JournalPage",
        "journal",
        "Loops, rounds, what was asked",
        day=True,
    ),
    PageSpec("study", "Study list", "study", "StudyPage", "study", "What to study next"),
    PageSpec("selfcheck", "Self-check", "selfcheck", "SelfCheckPage", "selfcheck", "Quiz yourself"),
)


def spec(key: str) -> PageSpec:
    for page in PAGES:
        if page.key == key:
            return page
    raise KeyError(key)
