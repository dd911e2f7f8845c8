"""Rehearse mode: a stopwatch that walks through the pitch segments.

The user speaks each segment and moves on (Next) when done; afterwards each segment's
spoken time is compared with its budget. Times are monotonic seconds supplied by the
caller, so the logic is testable without waiting.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.core.about.segments import SEGMENTS
from companion.core.about.store import RehearsalSegment


@dataclass(frozen=True)
class Step:
    id: str
    title: str
    budget_seconds: float


# fallback only: the About-me page passes the pack's segments (Content.pitch_plan())
DEFAULT_STEPS = tuple(Step(s.id, s.title, s.budget_seconds) for s in SEGMENTS)


class Rehearsal:
    def __init__(self, steps: tuple[Step, ...] = DEFAULT_STEPS):
        if not steps:
            raise ValueError("A rehearsal needs at least one segment.")
        self.steps = steps
        self.index = -1  # -1 before start; len(steps) when finished
        self._marks: list[float] = []

    @property
    def running(self) -> bool:
        return 0 <= self.index < len(self.steps)

    @property
    def finished(self) -> bool:
        return self.index >= len(self.steps)

    @property
    def current(self) -> Step | None:
        return self.steps[self.index] if self.running else None

    def start(self, now: float) -> None:
        self.index = 0
        self._marks = [now]

    def advance(self, now: float) -> Step | None:
        """Close the current segment and move to the next; returns the new current one
        (None when that was the last, and the rehearsal is finished)."""
        if not self.running:
            return None
        self._marks.append(max(now, self._marks[-1]))
        self.index += 1
        return self.current

    def finish(self, now: float) -> None:
        """Stop early: the current segment ends now; later ones count as not spoken."""
        if self.running:
            self.advance(now)
            self.index = len(self.steps)

    def elapsed_in_current(self, now: float) -> float:
        return max(0.0, now - self._marks[-1]) if self.running else 0.0

    def results(self) -> list[RehearsalSegment]:
        """Spoken seconds per completed segment (segments never reached are left out)."""
        return [
            RehearsalSegment(step.id, step.title, step.budget_seconds, end - begin)
            for step, begin, end in zip(self.steps, self._marks, self._marks[1:])
        ]


def against_target(seconds: float, target: tuple[int, int]) -> str:
    """How a whole take did against the pitch's target, in words: "within", or how far
    under or over the range it fell (the pack sets the range)."""
    lo, hi = target
    span = f"{lo}-{hi} s" if lo != hi else f"{lo} s"
    spoken = round(seconds)
    if spoken < lo:
        return f"{lo - spoken} s under the {span} target"
    if spoken > hi:
        return f"{spoken - hi} s over the {span} target"
    return f"within the {span} target"
