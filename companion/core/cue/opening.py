"""The first minutes of a round: most rounds open with "tell me about yourself", so every
round's card offers the pitch outline, open until the round is past its opening."""

from __future__ import annotations

OPENING_MINUTES = 5  # a 60-90 s pitch plus the small talk and the first question


def pitch_outline_open(elapsed_seconds: float | None) -> bool:
    """Whether the pitch outline is unfolded: before the round starts and in its first
    minutes; folded after (``elapsed_seconds`` None: the round is not running)."""
    return elapsed_seconds is None or elapsed_seconds < OPENING_MINUTES * 60
