"""The story bank's Markdown as safe HTML: the one-pager's renderer, with each labelled
part line (``Situation: ...``, ``**Result:** ...``) its own paragraph. Markdown runs
consecutive lines into one paragraph, which read the whole story as one run-on line."""

from __future__ import annotations

import re

from companion.core.about.render import SafeRenderer
from companion.core.stories.parse import _LABEL, _part_of

_FENCE = re.compile(r"^\s{0,3}(```|~~~)")
_TAGS = re.compile(r"^\**tags\**[ \t]*:", re.IGNORECASE)


def _starts_part(line: str) -> bool:
    if line.startswith(("-", "*", " ", "\t")) and not line.startswith("**"):
        return False  # list items and indented lines are blocks of their own already
    if _TAGS.match(line):
        return True
    label = _LABEL.match(line)
    return bool(label and _part_of(label.group(1)))


def separated_parts(text: str) -> str:
    """``text`` with a blank line before each labelled part line that follows text."""
    if ":" not in text:
        return text
    out: list[str] = []
    in_fence = False
    previous = ""
    for line in text.split("\n"):
        if _FENCE.match(line):
            in_fence = not in_fence
        elif not in_fence and previous.strip() and _starts_part(line):
            out.append("")
        out.append(line)
        previous = line
    return "\n".join(out)


class StoryRenderer(SafeRenderer):
    """The Stories preview's and exports' renderer."""

    def convert(self, text: str) -> str:
        return super().convert(separated_parts(text))
