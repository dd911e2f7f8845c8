"""The day's numbers, read from the content packs (one source of truth): round titles
and lengths, the before-round steps and their offsets, the capture window, the
thank-you delay and the reminder texts. Their fallbacks live in
:mod:`companion.core.content.plans` and apply only when a pack leaves a value out."""

from __future__ import annotations

import datetime as dt

from companion.core.content.lengths import type_lengths
from companion.core.content.loader import Content
from companion.core.day.checklist import phase_list
from companion.core.day.model import BeforeItem, DayRules


def day_rules(content: Content) -> DayRules:
    titles = content.round_titles()
    # the list's timed steps, the warm-up timed by the pack's warm-up length
    timed = [i for i in phase_list(content, "before-round").items if i.minutes_before is not None]
    before = tuple(
        BeforeItem(i.minutes_before, i.text, i.first_round_only) for i in timed
    ) or tuple(
        BeforeItem(s.minutes, s.text, s.first_round_only) for s in content.before_round_steps()
    )
    sleep, sleep_why = content.sleep_line()
    widest = max((b.minutes for b in before), default=15)
    night_from, margin = night_rules(content)
    return DayRules(
        titles=titles,
        lengths=type_lengths(content),
        default_minutes=content.round_defaults().minutes,
        before=before,
        before_window=dt.timedelta(minutes=widest),
        capture_window=content.capture_window,
        thank_you_after=content.thank_you_after,
        night_from=night_from,
        sleep_margin=margin,
        texts={
            phase: content.reminder_text(phase)
            for phase in ("night-before", "morning-of", "after-loop")
        }
        | {"sleep": sleep, "sleep-why": sleep_why, "start-soon": content.start_soon_text()},
    )


FALLBACK_NIGHT_FROM = dt.time(1, 0)  # the guide: "a chapter read at 1am costs more…"
FALLBACK_SLEEP_MARGIN = dt.timedelta(minutes=90)


def night_rules(content: Content) -> tuple[dt.time, dt.timedelta]:
    """The night-before list's ``night_from:`` (the time of night from which its sleep
    line leads, "01:00") and ``sleep_margin:`` (minutes a sleep needs before the first
    round, else no sleep line is given at all); the guide's when a pack leaves them out."""
    meta = next((s.meta for s in content.checklist("night-before")), {})
    try:
        night_from = dt.time.fromisoformat(meta.get("night_from", "").strip())
    except ValueError:
        night_from = FALLBACK_NIGHT_FROM
    margin = meta.get("sleep_margin", "").strip()
    minutes = int(margin) if margin.isdigit() and 0 < int(margin) <= 720 else None
    return night_from, dt.timedelta(minutes=minutes) if minutes else FALLBACK_SLEEP_MARGIN
