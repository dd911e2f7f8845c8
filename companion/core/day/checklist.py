"""Day-of checklists: the phases from content, and which items are ticked.

Ticks are kept per interview loop and per interview *day* (the day the lists are for,
so the night-before list ticked in the evening counts for the next morning's rounds).
The before-round list is kept per round, so it runs again before every round.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from companion.core.content.checklist_actions import CHECKLIST_ACTIONS
from companion.core.content.lengths import warm_up_length, warm_up_times
from companion.core.content.loader import PHASES, Content, slug
from companion.core.day import loops
from companion.core.day.actions import captured_ids, thank_you_sent

if TYPE_CHECKING:
    from sqlite_utils import Database

PHASE_TITLES = {
    "night-before": "Night before",
    "morning-of": "Morning of",
    "before-round": "Before each round",
    "after-loop": "After the loop",
}
#: what an item's ``link:`` opens, for labels and accessible names
LINK_LABELS = {name: action.label for name, action in CHECKLIST_ACTIONS.items()}


@dataclass(frozen=True)
class ChecklistItem:
    key: str
    text: str
    link: str = ""
    minutes_before: int | None = None
    why: str = ""
    after_midnight: bool = False  # leads the night-before list once midnight has passed
    first_round_only: bool = False  # before-round: the guide's morning items (`rounds: first`)
    day_only: bool = False  # morning-of: not before a round in the night (`at_night: skip`)
    warm_up: bool = False  # before-round: timed by the pack's warm-up length (`warm_up: yes`)


@dataclass(frozen=True)
class PhaseList:
    phase: str
    title: str
    intro: str
    items: tuple[ChecklistItem, ...]


@dataclass(frozen=True)
class Scope:
    """Where ticks are stored: a loop (0 = none), an interview day, a round (0 = none)."""

    loop_id: int
    day: str
    round_id: int = 0


def phase_lists(content: Content) -> list[PhaseList]:
    """One list per phase, in day order; a phase with several sections is merged."""
    lists = []
    for phase in PHASES:
        sections = content.checklist(phase)
        items: list[ChecklistItem] = []
        seen: set[str] = set()
        for section in sections:
            for item in section.items:
                key = f"{section.id}/{item.get('id') or slug(item.text)}"
                if key in seen:
                    continue
                seen.add(key)
                minutes = item.get("minutes_before")
                items.append(
                    ChecklistItem(
                        key=key,
                        text=item.text,
                        link=(item.get("link") or "").strip(),
                        minutes_before=int(minutes) if minutes and minutes.isdigit() else None,
                        why=item.get("why") or "",
                        after_midnight=item.get("after_midnight") == "first",
                        first_round_only=item.get("rounds") == "first",
                        day_only=item.get("at_night") == "skip",
                        warm_up=item.get("warm_up") == "yes",
                    )
                )
        if phase == "before-round":
            items = _warm_up_timed(items, warm_up_length(content))
        title = sections[0].title if len(sections) == 1 else PHASE_TITLES[phase]
        intro = "\n\n".join(s.intro for s in sections if s.intro)
        lists.append(PhaseList(phase, title, intro, tuple(items)))
    return lists


def _warm_up_timed(items: list[ChecklistItem], warm_up: int) -> list[ChecklistItem]:
    times = warm_up_times([(i.minutes_before, i.warm_up) for i in items], warm_up)
    return [replace(i, minutes_before=m) for i, m in zip(items, times, strict=True)]


def phase_list(content: Content, phase: str) -> PhaseList:
    for lst in phase_lists(content):
        if lst.phase == phase:
            return lst
    raise KeyError(phase)


def past_midnight(view) -> bool:
    """The night before, past the pack's night switch (the guide's 1 am) while a sleep
    still fits before the first round: the time of the sleep line."""
    window = view.sleep_window
    return view.phase == "night-before" and window is not None and window[0] <= view.now < window[1]


def first_round_of_day(view) -> bool:
    """Whether the round the before-round list is for (the focus) opens its day."""
    target = view.focus
    if target is None or target.starts_at is None:
        return True
    day = target.starts_at.astimezone(view.now.tzinfo).date()
    return not any(
        other.id != target.id
        and other.state != "skipped"
        and other.starts_at is not None
        and other.starts_at.astimezone(view.now.tzinfo).date() == day
        and other.starts_at < target.starts_at
        for other in view.rounds
    )


def for_moment(lst: PhaseList, view) -> PhaseList:
    """``lst`` as the moment calls for it: past the night switch the night-before list
    leads with its sleep line (the pack's ``after_midnight: first`` item), and drops it
    when no sleep fits before the round; before a later round of the day the
    before-round list drops the guide's morning items (``rounds: first``); before a round
    in the night the morning-of list drops what belongs to a morning (``at_night: skip``:
    the walk), so one run-up never says both "go to sleep" and "take a walk"."""
    if lst.phase == "before-round" and not first_round_of_day(view):
        return replace(lst, items=tuple(i for i in lst.items if not i.first_round_only))
    if lst.phase == "morning-of" and view.night_round:
        return replace(lst, items=tuple(i for i in lst.items if not i.day_only))
    if lst.phase == "night-before" and view.next is not None and view.sleep_window is None:
        return replace(lst, items=tuple(i for i in lst.items if not i.after_midnight))
    if lst.phase != "night-before" or not past_midnight(view):
        return lst
    first = tuple(i for i in lst.items if i.after_midnight)
    rest = tuple(i for i in lst.items if not i.after_midnight)
    return replace(lst, items=first + rest)


def steps_ticked(due, view, lst: PhaseList, checked: set[str]) -> bool:
    """Whether a before-round reminder (``due``) names only steps already ticked for its
    round, the view's focus: the steps are done, so no ping for them in the minutes whose
    first step asks to close whatever notifies. ``lst`` is the before-round list."""
    if due.kind != "before-round" or view.focus is None or due.round_id != view.focus.id:
        return False
    minutes = int(due.key.rsplit(":", 1)[1])  # the key ends with the step's offset
    steps = [i for i in for_moment(lst, view).items if i.minutes_before == minutes]
    return bool(steps) and all(i.key in checked for i in steps)


def step_now(items, start: dt.datetime | None, now: dt.datetime, checked: set[str]) -> str:
    """The key of the one before-round step to do now, for a round at ``start``: of the
    timed steps not ticked, the newest whose time has come (the step the latest reminder
    named), else the next to come; "" when every timed step is ticked."""
    if start is None:
        return ""
    timed = [
        (start - dt.timedelta(minutes=item.minutes_before), n, item)
        for n, item in enumerate(items)
        if item.minutes_before is not None and item.key not in checked
    ]
    due = [(at, -n, item) for at, n, item in timed if at <= now]
    if due:
        return max(due, key=lambda t: t[:2])[2].key
    later = [(at, n, item) for at, n, item in timed]
    return min(later, key=lambda t: t[:2])[2].key if later else ""


def checked_keys(db: Database, scope: Scope) -> set[str]:
    rows = db.execute(
        "SELECT item_key FROM checklist_checks WHERE loop_id = ? AND day = ? AND round_id = ?",
        [scope.loop_id, scope.day, scope.round_id],
    ).fetchall()
    return {row[0] for row in rows}


#: items whose tick follows the day rather than a click: "Write down every question"
#: is done once every round of the day is written down, "send ... a thank-you" once the
#: loop's note is marked sent in the Journal
DERIVED_LINKS = {name: a.ticks_when for name, a in CHECKLIST_ACTIONS.items() if a.ticks_when}


def day_checked(db: Database, scope: Scope, items, now: dt.datetime) -> set[str]:
    """The ticks of ``items`` in ``scope``: the stored ones, plus on the loop's lists (not
    a round's) the capture item (``link: journal-capture``) once every round of the
    scope's loop on its day, skipped ones aside, is written down, and the thank-you item
    (``link: thank-you``) once the loop's note is marked sent (both stayed unticked with
    the work done)."""
    checked = checked_keys(db, scope)
    derived = [i for i in items if i.link in DERIVED_LINKS and i.key not in checked]
    if not derived or not scope.loop_id or scope.round_id:
        return checked
    links = {i.link for i in derived}
    done = set()
    if "journal-capture" in links and _day_written_down(db, scope, now):
        done.add("journal-capture")
    if "thank-you" in links and thank_you_sent(db, scope.loop_id):
        done.add("thank-you")
    return checked | {i.key for i in derived if i.link in done}


def _day_written_down(db: Database, scope: Scope, now: dt.datetime) -> bool:
    day = []
    for rnd in loops.list_rounds(db, scope.loop_id):
        moment = rnd.started or rnd.scheduled
        if rnd.skipped_at or moment is None:
            continue
        if moment.astimezone(now.tzinfo).date().isoformat() == scope.day:
            day.append(rnd.id)
    return bool(day) and captured_ids(db, day) == set(day)


def set_checked(db: Database, scope: Scope, key: str, checked: bool, at: dt.datetime) -> None:
    if checked:
        db["checklist_checks"].upsert(
            {
                "loop_id": scope.loop_id,
                "day": scope.day,
                "round_id": scope.round_id,
                "item_key": key,
                "checked_at": at.isoformat(timespec="seconds"),
            },
            pk=("loop_id", "day", "round_id", "item_key"),
        )
    else:
        db.execute(
            "DELETE FROM checklist_checks WHERE loop_id = ? AND day = ? AND round_id = ? "
            "AND item_key = ?",
            [scope.loop_id, scope.day, scope.round_id, key],
        )


def reset(db: Database, scope: Scope, keys: list[str] | None = None) -> int:
    """Untick ``keys`` (all of the scope when None); returns how many ticks were removed."""
    where = "loop_id = ? AND day = ? AND round_id = ?"
    params: list = [scope.loop_id, scope.day, scope.round_id]
    if keys is not None:
        if not keys:
            return 0
        where += f" AND item_key IN ({', '.join('?' for _ in keys)})"
        params += list(keys)
    with db.atomic():
        count = db.execute(
            f"SELECT COUNT(*) FROM checklist_checks WHERE {where}", params
        ).fetchone()[0]
        db.execute(f"DELETE FROM checklist_checks WHERE {where}", params)
    return count


def new_day(db: Database, loop_id: int, day: str) -> int:
    """Start the day's lists afresh: untick every phase (and every round's list) of ``day``."""
    with db.atomic():
        count = db.execute(
            "SELECT COUNT(*) FROM checklist_checks WHERE loop_id = ? AND day = ?", [loop_id, day]
        ).fetchone()[0]
        db.execute("DELETE FROM checklist_checks WHERE loop_id = ? AND day = ?", [loop_id, day])
    return count


def progress(
    items: tuple[ChecklistItem, ...] | list[ChecklistItem], checked: set[str]
) -> tuple[int, int]:
    """(done, total) for a list."""
    return sum(1 for item in items if item.key in checked), len(items)


def day_loops(view) -> list:
    """The loops with a round on the view's interview day, in the order their first
    rounds come there."""
    on_day = sorted(
        (
            d
            for d in view.rounds
            if d.starts_at is not None
            and d.starts_at.astimezone(view.now.tzinfo).date() == view.day
        ),
        key=lambda d: (d.starts_at, d.id),
    )
    loops = []
    for d in on_day:
        loop = view.loop_of(d.id)
        if loop is not None and loop not in loops:
            loops.append(loop)
    return loops


def scope_for(phase: str, view) -> Scope:
    """Where ``phase``'s ticks live in ``view`` (a :class:`companion.core.day.model.DayView`):
    the loop and interview day, and for the before-round list also the round it is for
    (the running one, else the next). The night before and the morning of are the
    candidate's, one per day however many loops share it: kept under the loop of the
    day's first round (a tick made in the morning for Northwind's onsite was gone from
    the list once Cobalt's screen came next). The before-round list is the focus round's
    loop's, the after-loop list the loop that is over."""
    day = view.day.isoformat()
    target = view.focus
    loop_id = view.loop_id
    first = day_loops(view)[:1]
    if phase == "after-loop" and view.after_loop_id:
        # the loop that is over, on its own day: with another loop's round next its list
        # was kept under that loop (a tick at 15:00 for Northwind landed on Cobalt's)
        return Scope(view.after_loop_id, (view.after_loop_day or view.day).isoformat())
    if phase in ("night-before", "morning-of") and first:
        loop_id = first[0].id
    elif target is not None and target.round.loop_id and phase != "after-loop":
        loop_id = target.round.loop_id
    if phase == "before-round" and target is not None:
        return Scope(loop_id, day, target.id)
    return Scope(loop_id, day)
