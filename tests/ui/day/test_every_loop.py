"""Issue 61's scripted calendar walked minute by minute through the real day service
(``companion.ui.day.service.DayService``) with its real notifier: no notification
daemon is on the test's bus, so each notification takes the notifier's own path to its
last fallback (the window's status bar), and ``Notifier.sent`` records what was sent.

Three companies: two the same day (back-to-back rounds), one the next week at 02:00. A
loop picked on Today (the next week's, as the issue's walk did) changes nothing sent."""

from __future__ import annotations

import datetime as dt

import pytest
from scripted_calendar import (
    DAY,
    NEXT_WEEK,
    WALKS,
    book,
    inside_a_round,
    local,
    spans,
)

from companion.core.day.checklist import for_moment, past_midnight, phase_list
from companion.ui.bus import AppBus
from companion.ui.day.notifier import Notifier
from companion.ui.day.service import DayService

pytestmark = pytest.mark.xdist_group("every_loop")


class Clock:
    """The app's clock, set by hand (the context asks it for ``now``)."""

    def __init__(self, moment: dt.datetime):
        self.moment = moment

    def now(self) -> dt.datetime:
        return self.moment

    __call__ = now

    def set(self, moment: dt.datetime) -> None:
        self.moment = moment


@pytest.fixture(scope="module")
def walked(qapp, tmp_path_factory):
    """The calendar booked, the next week's loop picked on Today, every minute of both
    interview days walked (once for the module: ~5,000 minutes): (sent [(moment, title,
    body)], said [(moment, day, word)], the service, the booked ids)."""
    from companion.core.context import AppContext

    folder = tmp_path_factory.mktemp("every_loop")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("COMPANION_HOME", str(folder))
        clock = Clock(WALKS[0][0])
        ctx = AppContext(folder, clock=clock)
        try:
            yield _walk(ctx, clock)
        finally:
            ctx.close()


def _walk(ctx, clock):
    booked = book(ctx.db)
    bus = AppBus()
    notifier = Notifier(bus, fallback=lambda title, text: None)
    day = DayService(ctx, bus, notifier, bus)
    day.choose_loop(booked["Driftwood"][0])  # the issue: a loop picked mutes no other
    lists = {p: phase_list(ctx.content, p) for p in ("night-before", "morning-of")}
    sent, said = [], []
    for start, end in WALKS:
        moment = start
        while moment <= end:
            clock.set(moment)
            before = len(notifier.sent)
            view = day.refresh()
            sent += [(moment, title, body) for _ch, title, body in notifier.sent[before:]]
            if view.phase in lists:  # what Today's list of the moment says
                items = for_moment(lists[view.phase], view).items
                if past_midnight(view) and items[0].text == "Go to sleep":
                    said.append((moment, view.day, "sleep"))
                if view.phase == "morning-of" and any("walk" in i.text for i in items):
                    said.append((moment, view.day, "walk"))
            moment += dt.timedelta(minutes=1)
    for moment, title, body in sent:
        words = f"{title} {body}".lower()
        day_of = (moment + dt.timedelta(hours=12)).date()  # the run-up's interview day
        if "go to sleep" in words:
            said.append((moment, day_of, "sleep"))
        if "walk" in words:
            said.append((moment, day_of, "walk"))
    return sent, said, day, booked


def _about(sent, words: str) -> list:
    return [(m, t, b) for m, t, b in sent if words in t or words in b]


def test_every_round_of_every_loop_gets_its_reminders(walked):
    sent, *_ = walked
    # the same day's rounds are named with their company (two loops share the day)
    northwind = [m for m, t, _b in sent if t.startswith("Northwind · ")]
    cobalt = [m for m, t, _b in sent if t.startswith("Cobalt · ")]
    assert northwind and cobalt
    for company, start, _end in spans():
        before = [
            (m, t)
            for m, t, _b in sent
            if company in t and start - dt.timedelta(minutes=16) < m <= start
        ]
        assert before, f"{company} at {start:%a %H:%M} had no reminder before it"
    # the back-to-back round: its steps fell inside the first round and were dropped; its
    # start goes out at the break, which is its start
    design = [t for m, t, _b in sent if m == local(DAY, 10, 45) and "design" in t.lower()]
    assert design and "starts now" in design[0], design
    # every round is written down: each named in a "write it down" notification
    captures = " ".join(f"{t} {b}" for _m, t, b in sent if "write it down" in t)
    for name in ("Coding round (10:00)", "System design round (10:45)", "Hiring manager"):
        assert name in captures, (name, captures)
    assert "Cobalt" in captures and "(02:00)" in captures
    # and the evening before each interview day
    evenings = [t for m, t, _b in sent if t.startswith("Tomorrow: first round")]
    assert evenings == [
        "Tomorrow: first round at 10:00 (Northwind)",
        "Tomorrow: first round at 02:00 (Driftwood)",
    ]


def test_no_notification_while_another_round_runs(walked):
    sent, *_ = walked
    inside = [(f"{m:%a %H:%M}", t) for m, t, _b in sent if inside_a_round(m)]
    assert inside == []


def test_every_thank_you_is_sent_once(walked):
    sent, *_ = walked
    thanks = [(m, t) for m, t, _b in sent if t.startswith("Thank-you note")]
    assert sorted(t for _m, t in thanks) == [
        "Thank-you note: Cobalt",
        "Thank-you note: Driftwood",
        "Thank-you note: Northwind",
    ]
    # Northwind's went out the next day although Cobalt's loop was the day's last
    (northwind,) = [m for m, t in thanks if t.endswith("Northwind")]
    assert northwind.date() == DAY + dt.timedelta(days=1)
    assert len({(t, b) for _m, t, b in sent}) == len(sent)  # nothing sent twice


def test_no_run_up_says_sleep_and_walk(walked):
    _sent, said, *_ = walked
    by_day: dict = {}
    for moment, day_of, word in said:
        by_day.setdefault(day_of, []).append((moment, word))
    for day_of, words in by_day.items():
        sleeps = [m for m, w in words if w == "sleep"]
        walks = [m for m, w in words if w == "walk"]
        morning = local(day_of, 5)
        # a walk only in the morning, after any sleep line: never in the same night
        assert all(m >= morning for m in walks), (day_of, walks[:3])
        assert not sleeps or not walks or max(sleeps) < min(walks), day_of
    # the 02:00 round: neither a sleep line nor a walk in its whole run-up
    assert not by_day.get(NEXT_WEEK), by_day.get(NEXT_WEEK)[:5]
    # the 10:00 day: the sleep line from 01:00 (the pack's night switch), the walk at 05:00
    first = by_day[DAY]
    assert min(m for m, w in first if w == "sleep") == local(DAY, 1)
    assert min(m for m, w in first if w == "walk") == local(DAY, 5)
