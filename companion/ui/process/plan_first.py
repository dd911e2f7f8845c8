"""The plan at first sight: when the window opens on Today over a journal that exists, the day is read and the page built before the first paint
(:class:`companion.ui.app.Application`), so the first frame shows the plan.

The Qt-free modules that takes are imported by the launch before Qt: once QtCore is
imported it hooks ``__import__``, and PySide then reads the source of every module
imported later. A new folder has no plan to show and imports none of them.
"""

from __future__ import annotations

import importlib

from companion.core import paths
from companion.ui.pages import PAGES

# the Qt-free modules under the day service and the Today page (the store and its
# sqlite-utils Database, the content loader under the day's rules); the rest follow
PLAN_MODULES = (
    "companion.core.storage.store",
    "companion.core.storage.database",  # sqlite-utils: the store makes it when first asked
    "companion.core.content.loader",
    "companion.core.day.actions",
    "companion.core.day.model",
    "companion.core.day.rules",
    "companion.core.day.ics",
    "companion.core.cue.state",
    "companion.core.dnd",
    "companion.core.stories.rounds",
)


def opens_on_plan(ctx, page: str | None = None) -> bool:
    """True when the window opens on Today (``page``: the one asked for on the command
    line, else the last one shown) and the journal exists. ``ctx``: the launch's context
    or the whole one (its data folder and preferences are read)."""
    keys = [spec.key for spec in PAGES]
    start = page or ctx.prefs.get("main.page", keys[0])
    start = start if start in keys else keys[0]  # the window's own rule
    return start == "today" and paths.db_path(ctx.data_dir).exists()


def load_plan_modules() -> None:
    for name in PLAN_MODULES:
        importlib.import_module(name)
