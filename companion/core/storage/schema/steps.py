"""A feature's schema steps, named and ordered, declared without importing sqlite-utils.

Which steps exist is asked on every open (the pending count, a newer journal refused); only
applying them needs sqlite-utils' ``Migrations``, built then. A command that only reads the
journal (``about rehearse`` on the saved one-pager) so never pays sqlite-utils' import,
10 MiB of its 40 MiB budget.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class Step:
    name: str
    fn: Callable
    transactional: bool = True


class Steps:
    """``@steps()`` registers a step, as ``sqlite_utils.Migrations`` does."""

    def __init__(self, name: str):
        self.name = name
        self.steps: list[Step] = []

    def __call__(self, *, name: str | None = None, transactional: bool = True):
        def register(fn: Callable) -> Callable:
            step = Step(name or fn.__name__, fn, transactional)
            if any(known.name == step.name for known in self.steps):
                raise ValueError(f"Step {step.name!r} is already in the set {self.name!r}")
            self.steps.append(step)
            return fn

        return register

    def apply(self, db) -> None:
        """Apply the steps ``db`` (a sqlite-utils Database) has not had yet."""
        from sqlite_utils import Migrations

        migrations = Migrations(self.name)
        for step in self.steps:
            migrations(name=step.name, transactional=step.transactional)(step.fn)
        migrations.apply(db)
