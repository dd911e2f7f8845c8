"""The spoken pitch's segments (the pack's, FALLBACK_PITCH's without one) and how a
one-pager heading names one."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from companion.core.content.plans import FALLBACK_PITCH


@dataclass(frozen=True)
class SegmentSpec:
    id: str
    title: str
    budget_seconds: int
    aliases: tuple[str, ...]
    holds: str


# The words that name each segment in a heading: how people write them, so code. The
# segments' labels, budgets and order come from the content pack (a PitchPlan); these
# specs carry FALLBACK_PITCH's, used only where no pack is given.
_ALIASES = {
    "identity": ("identity", "who i am", "who you are", "who am i", "intro", "introduction"),
    "evidence": (
        "evidence",
        "strongest evidence",
        "my strongest evidence",
        "your strongest evidence",
    ),
    "depth": ("depth", "current depth", "what i am doing now", "current focus", "right now"),
    "why-role": ("why this role", "why role", "why-role", "why", "why this team", "why you"),
    "hand-back": ("hand back", "hand-back", "handback", "handing back", "over to you"),
}
SEGMENTS: tuple[SegmentSpec, ...] = tuple(
    SegmentSpec(s.id, s.title, s.seconds, _ALIASES[s.id], s.holds) for s in FALLBACK_PITCH.segments
)
SEGMENT_IDS = tuple(s.id for s in SEGMENTS)
PROJECTS_ALIASES = ("three projects", "projects", "3 projects", "selected projects", "key projects")
HEADING = re.compile(r"^(#{1,6})[ \t]+(.*?)[ \t#]*$")
_MARKER = re.compile(r"\{\s*#?([a-z][a-z-]*)\s*\}\s*$", re.IGNORECASE)
_BUDGET_HINT = re.compile(r"\(\s*\d+\s*(?:s|sec|secs|seconds)?\s*\)\s*$", re.IGNORECASE)
FENCE = re.compile(r"^\s*(```|~~~)")


@dataclass(frozen=True)
class Heading:
    line: int  # 0-based line number
    level: int
    text: str  # without the marker and the budget hint
    segment: str | None  # a segment id, "projects", or None


def normalise(text: str) -> str:
    text = text.lower().replace("’", "'")
    text = re.sub(r"[*_`]", "", text)
    text = re.sub(r"^\s*(?:\d+[.)]|[ivx]+\.)\s*", "", text)  # "1. Identity"
    text = re.sub(r"[:.\-–—!?]+\s*$", "", text).strip()
    return re.sub(r"\s+", " ", text)


_ALIAS_TO_ID = {alias: spec.id for spec in SEGMENTS for alias in spec.aliases}
_ALIAS_TO_ID.update({alias: "projects" for alias in PROJECTS_ALIASES})


@lru_cache(maxsize=1024)
def classify_heading(raw: str) -> tuple[str, str | None]:
    """(display text, segment id or "projects" or None) for a heading's text."""
    text = raw.strip()
    marker = _MARKER.search(text)
    if marker and (marker.group(1).lower() in SEGMENT_IDS or marker.group(1).lower() == "projects"):
        return text[: marker.start()].rstrip(), marker.group(1).lower()
    shown = _BUDGET_HINT.sub("", text).rstrip()
    key = normalise(shown)
    if key in _ALIAS_TO_ID:
        return shown, _ALIAS_TO_ID[key]
    # "Identity - who I am", "Why this role: platform"
    head = re.split(r"\s+[-–—:]\s+|:\s*", key, maxsplit=1)[0].strip()
    if head in _ALIAS_TO_ID and head != "why":
        return shown, _ALIAS_TO_ID[head]
    return shown, None


def scan_headings(lines: list[str], titles: dict[str, str] | None = None) -> list[Heading]:
    """ATX headings outside fenced code blocks; ``titles`` maps a normalised segment label
    of the pack (its own wording) to the segment id, on top of the built-in aliases."""
    headings: list[Heading] = []
    in_fence = False
    for number, line in enumerate(lines):
        if FENCE.match(line):
            in_fence = not in_fence
            continue
        if in_fence or not line.startswith("#"):
            continue
        match = HEADING.match(line)
        if not match:
            continue
        shown, segment = classify_heading(match.group(2))
        if segment is None and titles:
            segment = titles.get(normalise(shown))
        headings.append(Heading(number, len(match.group(1)), shown, segment))
    return headings
