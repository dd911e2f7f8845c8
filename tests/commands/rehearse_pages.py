"""The one-pagers and the tool check the commands' spoken-take tests share (imported by
name: tests/commands is on pytest's pythonpath)."""

from __future__ import annotations

import pytest
import voice_takes as vt

needs_tools = pytest.mark.skipif(
    vt.missing_tools() is not None, reason=f"espeak-ng/sox: {vt.missing_tools()}"
)
P = vt.PARAGRAPHS


def one_pager(breathe: str = "") -> str:
    """Three segments of the takes' paragraphs; ``breathe`` ends the first (a stage
    direction the recognizer must not expect)."""
    first = f"{P[0]} {breathe}".rstrip()
    return f"""# About me

## Who I am

{first}

## Strongest evidence

{P[1]}

## Why this role

{P[2]}
"""


ONE_PAGER = one_pager()
