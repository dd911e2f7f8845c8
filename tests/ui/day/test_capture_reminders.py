"""The "write it down" reminders as the day service sends them through a loop of three
rounds that are ended and never written down: none beside the capture that End opens,
and at each later break one notification, for the rounds still unwritten."""

from __future__ import annotations

import datetime as dt

from companion.core.day.loops import add_round, create_loop
from companion.ui.bus import AppBus
from companion.ui.day.notifier import Notifier
from companion.ui.day.service import DayService


def _write_it_down(notifier: Notifier, since: int) -> list[tuple[str, str]]:
    return [(title, body) for _ch, title, body in notifier.sent[since:] if "write it down" in title]


def test_end_sends_no_reminder_beside_its_capture_and_each_break_sends_one(ctx, clock, qapp):
    start = clock.now()
    loop = create_loop(ctx.db, "Acme", "SRE", starts_on=start.date().isoformat())
    ids = [
        add_round(ctx.db, loop, kind, scheduled_at=start + dt.timedelta(hours=n, minutes=30))
        for n, kind in enumerate(("coding", "design", "behavioral"))
    ]
    bus = AppBus()
    notifier = Notifier(bus, fallback=lambda title, text: None)
    day = DayService(ctx, bus, notifier, bus)
    opened: list[int] = []
    bus.capture_round.connect(opened.append)
    titles = []
    at_each_end = []
    for n, round_id in enumerate(ids):
        clock.set(start + dt.timedelta(hours=n, minutes=30))
        day.start_round(round_id=round_id)
        clock.advance(minutes=45)
        before = len(notifier.sent)
        day.end_round(round_id)
        titles.append(day.view.round(round_id).title)
        at_each_end.append(_write_it_down(notifier, before))
    assert opened == ids  # each End opened its capture

    first, second, third = at_each_end
    assert first == [], "the capture is on screen: no reminder of it"
    assert [t for t, _b in second] == [f"{titles[0]} ({_clock(start, 0)}): write it down"]
    assert len(third) == 1, "one notification at a break, not one per round"
    title, body = third[0]
    assert title == f"{titles[1]} ({_clock(start, 1)}): write it down"
    assert body.endswith(f"Not written down yet either: {titles[0]} ({_clock(start, 0)}).")


def _clock(start: dt.datetime, hours: int) -> str:
    return (start + dt.timedelta(hours=hours, minutes=30)).strftime("%H:%M")
