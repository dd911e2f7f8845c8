"""The day's numbers, read from the content packs (one source of truth): round titles
and lengths, the before-round steps and their offsets, the capture window, the
thank-you delay and the reminder texts. Their fallbacks live in
:mod:`companion.core.content.plans` and apply only when a pack leaves a value out."""

from __future__ import annotations

import datetime as dt

from companion.core.content.loader import Content
from companion.core.day.lengths import type_lengths
from companion.core.day.model import BeforeItem, DayRules


def day_rules(content: Content) -> DayRules:
    titles = content.round_titles()
    before = tuple(
        BeforeItem(s.minutes, s.text, s.first_round_only) for s in content.before_round_steps()
    )
    sleep, sleep_why = content.sleep_line()
    widest = max((b.minutes for b in before), default=15)
    return DayRules(
        titles=titles,
        lengths=type_lengths(content),
        default_minutes=content.round_defaults().minutes,
        before=before,
        before_window=dt.timedelta(minutes=widest),
        capture_window=content.capture_window,
        thank_you_after=content.thank_you_after,
        texts={
            phase: content.reminder_text(phase)
            for phase in ("night-before", "morning-of", "after-loop")
        }
        | {"sleep": sleep, "sleep-why": sleep_why, "start-soon": content.start_soon_text()},
    )
