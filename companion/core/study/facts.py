"""What the study list says about one topic, the one source for the Study page's detail
pane and the Markdown export: how often, how bad, when last, at which companies (all of
them), in which rounds."""

from __future__ import annotations


def topic_facts(item, detail) -> list[str]:
    """Plain-text facts for a study item and its :class:`StudyDetail`, in reading order."""
    facts = [f"came up {item.count}×", f"worst {item.worst}/3"]
    if item.last_seen:
        facts.append(f"last seen {item.last_seen[:10]}")
    if detail.companies:
        facts.append("at " + ", ".join(detail.companies))
    if detail.round_types:
        facts.append("in " + ", ".join(detail.round_types))
    return facts
