"""A loop's status follows its rounds: planned until one begins, in progress while some
are still to come, done once every round that was not skipped has been held.

The stored status keeps only what the rounds cannot say: an outcome the user chose
(offer, rejected, withdrawn). "planned", "active" and "done" are never trusted as
stored: a loop whose rounds all ran used to stay "planned".
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from companion.core.day.loops import Loop

#: stored statuses the rounds decide; any other (an outcome) is shown as stored
DERIVED = frozenset({"planned", "active", "done"})
HELD = frozenset({"ended", "captured"})


def progress(states: Iterable[str]) -> str:
    """planned | in progress | done, from the states of a loop's rounds."""
    states = [s for s in states if s != "skipped"]
    held = sum(s in HELD for s in states)
    if states and held == len(states):
        return "done"
    if held or "running" in states:
        return "in progress"
    return "planned"


def shown_status(loop: Loop, states: Iterable[str]) -> str:
    """The loop's status as a person should read it; a loop with no rounds (or only
    skipped ones) keeps the status it was given."""
    states = [s for s in states if s != "skipped"]
    return progress(states) if loop.status in DERIVED and states else loop.status


def loops_as_shown(loops: list[Loop], states: dict[int, list[str]]) -> list[Loop]:
    """The loops with the status a person should read (see :func:`shown_status`), from
    the states of their rounds (:func:`companion.core.day.actions.round_states`)."""
    out = []
    for loop in loops:
        shown = shown_status(loop, states.get(loop.id, ()))
        out.append(loop if shown == loop.status else replace(loop, status=shown))
    return out
