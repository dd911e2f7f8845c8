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
        {"answer_seconds": 84.0, "measured_wpm": 148.0, "fillers": 1, "skipped": ["hand-back"]},
    ]
    for n, take in enumerate(figures):
        keep_take(ctx.db, take, AT + dt.timedelta(minutes=n))
    page.show_takes()
    trend = page.panel.takes
    assert not trend.isHidden()
    assert trend.time.values == [95.0, 84.0]
    assert trend.time.band == ctx.content.pitch_plan().target
    assert trend.wpm.values == [150.0, 148.0] and trend.fillers.values == [5.0, 1.0]
    assert trend.sentence.text() == (
        "Your fillers changed most: down from 5 to 1 since the previous take."
    )
    _screenshot(win, "about-takes.png")


def _screenshot(win, name: str) -> None:
    import os

    folder = os.environ.get("COMPANION_SHOTS")
    if folder:
        win.grab().save(str(Path(folder) / name))
