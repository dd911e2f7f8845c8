"""The Journal follows the day: it opens on today's loop (not the newest-dated one), its
Capture… means the round that just ended, and a loop's status follows its rounds."""

from __future__ import annotations

import datetime as dt

import pytest

from companion.core.day.loops import add_round, create_loop, end_round, start_round, update_loop

pytestmark = pytest.mark.gui


def _page(qtbot, ctx, bus, day_service):
    from companion.ui.journal.page import JournalPage

    page = JournalPage(ctx, bus, day=day_service)
    qtbot.addWidget(page)
    page.refresh()
    return page


@pytest.fixture
def today_and_later(ctx, clock):
    today = clock.now().date()
    acme = create_loop(ctx.db, "Acme", starts_on=today.isoformat())
    now = clock.now()
    first = start_round(ctx.db, "coding", now - dt.timedelta(hours=2), loop_id=acme)
    end_round(ctx.db, first, now - dt.timedelta(hours=1, minutes=15))
    second = start_round(ctx.db, "design", now - dt.timedelta(minutes=50), loop_id=acme)
    end_round(ctx.db, second, now - dt.timedelta(minutes=5))
    later = create_loop(ctx.db, "Globex", starts_on=(today + dt.timedelta(days=9)).isoformat())
    add_round(ctx.db, later, "coding", scheduled_at=now + dt.timedelta(days=9))
    return acme, first, second, later


def test_the_journal_opens_on_todays_loop(qtbot, ctx, bus, day_service, today_and_later):
    acme, _first, _second, later = today_and_later
    page = _page(qtbot, ctx, bus, day_service)
    assert page.loop_list.model.loops[0].id == later  # the newest-dated loop is listed first
    assert page.current_loop_id == acme  # but the page is on today's


def test_the_journal_opens_on_the_loop_the_day_is_about(
    qtbot, ctx, bus, day_service, clock, today_and_later
):
    acme, _first, _second, _later = today_and_later
    earlier = create_loop(ctx.db, "Initech", starts_on="2026-11-20")
    day_service.choose_loop(earlier)  # picked on Today: shown first there, not the day's
    day_service.refresh()
    assert _page(qtbot, ctx, bus, day_service).current_loop_id == acme


def test_capture_means_the_round_that_just_ended(qtbot, ctx, bus, day_service, today_and_later):
    _acme, _first, second, _later = today_and_later
    day_service.refresh()
    page = _page(qtbot, ctx, bus, day_service)
    with qtbot.waitSignal(bus.capture_round) as got:
        page.capture_selected()
    assert got.args == [second]  # not the loop's first round, nor a future loop's


def test_a_loops_status_follows_its_rounds(qtbot, ctx, bus, day_service, clock, today_and_later):
    acme, _first, _second, later = today_and_later
    page = _page(qtbot, ctx, bus, day_service)
    status = {lp.id: lp.status for lp in page.loop_list.model.loops}
    assert status == {acme: "done", later: "planned"}  # both stored as "planned"
    assert page.header.title.text().endswith("· done")
    add_round(ctx.db, acme, "hiring-manager", scheduled_at=clock.now() + dt.timedelta(hours=1))
    update_loop(ctx.db, later, status="offer")  # an outcome the user chose stays
    page.refresh()
    status = {lp.id: lp.status for lp in page.loop_list.model.loops}
    assert status == {acme: "in progress", later: "offer"}
    assert page.header.title.text().endswith("· in progress")


def test_marking_the_thank_you_sent_announces_one_change(
    qtbot, ctx, bus, day_service, today_and_later
):
    acme, *_rest = today_and_later
    page = _page(qtbot, ctx, bus, day_service)
    seen = []
    bus.changed.connect(seen.append)
    page.thank_you.sent.click()
    assert [(c.kinds, c.ids, c.origin) for c in seen] == [
        (frozenset({"thank-you"}), frozenset({acme}), page.thank_you)
    ]
