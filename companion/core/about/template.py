"""The starting About-me one-pager, with its pitch headings and timings from the content.

``resources/templates/about-me.md`` writes ``{{identity}}`` ... ``{{hand-back}}`` where a
segment's heading goes and ``{{target}}`` for the whole pitch's range; :func:`fill_template`
puts in the pack's labels and budgets ("Who I am (10 s)"), so a pack that changes them
changes the template too.
"""

from __future__ import annotations

import re

from companion.core.content.plans import FALLBACK_PITCH, PitchPlan

_PLACEHOLDER = re.compile(r"\{\{\s*([a-z-]+)\s*\}\}")


def segment_heading(plan: PitchPlan, segment_id: str) -> str | None:
    segment = plan.segment(segment_id)
    if segment is not None:
        return f"{segment.title} ({segment.seconds} s)"
    fallback = FALLBACK_PITCH.segment(segment_id)  # a segment this pack leaves out
    return fallback.title if fallback is not None else None


def fill_template(text: str, plan: PitchPlan) -> str:
    """The template with its placeholders replaced; unknown ones are left as written."""

    def fill(match: re.Match[str]) -> str:
        key = match.group(1)
        if key == "target":
            return plan.target_text
        return segment_heading(plan, key) or match.group(0)

    return _PLACEHOLDER.sub(fill, text)


def minimal_template(plan: PitchPlan) -> str:
    """Headings only, for when the template file cannot be read."""
    lines = ["# Your Name — Role", ""]
    for segment in plan.segments:
        lines += [f"## {segment.title} ({segment.seconds} s)", ""]
    lines += ["## Three projects", "", "### Project one", "", "### Project two", ""]
    lines += ["### Project three", ""]
    return "\n".join(lines)
