"""How a benchmark row's result prints, in one place for every benchmark and run_all: the
word (``met``, ``MISSED``, or ``info`` for a row with no target, ``met`` None) and the
ratio, with its quartiles when the row has them."""

from __future__ import annotations


def verdict(met: bool | None) -> str:
    return "info" if met is None else "met" if met else "MISSED"


def ratio_text(row: dict) -> str:
    """``1.22`` or, for a row with ``ratio_range`` (the quartiles of its rounds' own
    ratios), ``1.22 (1.18-1.27)``: how far one run's rounds spread."""
    ratio = row.get("ratio")
    if ratio is None:
        return "-"
    spread = row.get("ratio_range")
    return f"{ratio:.2f}" + (f" ({spread[0]:.2f}-{spread[1]:.2f})" if spread else "")
