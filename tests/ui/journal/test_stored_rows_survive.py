"""Rows already stored with dates the app cannot show (year 1, year 9999, garbage) must
not break Today or Journal: the import now refuses them, but older databases hold them.
A day that cannot be computed at all says so on the status line and in the log."""

from __future__ import annotations

import logging

import pytest

from companion.core.day.loops import add_round, create_loop

pytestmark = pytest.mark.gui


@pytest.fixture
def hostile(db):
    loop = create_loop(db, "Acme", "SRE", starts_on="2026-12-01")
    rid = add_round(db, loop, "coding")
    db.execute(
        "UPDATE rounds SET started_at = '0001-01-01T00:00:00', ended_at = '0001-01-01T00:00:00', "
        "scheduled_at = '9999-12-31T23:59:59' WHERE id = ?",
        [rid],
    )
    other = add_round(db, loop, "design")
    db.execute("UPDATE rounds SET started_at = 'not a date' WHERE id = ?", [other])
    return loop


@pytest.fixture
def status(bus):
    said: list[str] = []
    bus.status_message.connect(said.append)
    return said


def _today(qtbot, ctx, bus, day_service):
    from companion.ui.today.page import TodayPage

    page = TodayPage(ctx, bus, day=day_service)
    qtbot.addWidget(page)
    page.show()
    page.on_shown()
    qtbot.waitUntil(lambda: page._built)
    page.on_shown()
    return page


def test_today_survives(qtbot, ctx, bus, day_service, hostile, status, caplog):
    with caplog.at_level(logging.ERROR):
        page = _today(qtbot, ctx, bus, day_service)
    # the day was computed from those rows: the loop shows, no error was swallowed
    assert [r.message for r in caplog.records] == [] and status == []
    assert page.view is not None and page.view.loop_id == hostile
    assert page.headline.text() == "Today · Acme · SRE"
    assert len(page.view.rounds) == 2
    assert page.schedule.tree.topLevelItemCount() == 2


def test_a_day_that_cannot_be_computed_says_so(
    qtbot, ctx, bus, day_service, hostile, status, caplog
):
    ctx.db.execute("DROP TABLE thank_yous")  # a journal the day cannot be read from
    with caplog.at_level(logging.ERROR):
        _today(qtbot, ctx, bus, day_service)
    assert any("could not compute the day" in r.message for r in caplog.records)
    assert status and status[0].startswith("The day could not be computed from the journal:")
    assert "thank_yous" in status[0] and "\n" not in status[0]


def test_journal_survives(qtbot, ctx, bus, day_service, hostile):
    from companion.ui.journal.page import JournalPage

    page = JournalPage(ctx, bus, day=day_service)
    qtbot.addWidget(page)
    page.show()
    page.refresh()
    assert [lp.id for lp in page.loop_list.model.loops] == [hostile]
    assert page.current_loop_id == hostile
    assert page.right.currentWidget() is not page.empty
    rounds = [g.round.type for g in page.rounds.model.groups if g.round is not None]
    assert sorted(rounds) == ["coding", "design"]
