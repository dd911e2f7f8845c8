"""Every migration set the app applies, in order.

Each feature owns one module here with its own set of steps (``steps.Steps``, applied
through sqlite-utils' ``Migrations``), applied in the order they are defined. Never edit
or reorder a released step: add a new one at the end of its module.
"""

from __future__ import annotations

from companion.core.storage.schema import (
    about,
    base,
    checklist,
    day,
    journal,
    quiz,
    review,
    stories,
)

MIGRATION_SETS = [
    base.migrations,
    journal.migrations,
    about.migrations,
    checklist.migrations,
    quiz.migrations,
    day.migrations,
    review.migrations,
    stories.migrations,
]


def known_steps() -> set[tuple[str, str]]:
    return {(m.name, step.name) for m in MIGRATION_SETS for step in m.steps}
