"""The About me panel's trend of kept takes: hidden until one is kept, then the last
takes' time against the target band, wpm and fillers, and what changed most."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from companion.core.about.takes import keep_take

AT = dt.datetime(2026, 12, 1, 20, 0, tzinfo=dt.UTC)


def test_the_trend_shows_kept_takes_and_what_changed_most(qtbot, main_window, open_page, ctx):
    win = main_window()
    page = open_page(win, "about")
    assert page.panel.takes.isHidden()
    figures = [
        {"answer_seconds": 95.0, "measured_wpm": 150.0, "fillers": 5, "skipped": []},
        {"answer_seconds": 84.0, "measured_wpm": 148.37, "fillers": 1, "skipped": ["hand-back"]},
    ]
    for n, take in enumerate(figures):
        keep_take(ctx.db, take, AT + dt.timedelta(minutes=n))
    page.takes.show()
    trend = page.panel.takes
    assert not trend.isHidden()
    assert trend.time.values == [95.0, 84.0]
    assert trend.time.band == ctx.content.pitch_plan().target
    assert trend.wpm.values == [150.0, 148.37] and trend.fillers.values == [5.0, 1.0]
    # the figure as people read it (the walk saw "Words per minute 171.61")
    assert trend.wpm.accessibleDescription().endswith("the last 148.4")
    assert trend.time.accessibleDescription().endswith("the last 84")
    assert trend.sentence.text() == (
        "Your fillers changed most: down from 5 to 1 since the previous take."
    )
    _screenshot(win, "about-takes.png")


def _screenshot(win, name: str) -> None:
    import os

    folder = os.environ.get("COMPANION_SHOTS")
    if folder:
        win.grab().save(str(Path(folder) / name))


def _columns_cut(page) -> list[str]:
    """The timing table's columns not wholly in view (cut by the panel's edge, or
    behind a horizontal scroll bar of the table or of the side panel)."""
    table = page.panel.table
    header = table.horizontalHeader()
    side = page.panel.parentWidget().parentWidget()  # the scroll area's viewport's parent
    right = side.viewport().mapToGlobal(side.viewport().rect().topRight()).x()
    cut = []
    for column in range(table.columnCount()):
        edge = header.sectionViewportPosition(column) + header.sectionSize(column)
        inside = table.viewport().mapToGlobal(table.viewport().rect().topLeft()).x() + edge
        if edge > table.viewport().width() or inside > right + 1:
            cut.append(table.horizontalHeaderItem(column).text())
    return cut


def test_the_side_panel_shows_every_column(qtbot, main_window, open_page, ctx):
    """The timing table's Status column was cut in a narrow window (the panel is one of
    three splitter panes): every column is in view at the window's smallest size and at
    a laptop's, with kept takes showing."""
    keep_take(ctx.db, {"answer_seconds": 95.0, "measured_wpm": 150.0, "fillers": 5}, AT)
    win = main_window()
    page = open_page(win, "about")
    page.takes.show()
    for size in ((800, 500), (1100, 700), (1600, 1000)):
        win.resize(*size)
        qtbot.waitUntil(lambda s=size: win.width() >= s[0] - 1)
        qtbot.wait(50)
        assert _columns_cut(page) == [], (size, page.panel.width())


def test_a_kept_take_is_deleted_one_by_one_after_a_yes(qtbot, main_window, open_page, ctx):
    """From the About me panel, not only `companion about takes --delete`."""
    from PySide6.QtWidgets import QMessageBox

    from companion.core.about.takes import list_takes

    for n, wpm in enumerate((150.0, 160.0, 170.0)):
        keep_take(
            ctx.db, {"answer_seconds": 80.0 + n, "measured_wpm": wpm}, AT + dt.timedelta(minutes=n)
        )
    win = main_window()
    page = open_page(win, "about")
    page.takes.show()
    trend = page.panel.takes
    menu = trend.delete_menu.actions()
    assert [a.text().split(" · ")[-1] for a in menu] == ["170 wpm", "160 wpm", "150 wpm"]
    ids = [t["id"] for t in list_takes(ctx.db)]

    def answer(action, reply):
        action.trigger()
        box = next(b for b in page.findChildren(QMessageBox) if b.isVisible())
        box.button(reply).click()
        qtbot.waitUntil(lambda: not box.isVisible())

    answer(menu[1], QMessageBox.StandardButton.No)
    assert [t["id"] for t in list_takes(ctx.db)] == ids  # no: nothing deleted
    answer(menu[1], QMessageBox.StandardButton.Yes)  # the middle one
    assert [t["id"] for t in list_takes(ctx.db)] == [ids[0], ids[2]]
    assert trend.time.values == [80.0, 82.0] and len(trend.delete_menu.actions()) == 2
