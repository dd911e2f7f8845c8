"""The day's numbers, read from the content packs (one source of truth)."""

from __future__ import annotations

from companion.core.content import Content
from companion.core.day.model import BeforeItem, DayRules


def day_rules(content: Content) -> DayRules:
    """Round titles and lengths, and the before-round steps with their offsets; anything a
    broken pack leaves out keeps the :class:`DayRules` default."""
    from companion.core.day.checklist import phase_list

    titles = {t.id: t.title for t in content.round_types()}
    lengths: dict[str, int] = {}
    for section in content.by_kind("rounds"):
        for item in section.items:
            rid, minutes = item.get("id"), item.int("minutes")
            if rid and minutes > 0:
                lengths.setdefault(rid, minutes)
    try:
        before_list = phase_list(content, "before-round")
    except KeyError:
        before_list = None
    before = tuple(
        BeforeItem(item.minutes_before, item.text)
        for item in (before_list.items if before_list else ())
        if item.minutes_before
    )
    rules = DayRules(titles=titles, lengths=lengths, before=before)
    if before:
        import datetime as dt
        from dataclasses import replace

        widest = max(b.minutes for b in before)
        rules = replace(rules, before_window=dt.timedelta(minutes=widest))
    return rules
