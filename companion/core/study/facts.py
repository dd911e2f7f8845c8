"""What the study list says about one topic, the one source for the Study page's detail
pane and the Markdown export: how often, how bad, when last, at which companies (all of
them), in which rounds."""

from __future__ import annotations

from collections.abc import Mapping

MAX_NAMED = 10  # companies or rounds named in one fact; the others are counted


def named(values: list[str], noun: str) -> str:
    """The first :data:`MAX_NAMED` of ``values`` (most recent first), and how many more:
    a topic that came up in every loop of a long search would otherwise name them all
    (98,000 characters for 10,000 loops)."""
    shown = ", ".join(values[:MAX_NAMED])
    rest = len(values) - MAX_NAMED
    return shown if rest <= 0 else f"{shown} and {rest:,} more {noun}"


def topic_facts(item, detail, names: Mapping[str, str] | None = None) -> list[str]:
    """Plain-text facts for a study item and its :class:`StudyDetail`, in reading order;
    ``names`` (round type id -> its name for people, :func:`~companion.core.day.loops.type_names`)
    names the rounds it came up in."""
    names = names or {}
    facts = [f"came up {item.count}×", f"worst {item.worst}/3"]
    if item.last_seen:
        facts.append(f"last seen {item.last_seen[:10]}")
    if detail.companies:
        facts.append("at " + named(detail.companies, "companies"))
    if detail.round_types:
        rounds = [names.get(t) or t for t in detail.round_types]
        facts.append("in " + named(rounds, "kinds of round"))
    return facts
