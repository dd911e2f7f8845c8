"""How long a round lasts: one rule, asked by the card, the day, reminders and the CLI.

A round's own length (the invitation's end, the card's length box) comes first; else its
type's ``minutes:`` in a `rounds` section; else the ``minutes:`` of the type's `nudges`
section; else the pack's default round length.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # annotations only: the content loader fills numbers from here
    from companion.core.content.items import Item
    from companion.core.content.loader import Content


DEFAULT_MINUTES = 45  # fallback only: the pack's rounds `minutes:` (Content.round_defaults)
MIN_MINUTES, MAX_MINUTES = 5, 240


def clamp_minutes(value: Any) -> int:
    """A length in minutes as a round may have it: a whole number from 5 to 240."""
    return max(MIN_MINUTES, min(MAX_MINUTES, as_int(value, DEFAULT_MINUTES)))


def as_int(value: Any, default: int) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        return default


def nudges_section(content: Content, type_id: str, item: Item | None) -> str:
    """The id of the `nudges` section a round type uses ("" for none): its ``nudges:``
    field, else a section named ``<type>-nudges``."""
    nudges = (item.get("nudges") if item else None) or ""
    if not nudges and content.section(f"{type_id}-nudges"):
        nudges = f"{type_id}-nudges"
    section = content.section(nudges) if nudges else None
    return nudges if section is not None and section.kind == "nudges" else ""


def type_items(content: Content) -> dict[str, Item]:
    """Round type id -> its item in the first `rounds` section that names it."""
    items: dict[str, Item] = {}
    for section in content.by_kind("rounds"):
        for item in section.items:
            items.setdefault(item.get("id") or "", item)
    return items


def type_minutes(content: Content, type_id: str, item: Item | None = None) -> int:
    """A round type's length: its ``minutes:``, its nudges' ``minutes:``, the default."""
    if item is None:
        item = type_items(content).get(type_id)
    minutes = item.int("minutes", 0) if item else 0
    if minutes <= 0:
        nudges = nudges_section(content, type_id, item)
        section = content.section(nudges) if nudges else None
        minutes = as_int(section.meta.get("minutes"), 0) if section is not None else 0
    if minutes <= 0:
        minutes = content.round_defaults().minutes
    return clamp_minutes(minutes)


def type_lengths(content: Content) -> dict[str, int]:
    """Every round type id -> :func:`type_minutes`."""
    items = type_items(content)
    return {rt.id: type_minutes(content, rt.id, items.get(rt.id)) for rt in content.round_types()}


def round_minutes(own: int | None, type_id: str, lengths: Mapping[str, int], default: int) -> int:
    """A round's length: its own when set, else its type's (``lengths`` from
    :func:`type_lengths`), else ``default`` (a type the pack does not know)."""
    if isinstance(own, int) and own > 0:
        return own
    return lengths.get(type_id) or default


def start_length(own: int | None, type_id: str, chosen: Mapping[str, int]) -> int | None:
    """The length to fix on a round as it starts, wherever Start is pressed: None (keep
    what it has) for a round with its own length (an invitation's end), else the length
    the user chose for its type on the card, else None (its type's, by the day)."""
    if isinstance(own, int) and own > 0:
        return None
    mine = chosen.get(type_id)
    return clamp_minutes(mine) if isinstance(mine, int) and mine > 0 else None


def warm_up_length(content: Content) -> int:
    """The before-round list's ``warm_up_minutes:`` (the guide: 5)."""
    section = content.section("before-round")
    value = as_int(section.meta.get("warm_up_minutes"), 5) if section is not None else 5
    return value if value > 0 else 5


def warm_up_times(steps: list[tuple[int | None, bool]], warm_up: int) -> list[int | None]:
    """Each step's minutes before the round, for steps given in the pack's order as
    (their ``minutes_before``, whether they are ``warm_up: yes``): the warm-up items are
    spread over ``warm_up`` minutes that end where the next timed step after them begins
    (the bathroom break), so the pack's warm-up length moves them, not only its words."""
    marked = [n for n, (_m, warm) in enumerate(steps) if warm]
    if not marked:
        return [m for m, _w in steps]
    after = [m for m, warm in steps[marked[-1] + 1 :] if not warm and m is not None]
    end = after[0] if after else 0
    out = [m for m, _w in steps]
    for k, n in enumerate(marked):
        out[n] = end + warm_up - -(-k * warm_up // len(marked))  # the k-th share, rounded up
    return out
