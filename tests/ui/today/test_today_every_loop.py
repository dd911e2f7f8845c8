"""Today with several loops: a loop picked in the loop box (or just added) orders what
the page shows first; another loop's reminders still go out and its round is still
"now" on the page (the issue: picking next week's loop sent 0 of 22 reminders and said
"Nothing to tick right now" ten minutes before a round)."""

from __future__ import annotations

import datetime as dt

import pytest
from scripted_calendar import DAY, book, local

pytestmark = pytest.mark.gui


@pytest.fixture
def page(qtbot, ctx, bus, day_service, clock):
    from companion.ui.today.page import TodayPage

    clock.set(local(DAY, 9, 30))
    booked = book(ctx.db)
    page = TodayPage(ctx, bus, day=day_service)
    qtbot.addWidget(page)
    page.resize(800, 900)
    page.show()
    page.on_shown()
    qtbot.waitUntil(lambda: page._built)
    return page, booked


def _pick(page, loop_id: int) -> None:
    combo = page.loop_combo
    combo.setCurrentIndex(combo.findData(loop_id))
    combo.activated.emit(combo.currentIndex())  # as a user's choice arrives


def test_picking_another_loop_keeps_this_loops_reminders(page, day_service, clock):
    page, booked = page
    sent = day_service.notifier.sent
    _pick(page, booked["Driftwood"][0])  # next week's loop, picked on Today
    assert page.headline.text() == "Today · Driftwood · ML infra"
    assert page.schedule.loop_id == booked["Driftwood"][0]  # its schedule shown first
    clock.set(local(DAY, 9, 45))
    day_service.refresh()  # the day's timer fires
    titles = [title for _ch, title, _body in sent]
    assert any(t.startswith("Northwind · Coding round") and "15 min" in t for t in titles), titles
    assert page.now_box.title() == "Now: before the round"
    assert "Northwind · Coding round at 10:00" in page.now_label.text()
    # at 10:20 the running round is shown, whatever loop is picked
    clock.set(local(DAY, 10, 20))
    day_service.refresh()
    assert page.now_box.title() == "Now: in the round"
    assert page.now_label.text().startswith("Northwind · Coding round")
    assert "notifications come back" not in page.now_label.text()  # nothing was paused


def test_a_loop_added_on_today_mutes_nothing(page, day_service, clock):
    page, _booked = page
    sent = day_service.notifier.sent
    page.create_loop("Globex", "SRE", (DAY + dt.timedelta(days=20)).isoformat())
    assert page.headline.text() == "Today · Globex · SRE"
    clock.set(local(DAY, 15, 50))
    day_service.refresh()
    assert any(t.startswith("Cobalt · ") for _ch, t, _b in sent)
    _pick(page, 0)  # "All loops" again
    assert page.day.shown_loop == 0
    assert page.headline.text().startswith("Today · Cobalt")
