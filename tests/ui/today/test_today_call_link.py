"""Today shows the call link of the round the day is about, and a button hands it to the
desktop's handler (caught here by a URL handler, as the desktop would get it)."""

from __future__ import annotations

import datetime as dt

import pytest
from PySide6.QtCore import QObject, QUrl, Slot
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import QLabel, QPushButton

from companion.core.day.loops import add_round, create_loop, update_round

pytestmark = pytest.mark.gui

TZ = dt.timezone(dt.timedelta(hours=1))


class Desktop(QObject):
    """Stands in for the browser: receives what the app hands to the desktop."""

    def __init__(self):
        super().__init__()
        self.opened: list[str] = []

    @Slot(QUrl)
    def open(self, url: QUrl) -> None:
        self.opened.append(url.toString())


@pytest.fixture
def desktop():
    handler = Desktop()
    for scheme in ("http", "https", "file", "javascript"):
        QDesktopServices.setUrlHandler(scheme, handler, "open")
    yield handler
    for scheme in ("http", "https", "file", "javascript"):
        QDesktopServices.unsetUrlHandler(scheme)


def _page(qtbot, ctx, bus, day_service):
    from companion.ui.today.page import TodayPage

    page = TodayPage(ctx, bus, day=day_service)
    qtbot.addWidget(page)
    page.resize(800, 900)
    page.show()
    page.on_shown()
    qtbot.waitUntil(lambda: page._built)
    return page


def _call_button(page):
    found = [
        b
        for b in page.now_box.findChildren(QPushButton)
        if "Go to the call" in b.text().replace("&", "")
    ]
    return found[0] if found else None


def test_the_next_rounds_link_is_shown_and_handed_to_the_desktop(
    qtbot, ctx, bus, day_service, clock, desktop
):
    clock.set(dt.datetime(2026, 12, 2, 9, 50, tzinfo=TZ))
    loop = create_loop(ctx.db, "Acme", starts_on="2026-12-02")
    rid = add_round(ctx.db, loop, "coding", scheduled_at=dt.datetime(2026, 12, 2, 10, tzinfo=TZ))
    update_round(ctx.db, rid, link="https://meet.example.com/abc-defg")
    page = _page(qtbot, ctx, bus, day_service)
    labels = [w.text() for w in page.now_box.findChildren(QLabel)]
    assert "Call: https://meet.example.com/abc-defg" in labels
    button = _call_button(page)
    assert button is not None
    qtbot.waitUntil(button.isVisible)
    button.click()
    assert desktop.opened == ["https://meet.example.com/abc-defg"]


def test_a_link_that_is_not_http_is_never_offered(qtbot, ctx, bus, day_service, clock, desktop):
    clock.set(dt.datetime(2026, 12, 2, 9, 50, tzinfo=TZ))
    loop = create_loop(ctx.db, "Acme", starts_on="2026-12-02")
    rid = add_round(ctx.db, loop, "coding", scheduled_at=dt.datetime(2026, 12, 2, 10, tzinfo=TZ))
    # a row written by an older build or by hand: the day still offers no such link
    ctx.db.execute("UPDATE rounds SET link = 'file:///etc/passwd' WHERE id = ?", [rid])
    page = _page(qtbot, ctx, bus, day_service)
    assert _call_button(page) is None
    from companion.ui.today.call import open_call_link

    assert not open_call_link("javascript:alert(1)")
    assert desktop.opened == []
