"""Rounds in the order they happened (or are to): the Journal's and the thank-you's."""

from __future__ import annotations

from companion.core.day.loops import Round


def _moment(rnd: Round) -> float:
    """When a round happened (or is to): started, else scheduled, as one comparable number
    whatever the stored form (with or without a zone offset)."""
    when = rnd.started or rnd.scheduled
    return when.timestamp() if when is not None else float("inf")


def in_time_order(rounds: list[Round]) -> list[Round]:
    return sorted(rounds, key=lambda r: (_moment(r), r.id))
