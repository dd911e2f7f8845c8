"""Spoken text: links and placeholders are taken out in one pass, the same as the regexes
they replace (those scanned from every ``[`` to the end of a line with no ``)`` after it:
the About me timing took 9 s on 200 KB of ``[a](``)."""

from __future__ import annotations

import re
import time

from hypothesis import given
from hypothesis import strategies as st

from companion.core.about.pitch import analyze
from companion.core.about.spoken import links_replaced, placeholders_replaced

LINK = re.compile(r"\[([^\]]*)\]\([^)]*\)")
IMAGE = re.compile(r"!\[([^\]]*)\]\([^)]*\)")
PLACEHOLDER = re.compile(r"\[[^\]]*\]")
lines = st.text(alphabet="[]()!a ", max_size=40)


@given(lines)
def test_links_are_replaced_as_the_regex_did(line):
    assert links_replaced(line) == LINK.sub(r"\1", line)
    assert links_replaced(line, image=True) == IMAGE.sub(" ", line)
    assert placeholders_replaced(line) == PLACEHOLDER.sub(" ", line)


def _cpu(text: str) -> float:
    best = float("inf")
    for _ in range(3):
        started = time.process_time()
        analyze(text, 140.0)
        best = min(best, time.process_time() - started)
    return best


def test_timing_an_unclosed_link_run_grows_linearly():
    """Eight times the text costs well under eight squared: a quadratic scan reads ~64."""
    for unit in ("[a](", "[", "![a](", "[a]"):
        small, large = _cpu(unit * 2_000), _cpu(unit * 16_000)
        assert large < 20 * max(small, 1e-3), (unit, small, large)
