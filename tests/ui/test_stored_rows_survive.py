"""Rows already stored with dates the app cannot show (year 1, year 9999, garbage) must
not break Today or Journal: the import now refuses them, but older databases hold them."""

from __future__ import annotations

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


def test_today_survives(qtbot, ctx, bus, hostile):
    from companion.ui.today.page import TodayPage

    page = TodayPage(ctx, bus)
    qtbot.addWidget(page)
    page.show()
    page.on_shown()
    qtbot.waitUntil(lambda: page._built)
    page.on_shown()


def test_journal_survives(qtbot, ctx, bus, hostile):
    from companion.ui.journal.page import JournalPage

    page = JournalPage(ctx, bus)
    qtbot.addWidget(page)
    page.show()
    page.refresh()
