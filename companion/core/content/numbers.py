"""The pack's numbers in the pack's words: a text may name a number another entry sets.

``{target}`` (the pitch's `target:`), ``{pick}`` (the questions' `pick:`, in words),
``{capture_window}`` and ``{thank_you_window}`` (the after-loop items' `within_hours:`,
as "the hour" or "24 hours"), ``{silence_seconds}`` (the recovery item's field),
``{before_window}`` (the earliest before-round offset, "15 minutes") and
``{coding_setup}`` (the coding moves' setup step, "1 minute"), ``{story_budget}``,
``{max_stories}`` and ``{story_range}`` (the stories section's numbers),
``{coding_length}`` and ``{design_length}`` (those round types' lengths) and
``{warm_up}`` (the before-round ``warm_up_minutes:``) are
filled in when the pack loads, in every intro, front-matter text, item and field, so a
pack that changes a number changes every sentence about it. A checklist or steps item's
``{minutes}`` is its own ``minutes:`` ("10 minutes", "2-3 minutes"). Other braces (the
closing line's ``{topic}``, the wrap-up's ``{minutes}``) are left for their own users.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import replace
from typing import TYPE_CHECKING

from companion.core.content.fields import parse_range, whole_value
from companion.core.content.lengths import type_minutes
from companion.core.content.stories import story_pack

if TYPE_CHECKING:
    from companion.core.content.items import Item, Section
    from companion.core.content.loader import Content

NAMES = (
    "target",
    "pick",
    "capture_window",
    "thank_you_window",
    "silence_seconds",
    "before_window",
    "coding_setup",
    "story_budget",
    "max_stories",
    "story_range",
    "coding_length",
    "design_length",
    "warm_up",
)
OWN_MINUTES = "{minutes}"  # a checklist or steps item's own ``minutes:``
_OWN_MINUTES_KINDS = ("checklist", "steps")
_SLOT = re.compile(r"\{(" + "|".join(NAMES) + r")\}")


def duration_text(span: dt.timedelta) -> str:
    """1 h -> "1 hour", 24 h -> "24 hours", 1.5 h -> "90 minutes"."""
    minutes = round(span.total_seconds() / 60)
    if minutes % 60 == 0:
        hours = minutes // 60
        return f"{hours} hour{'s' if hours != 1 else ''}"
    return f"{minutes} minute{'s' if minutes != 1 else ''}"


def duration_words(span: dt.timedelta) -> str:
    """As a sentence has it after "within": "the hour", else :func:`duration_text`."""
    return "the hour" if round(span.total_seconds()) == 3600 else duration_text(span)


def values(content: Content) -> dict[str, str]:
    """Each slot's words, read from the entry that sets the number."""
    return {
        "target": content.pitch_plan().target_text,
        "pick": content.planner_rules().count_text,
        "capture_window": duration_words(content.capture_window),
        "thank_you_window": duration_words(content.thank_you_after),
        "silence_seconds": str(content.silence_nudge().seconds),
        "before_window": duration_text(
            dt.timedelta(minutes=max((s.minutes for s in content.before_round_steps()), default=15))
        ),
        "coding_setup": duration_text(dt.timedelta(minutes=_setup_minutes(content))),
        **_story_words(content),
        "coding_length": _type_length(content, "coding"),
        "design_length": _type_length(content, "design"),
        "warm_up": duration_text(dt.timedelta(minutes=_warm_up_minutes(content))),
    }


def _warm_up_minutes(content: Content) -> int:
    """The before-round checklist's ``warm_up_minutes:`` (the guide: 5)."""

    section = content.sections.get("before-round")
    value = section.meta.get("warm_up_minutes", "") if section is not None else ""
    return whole_value(value) if value.strip().isdigit() and whole_value(value) > 0 else 5


def _type_length(content: Content, type_id: str) -> str:
    """A round type's length as the day times it ("45 minutes")."""

    return duration_text(dt.timedelta(minutes=type_minutes(content, type_id)))


