"""A dialog, a page and the cue card, closed and deleted, leave no reference cycle behind:
with the collector held off, their Python wrapper dies as soon as the last reference
goes. A cycle through an unparented window leaves it for the collector, which then
deletes it whenever it next runs, inside a paint event as likely as not (a segfault in
CompanionStyle's overrides, the reason the GUI tests once ran with the collector off)."""

from __future__ import annotations

import datetime as dt
import gc
import weakref

import pytest
from PySide6.QtCore import QCoreApplication, QEvent

pytestmark = pytest.mark.gui


def _held_by(obj) -> str:
    """For the failure message: what still refers to the object (one level)."""
    holders = [type(r).__qualname__ for r in gc.get_referrers(obj) if r is not globals()]
    return ", ".join(sorted(set(holders))[:12])


def _freed_without_the_collector(make) -> None:
    gc.collect()
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        widget = make()
        widget.show()
        QCoreApplication.processEvents()
        gone = weakref.ref(widget)
        widget.close()
        widget.deleteLater()
        del widget
        QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
        QCoreApplication.processEvents()
        left = gone()
        assert left is None, (
            f"a cycle keeps the closed {type(left).__name__}: held by {_held_by(left)}"
        )
    finally:
        if was_enabled:
            gc.enable()


def test_a_closed_dialog_leaves_no_cycle(qtbot):
    from companion.ui.widgets.loop_dialogs import LoopDialog

    _freed_without_the_collector(lambda: LoopDialog(dt.date(2026, 12, 1)))


def test_a_closed_page_leaves_no_cycle(qtbot, ctx, bus, day_service):
    from companion.ui.journal.page import JournalPage

    _freed_without_the_collector(lambda: JournalPage(ctx, bus, day=day_service))


@pytest.mark.qt_log_ignore("This plugin does not support")  # offscreen: no raise, opacity
def test_a_closed_cue_card_leaves_no_cycle(qtbot, ctx, bus, day_service):
    from companion.ui.cue.window import CueCardWindow

    _freed_without_the_collector(lambda: CueCardWindow(ctx, bus, day_service))
