"""The word a benchmark row's result prints as: ``met``, ``MISSED``, or ``info`` for a
row with no target (``met`` is None). One place for every benchmark and run_all."""

from __future__ import annotations


def verdict(met: bool | None) -> str:
    return "info" if met is None else "met" if met else "MISSED"
