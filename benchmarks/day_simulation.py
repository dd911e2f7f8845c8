"""A simulated 12-hour interview day on a controllable clock, run by the test suite (every
reminder once, no exception) and by ``bench_day.py`` (memory over the day).

From 07:00 to 19:00, minute by minute, the day service recomputes the day (its real timer
would wake less often: this is a superset), the Today and Checklist pages render it, and
six rounds are started and ended, alternately from the cue card and from Today, each
with do-not-disturb paused and restored, and a capture written after it. While a round
runs, the card's countdown ticks every second.
"""

from __future__ import annotations

import datetime as dt
import gc
import os
import tempfile
from collections import Counter
from pathlib import Path

TZ = dt.timezone(dt.timedelta(hours=1))
DAY = dt.date(2026, 12, 2)
STARTS = [(8, 0), (9, 30), (11, 0), (13, 0), (14, 30), (16, 0)]
ROUND_TYPES = ["hiring-manager", "design", "coding", "design", "coding", "hiring-manager"]
LENGTH_MIN = 40  # ended by hand after 40 minutes


class Clock:
    def __init__(self, start: dt.datetime):
        self.now = start

    def __call__(self) -> dt.datetime:
        return self.now


class FakeGsettings:
    """Stands in for the desktop's notification switch (a command we run, not our code)."""

    def __init__(self):
        self.banners = True

    def __call__(self, argv):
        from companion.core.dnd.base import CommandResult

        if argv[1] == "get":
            return CommandResult(0, "true\n" if self.banners else "false\n")
        self.banners = argv[-1] == "true"
        return CommandResult(0)


def _rss_mib() -> float:
    pages = int(Path("/proc/self/statm").read_text().split()[1])
    return pages * os.sysconf("SC_PAGE_SIZE") / (1024 * 1024)


def _census() -> Counter:
    gc.collect()
    return Counter(type(o).__name__ for o in gc.get_objects())


