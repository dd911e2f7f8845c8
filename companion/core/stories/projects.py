"""One action: the one-pager's three projects become stories (a title, the tags of impact
and ownership, the project's lines sorted into the parts, placeholders for the rest).

A project's labelled lines keep their place ("Problem:" is the Situation, "My part:" the
Action, "Result:" the Result); other sentences go to the Result when they carry a number
and to the Action when not."""

from __future__ import annotations

import re

from companion.core.about.pitch import analyze
from companion.core.about.spoken import find_numbers, spoken_text
from companion.core.content.loader import slug
from companion.core.stories.parse import _LABEL, PART_TITLES, PARTS, _part_of, parse_stories

PROJECT_TAGS = "impact, ownership"
PROJECT_LABELS = {"problem": "situation", "my part": "action", "my role": "task", "role": "task"}
PLACEHOLDERS = {
    "situation": "[Where you were, and what was wrong]",
    "task": "[What was yours to do]",
    "action": "[What you did, in the first person]",
    "result": "[What changed, with a number]",
    "differently": "[What you would do differently next time]",
}
_SENTENCE = re.compile(r"(?<=[.!?;])\s+")


def _label(text: str) -> str | None:
    key = " ".join(text.lower().split())
    return PROJECT_LABELS.get(key) or _part_of(text)


def _project_parts(text: str) -> list[tuple[str, dict[str, list[str]]]]:
    lines = text.splitlines()
    projects = analyze(text).projects
    out = []
    for n, project in enumerate(projects):
        stop = projects[n + 1].line if n + 1 < len(projects) else len(lines)
        parts: dict[str, list[str]] = {}
        for index in range(project.line, stop):
            line = lines[index]
            if index > project.line and line.startswith("#"):
                break  # the next section
            if index == project.line:  # a heading, or a list item that is the project
                line = " ".join(spoken_text(line).lstrip("#").split())
                line = line[len(project.title) :] if line.startswith(project.title) else line
            label = _LABEL.match(line)
            part = _label(label.group(1)) if label else None
            body = spoken_text(label.group(2) if part else line).strip(" :.-–—")
            if not body or (body.startswith("[") and body.endswith("]")):
                continue
            if part is None:
                for sentence in _SENTENCE.split(body):
                    where = "result" if find_numbers(sentence) else "action"
                    parts.setdefault(where, []).append(sentence)
            else:
                parts.setdefault(part, []).append(body)
        out.append((project.title, parts))
    return out


def stories_from_projects(one_pager: str, stories_text: str) -> tuple[str, int]:
    """``stories_text`` with a story added for each project of ``one_pager`` that has none
    of its title yet; returns (new text, how many were added)."""
    have = {slug(s.title) for s in parse_stories(stories_text).stories}
    added = []
    for title, parts in _project_parts(one_pager):
        if slug(title) in have:
            continue
        have.add(slug(title))
        lines = [f"## Story: {title}", f"Tags: {PROJECT_TAGS}"]
        for part in PARTS:
            lines += [
                "",
                f"### {PART_TITLES[part]}",
                " ".join(parts.get(part, [])) or PLACEHOLDERS[part],
            ]
        added.append("\n".join(lines))
    if not added:
        return stories_text, 0
    head = stories_text.rstrip() or "# Stories"
    return head + "\n\n" + "\n\n".join(added) + "\n", len(added)
