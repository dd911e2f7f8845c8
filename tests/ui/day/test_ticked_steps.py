"""A before-round step ticked ahead of its time sends no reminder: the minutes before a
round pinged once per step (six times before the first round of the day) whether or not
the step was done, while the first step asked to close whatever notifies."""

from __future__ import annotations

import datetime as dt

from scripted_calendar import DAY, book, local

from companion.core.day import checklist as cl
from companion.ui.bus import AppBus
from companion.ui.day.notifier import Notifier
from companion.ui.day.service import DayService


def test_a_ticked_step_sends_no_reminder_and_the_next_one_still_goes(ctx, clock, qapp):
    clock.set(local(DAY, 9, 40))
    book(ctx.db)
    bus = AppBus()
    notifier = Notifier(bus, fallback=lambda title, text: None)
    day = DayService(ctx, bus, notifier, bus)
    sent = []

    def walk(until: dt.datetime) -> None:
        while clock.now() < until:
            clock.set(clock.now() + dt.timedelta(minutes=1))
            before = len(notifier.sent)
            day.refresh()
            sent.extend(f"{clock.now():%H:%M} {t}" for _ch, t, _b in notifier.sent[before:])

    walk(local(DAY, 9, 46))  # the 15-minute step went out
    assert sent[-1] == "09:45 Northwind · Coding round in 15 min (10:00)"
    sent.clear()
    view = day.view
    water = next(
        i for i in cl.phase_list(ctx.content, "before-round").items if i.text.startswith("Water")
    )
    cl.set_checked(ctx.db, cl.scope_for("before-round", view), water.key, True, view.now)
    walk(local(DAY, 9, 53))
    # no "in 10 min" (water, ticked); the warm-up at 8 min still goes
    assert sent == ["09:52 Northwind · Coding round in 8 min (10:00)"]