def seconds_text(seconds: int) -> str:
    """120 -> "2 minutes", 60 -> "1 minute", 90 -> "90 seconds"."""
    if seconds % 60 == 0:
        return duration_text(dt.timedelta(seconds=seconds))
    return f"{seconds} second{'s' if seconds != 1 else ''}"


def _story_words(content: Content) -> dict[str, str]:
    """The stories section's budget (``seconds:``) and limits (``min_stories:``,
    ``max_stories:``): "2 minutes", "12", "8 to 12"."""

    pack = story_pack(content)
    low, high = pack.min_stories, pack.max_stories
    return {
        "story_budget": seconds_text(pack.seconds),
        "max_stories": str(high),
        "story_range": f"{low} to {high}" if low < high else f"up to {high}",
    }


def _setup_minutes(content: Content) -> float:
    """The coding moves' setup step's minutes (a range by its upper end); 1 if none."""

    steps = content.sections.get("coding-moves")
    item = next((i for i in steps.items if i.get("id") == "setup"), None) if steps else None
    span = parse_range(item.get("minutes")) if item is not None else None
    return span[1] if span and span[1] > 0 else 1


def fill(text: str, words: dict[str, str]) -> str:
    return _SLOT.sub(lambda m: words[m.group(1)], text) if "{" in text else text


def fill_numbers(content: Content) -> None:
    """Put every slot's words into the loaded sections, and place each nudge that
    follows a step (``after_step:``) where that step ends (in place)."""
    words = values(content)
    for sid, section in list(content.sections.items()):
        section = _filled_section(section, words)
        if section.kind == "nudges" and section.meta.get("steps"):
            section = _placed_after_steps(section, content.sections.get(section.meta["steps"]))
        content.sections[sid] = section


def step_ends(steps: Section) -> dict[str, float]:
    """Minutes from the start at which each step ends: the steps' ``minutes:`` added up
    in order, a range by its upper end, a step without minutes taking none."""

    ends, total = {}, 0.0
    for item in steps.items:
        span = parse_range(item.get("minutes"))
        total += span[1] if span else 0
        if item.get("id"):
            ends[item.get("id")] = total
    return ends


def _placed_after_steps(section: Section, steps: Section | None) -> Section:
    if steps is None or steps.kind != "steps":
        return section  # reported by the content check
    ends = step_ends(steps)
    items = []
    for item in section.items:
        ref = item.get("after_step")
        if ref in ends:
            fields = {k: v for k, v in item.fields.items() if k != "after_step"}
            item = replace(item, fields={**fields, "at": f"{ends[ref]:g}"})
        items.append(item)
    return replace(section, items=tuple(items))


def _own_minutes(item: Item) -> str | None:
    """An item's own ``minutes:`` in words: "10 minutes", "2-3 minutes"."""

    span = parse_range(item.get("minutes"))
    if span is None:
        return None
    low, high = span
    return duration_text(dt.timedelta(minutes=high)) if low == high else f"{low}-{high} minutes"


def _has_slot(section: Section) -> bool:
    if section.kind in _OWN_MINUTES_KINDS and any(
        OWN_MINUTES in t for i in section.items for t in (i.text, *i.fields.values())
    ):
        return True
    texts = [section.title, section.intro, *section.meta.values()]
    for item in section.items:
        texts.append(item.text)
        texts += item.fields.values()
    return any(_SLOT.search(t) for t in texts if "{" in t)


def _filled_section(section: Section, words: dict[str, str]) -> Section:
    if not _has_slot(section):
        return section  # most sections name no number: keep them as loaded
    return replace(
        section,
        title=fill(section.title, words),
        intro=fill(section.intro, words),
        meta={k: fill(v, words) for k, v in section.meta.items()},
        items=tuple(_filled_item(item, words, section.kind) for item in section.items),
    )


def _filled_item(item: Item, words: dict[str, str], kind: str) -> Item:
    own = _own_minutes(item) if kind in _OWN_MINUTES_KINDS else None

    def filled(text: str) -> str:
        text = fill(text, words)
        return text.replace(OWN_MINUTES, own) if own and OWN_MINUTES in text else text

    return replace(
        item,
        text=filled(item.text),
        fields={k: filled(v) for k, v in item.fields.items()},
    )
