"""The walk of the day on the main window over issue 61's scripted calendar (two loops the
same day with back-to-back rounds, one the next week at 02:00): what Today says at each
chosen moment. With COMPANION_SHOTS naming a folder each moment is saved as a picture for
a person to look at (run it under COMPANION_COLOR_SCHEME=dark and QT_SCALE_FACTOR=2 too)."""

from __future__ import annotations

import datetime as dt
import os
from pathlib import Path

import pytest
from scripted_calendar import DAY, NEXT_WEEK, book, local

from companion.core.day.loops import update_round

pytestmark = pytest.mark.gui

D0, D1 = DAY - dt.timedelta(days=1), DAY + dt.timedelta(days=1)


def _texts(page) -> dict:
    from PySide6.QtWidgets import QLabel

    rows = [
        w.text() for w in page.reminders_box.findChildren(QLabel) if page.reminders_box.isVisible()
    ]
    group = page.phase_group
    step = ""
    if group is not None and group.step_key:
        step = next(i.text for i in group.phase_list.items if i.key == group.step_key)
    return {
        "title": page.headline.text(),
        "countdown": page.countdown.text(),
        "box": page.now_box.title() if page.now_box.isVisible() else "",
        "now": page.now_box.label.text() if page.now_box.isVisible() else "",
        "step": step,
        "rows": rows,
    }


# (moment, the Now box's title, its line begins, the step due now, the reminder rows)
MOMENTS = [
    (local(D0, 18), "Now: night before", "First round: Northwind · Coding round", "", []),
    (
        local(DAY, 9, 50),
        "Now: before the round",
        "Northwind · Coding round at 10:00. One step at a time",
        "Water within reach",
        [],
    ),
    (local(DAY, 10, 20), "Now: in the round", "Northwind · Coding round — ends about", "", []),
    (
        local(DAY, 10, 45),  # back to back: the second round starts as the first ends
        "Now: in the round",
        "Northwind · System design round was started by the clock at 10:45",
        "",
        ["Northwind · Coding round: write down what was asked"],
    ),
    (
        local(DAY, 11, 35),
        "Now",
        "Between rounds. Next: Northwind · Hiring manager round at 14:00",
        "",
        ["Northwind · System design round: write down what was asked (55 min left)."],
    ),
    (
        local(DAY, 15, 50),  # Northwind is over: its thank-you stays beside Cobalt's round
        "Now: before the round",
        "Cobalt · Peer / IC round at 16:00",
        "Water within reach",
        ["Northwind: send the thank-you note by Tue 14:45."],
    ),
    (
        local(DAY, 17),
        "Now: after the loop",
        "The loop with Cobalt is done",
        "",
        [
            "Cobalt · Peer / IC round: write down what was asked (30 min left).",
            "Northwind: send the thank-you note by Tue 14:45.",
            "Cobalt: send the thank-you note by Tue 16:30.",
        ],
    ),
    (
        local(D1, 11),  # both thank-yous kept although Driftwood's loop comes next
        "Now: after the loop",
        "The loop with Cobalt is done",
        "",
        [
            "Northwind: send the thank-you note by Tue 14:45.",
            "Cobalt: send the thank-you note by Tue 16:30.",
        ],
    ),
    (
        local(NEXT_WEEK, 0, 45),  # the 02:00 round: no sleep line in its run-up
        "Now: morning of",
        "First round: Driftwood · Coding round at 02:00.",
        "",
        [],
    ),
]


@pytest.fixture
def scheme(qapp):
    """The look the pictures are taken in: COMPANION_COLOR_SCHEME's (the tests' own light
    look otherwise), set back after the test."""
    from companion.ui.theme import apply_scheme, apply_theme, forced_scheme

    forced = forced_scheme(os.environ)
    if forced:
        apply_scheme(qapp, forced)
    yield
    if forced:
        apply_scheme(qapp, apply_theme(qapp, {}))


def test_the_walk_of_the_day_with_three_loops(
    main_window, open_page, ctx, day_service, clock, scheme
):
    from PySide6.QtWidgets import QApplication

    clock.set(MOMENTS[0][0])
    book(ctx.db)
    win = main_window()
    page = open_page(win, "today")
    folder = os.environ.get("COMPANION_SHOTS")
    for moment, box, line, step, rows in MOMENTS:
        clock.set(moment)
        day_service.refresh()
        said = _texts(page)
        when = f"{moment:%a %d %H:%M}"
        assert said["box"] == box, (when, said)
        assert said["now"].startswith(line), (when, said)
        assert said["step"].startswith(step) and bool(said["step"]) == bool(step), (when, said)
        assert [r for r in said["rows"] if not any(r.startswith(w) for w in rows)] == []
        assert len(said["rows"]) == len(rows), (when, said)
        assert "sleep" not in said["now"].lower() or moment.date() != NEXT_WEEK
        if moment.date() == NEXT_WEEK:  # Northwind's and Cobalt's items are past
            assert said["title"] == "Today · Driftwood · ML infra"
        else:
            # the day's loops, the one whose round comes next first; not next week's
            named = said["title"].removeprefix("Today · ").split(" + ")
            assert sorted(named) == ["Cobalt", "Northwind"], said["title"]
        if folder:
            for _ in range(3):  # the new widgets are shown and laid out by posted events
                QApplication.sendPostedEvents()
                QApplication.processEvents()
            look = (
                f"{os.environ.get('COMPANION_COLOR_SCHEME', 'light')}-x{win.devicePixelRatio():g}"
            )
            win.grab().save(str(Path(folder) / f"day-{look}-{moment:%d-%H%M}.png"))


def test_a_thank_you_row_opens_the_journal_on_its_own_loop(main_window, open_page, ctx, clock):
    """Two loops over, two thank-you rows: each row's Open journal shows that loop (the
    journal opened on the latest loop, Cobalt, from Northwind's row too)."""
    from PySide6.QtWidgets import QApplication, QPushButton

    clock.set(local(DAY, 17))
    booked = book(ctx.db)
    win = main_window()
    page = open_page(win, "today")
    buttons = [
        b for b in page.reminders_box.findChildren(QPushButton) if "journal" in b.text().lower()
    ]
    assert len(buttons) == 2
    for button, company in zip(buttons, ("Northwind", "Cobalt"), strict=True):
        button.click()
        journal = win.page("journal")
        assert win.stack.currentWidget() is journal
        for _ in range(3):  # the page's refresh on showing runs, and keeps the loop
            QApplication.sendPostedEvents()
            QApplication.processEvents()
        assert journal.current_loop_id == booked[company][0], company
        assert journal.header.title.text().startswith(company)
        open_page(win, "today")


def test_the_call_link_is_the_next_rounds_only_within_a_day(main_window, open_page, ctx, clock):
    """Before Northwind's round its link shows; after both loops, with Driftwood's round a
    week away, Today showed that link ("Call: …") under "after the loop"."""
    from PySide6.QtWidgets import QWidget

    book(ctx.db)
    for round_id in range(1, 6):
        update_round(ctx.db, round_id, link=f"https://meet.example/{round_id}")
    clock.set(local(DAY, 9, 50))
    win = main_window()
    page = open_page(win, "today")
    assert page.now_box.findChild(QWidget, "callLink") is not None
    clock.set(local(DAY, 17))
    page.day.refresh()
    assert page.now_box.title() == "Now: after the loop"
    assert page.now_box.findChild(QWidget, "callLink") is None
