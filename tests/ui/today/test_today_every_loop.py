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
    combo = page.loops.combo
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
    assert "Northwind · Coding round at 10:00" in page.now_box.label.text()
    # at 10:20 the running round is shown, whatever loop is picked
    clock.set(local(DAY, 10, 20))
    day_service.refresh()
    assert page.now_box.title() == "Now: in the round"
    assert page.now_box.label.text().startswith("Northwind · Coding round")
    assert "notifications come back" not in page.now_box.label.text()  # nothing was paused


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


def _buttons(page) -> dict:
    found = page.now_box.findChildren(type(page.loops.add_button))
    return {b.text().replace("&", ""): b for b in found}


def test_one_step_at_a_time_before_another_loops_round(page, day_service, clock):
    """Northwind picked on Today; ten minutes before Cobalt's screen the page marks
    Cobalt's step due now and shows it alone, and offers do-not-disturb although the
    round is not the day's first."""
    page, booked = page
    _pick(page, booked["Northwind"][0])
    clock.set(local(DAY, 15, 50))
    day_service.refresh()
    assert page.now_box.title() == "Now: before the round"
    assert page.now_box.label.text().startswith("Cobalt · Peer")
    group = page.phase_group
    items = {i.key: i for i in group.phase_list.items}
    assert items[group.step_key].text.startswith("Water within reach")
    assert group.when_labels[group.step_key].text().endswith("now")
    shown = [k for k in items if not group.boxes[k].isHidden()]
    assert shown == [group.step_key] and not group.fold_button.isHidden()
    _buttons(page)["Do not disturb"].click()  # no desktop to pause here: it says how
    assert page.now_box.dialog.windowTitle() == "Do not disturb" and page.now_box.dialog.isVisible()
    page.now_box.dialog.close()
    sent = [t for _ch, t, _b in day_service.notifier.sent]
    assert any(t.startswith("Cobalt · ") for t in sent), sent


def test_a_double_clicks_tail_starts_no_round_of_another_loop(qtbot, page, day_service, clock):
    """Northwind's last round ends at 14:45 and a round of Cobalt's follows at 14:50: the
    second click of a double click on "Round finished" lands on "Start it now" in the
    same place and must not start Cobalt's round; a deliberate click does."""
    from PySide6.QtCore import Qt

    from companion.core.day.loops import add_round, get_round

    page, booked = page
    cobalt = add_round(page.ctx.db, booked["Cobalt"][0], "peer", scheduled_at=local(DAY, 14, 50))
    northwind_last = booked["Northwind"][1][-1]
    _pick(page, booked["Driftwood"][0])  # a third loop shown first changes nothing
    clock.set(local(DAY, 14, 40))
    day_service.refresh()
    assert page.now_box.label.text().startswith("Northwind · Hiring manager")
    qtbot.mouseClick(_buttons(page)["Round finished"], Qt.MouseButton.LeftButton)
    assert get_round(page.ctx.db, northwind_last).ended_at is not None
    start_now = _buttons(page)["Start it now"]  # Cobalt's, where "Round finished" was
    assert page.now_box.label.text().startswith("Cobalt · ")
    qtbot.mouseClick(start_now, Qt.MouseButton.LeftButton)  # the double click's tail
    assert get_round(page.ctx.db, cobalt).started_at is None
    later = local(DAY, 14, 40) + dt.timedelta(seconds=2)
    clock.set(later)
    qtbot.mouseClick(start_now, Qt.MouseButton.LeftButton)  # a deliberate click
    assert get_round(page.ctx.db, cobalt).started == later


def _schedule_rows(page) -> list[tuple[str, str]]:
    tree = page.schedule.tree
    return [
        (tree.topLevelItem(i).text(0), tree.topLevelItem(i).text(1))
        for i in range(tree.topLevelItemCount())
    ]


def test_all_loops_is_one_calendar_and_the_title_is_todays(page, day_service, clock):
    """With "All loops" the schedule lists every loop's rounds in time order, each named
    with its company (it showed Northwind's alone), and Today's title leaves out the loop
    booked for next week; a picked loop shows its own rounds again."""
    page, booked = page
    assert page.headline.text() == "Today · Northwind + Cobalt"
    assert page.schedule_box.title() == "Schedule · every loop"
    rows = _schedule_rows(page)
    names = [name for _when, name in rows]
    assert names[:4] == [
        "Northwind · Coding round",
        "Northwind · System design round",
        "Northwind · Hiring manager round",
        "Cobalt · Peer / IC round",
    ], rows
    assert names[-1].startswith("Driftwood · ")  # next week, last on the calendar
    # a round added with Cobalt's row selected goes to Cobalt's loop
    tree = page.schedule.tree
    tree.topLevelItem(3).setSelected(True)
    assert page.schedule.loop_id == booked["Cobalt"][0]
    _pick(page, booked["Northwind"][0])
    assert page.schedule_box.title() == "Schedule · Northwind"
    assert [name for _w, name in _schedule_rows(page)] == [
        "Coding round",
        "System design round",
        "Hiring manager round",
    ]