def simulate(
    folder: Path | None = None, *, measure: bool = False, card_ticks_per_minute: int = 60
) -> dict:
    """``card_ticks_per_minute``: the card's countdown ticks in each minute of a round (60,
    one a second, as the card runs; the tests take fewer: the renders were most of the
    simulation's CPU, and what they check is the day, not each second's redraw)."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    with tempfile.TemporaryDirectory(prefix="day-sim-") as tmp:
        return _simulate(Path(folder or tmp), measure, card_ticks_per_minute)


def _simulate(folder: Path, measure: bool, card_ticks_per_minute: int = 60) -> dict:
    from PySide6.QtCore import QCoreApplication, QEvent
    from PySide6.QtWidgets import QApplication

    from companion.core.changes import Change
    from companion.core.context import AppContext
    from companion.core.day.loops import add_round, create_loop
    from companion.core.dnd.adapters import GnomeAdapter
    from companion.core.dnd.controller import DndController
    from companion.core.dnd.record import record_path
    from companion.core.journal.entries import add_asked
    from companion.ui.bus import AppBus
    from companion.ui.day.notifier import Notifier
    from companion.ui.day.service import DayService
    from companion.ui.dnd.switch import DndModel

    app = QApplication.instance() or QApplication(["day-simulation"])
    clock = Clock(dt.datetime.combine(DAY, dt.time(7, 0), TZ))
    ctx = AppContext(folder / "data", clock=clock)
    loop = create_loop(ctx.db, "Acme", "SRE", starts_on=DAY.isoformat())
    round_ids = [
        add_round(ctx.db, loop, rtype, scheduled_at=dt.datetime.combine(DAY, dt.time(h, m), TZ))
        for (h, m), rtype in zip(STARTS, ROUND_TYPES)
    ]
    bus = AppBus()
    sent: list[tuple[str, str]] = []
    notifier = Notifier(bus, fallback=lambda title, text: sent.append((title, text)))
    day = DayService(ctx, bus, notifier, bus)
    desk = FakeGsettings()
    dnd = DndModel(
        ctx,
        bus,
        controller=DndController(GnomeAdapter(desk), record_path(ctx.data_dir), clock=clock),
    )
    captures: list[int] = []
    bus.capture_round.connect(captures.append)

    from companion.ui.checklist.page import ChecklistPage
    from companion.ui.cue.window import open_cue_card
    from companion.ui.today.page import TodayPage

    today = TodayPage(ctx, bus, day=day)
    today.resize(800, 900)
    today.show()
    today.on_shown()
    checklist = ChecklistPage(ctx, bus, day=day)
    card = open_cue_card(ctx, bus, day, None)
    day.start()
    app.processEvents()

    ticks = 0
    first_hour: tuple[float, Counter] | None = None
    seen: list[dict] = []  # what each page showed a minute into, and just before, each round

    def look(moment: str, n: int) -> None:
        group = checklist.groups.get("before-round")
        seen.append(
            {
                "at": moment,
                "round": n,
                "phase": day.view.phase,
                "today": today.now_box.title(),
                "checklist_now": group.title() if group is not None else "",
                "card_type": card.current.id if card.current else "",
                "card_running": card.running,
            }
        )

    end = dt.datetime.combine(DAY, dt.time(19, 0), TZ)
    while clock.now < end:
        clock.now += dt.timedelta(minutes=1)
        ticks += 1
        minute = clock.now.replace(tzinfo=TZ)
        for n, ((h, m), rid) in enumerate(zip(STARTS, round_ids)):
            start = dt.datetime.combine(DAY, dt.time(h, m), TZ)
            if minute == start:
                if n % 2:
                    today.start_round(rid)
                else:
                    card.toggle_round()  # the card shows the round that is due
                dnd.set_on(True, round_id=rid)
            elif minute == start + dt.timedelta(minutes=LENGTH_MIN):
                if n % 2:
                    today.finish_round(rid)
                else:
                    card.toggle_round()
            elif minute == start + dt.timedelta(minutes=LENGTH_MIN + 5):
                add_asked(ctx.db, loop, rid, "What would you shard first?", topic="sharding")
                bus.announce(Change.of("capture", ids=[rid]))  # as the capture does
        day.refresh()
        for n, (h, m) in enumerate(STARTS):
            start = dt.datetime.combine(DAY, dt.time(h, m), TZ)
            if minute == start - dt.timedelta(minutes=5):
                app.processEvents()
                look("before", n)
            elif minute == start + dt.timedelta(minutes=1):
                app.processEvents()
                look("during", n)
        view = day.view
        if view.current is not None and card.isVisible():
            for _second in range(card_ticks_per_minute):  # the card's countdown
                card.tick()
                ticks += 1
        app.processEvents()
        # as the running event loop does: widgets given up with deleteLater() go now
        QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
        # warm-up: the first round has run and ended, every kind of work has been done once
        if first_hour is None and clock.now >= dt.datetime.combine(DAY, dt.time(9, 0), TZ):
            first_hour = (_rss_mib(), _census() if measure else Counter())
    app.processEvents()
    # "Round over" is said once per round; every other notification names its round
    said = [pair for pair in sent if pair[0] != "Round over"]
    result = {
        "reminders": len(sent),
        "duplicates": sorted({p for p in said if said.count(p) > 1}),
        "round_over": sum(1 for title, _ in sent if title == "Round over"),
        "captures": captures,
        "rounds": len(round_ids),
        "round_ids": round_ids,
        "ticks": ticks,
        "dnd_restored": desk.banners,
        "seen": seen,
        "types": ROUND_TYPES,
        "phase": day.view.phase,
    }
    if measure and first_hour is not None:
        rss0, census0 = first_hour
        census1 = _census()
        grown = {
            kind: census1[kind] - census0[kind]
            for kind in census1
            if census1[kind] - census0[kind] > 200
        }
        result["rss_growth_mib"] = _rss_mib() - rss0
        result["growing_types"] = grown
    card.close()
    today.close()
    checklist.close()
    day.shutdown()
    ctx.close()
    return result
