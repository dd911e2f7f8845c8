"""What matters now is on the card without scrolling, and every round offers the pitch
outline for its opening minutes, folded once the round is past them."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint
from PySide6.QtWidgets import QApplication

from companion.core.cue.opening import OPENING_MINUTES
from companion.core.day import loops

pytestmark = [pytest.mark.gui, pytest.mark.qt_log_ignore("This plugin does not support")]


@pytest.fixture
def card(ctx, bus, day_service, qtbot):
    from companion.ui.cue.window import CueCardWindow

    window = CueCardWindow(ctx, bus, day_service)
    qtbot.addWidget(window)
    window.resize(380, 600)
    window.show()
    qtbot.waitExposed(window)
    yield window
    window.close()


def _on_screen(widget, page) -> bool:
    """Whether ``widget`` is shown whole in the page's scroll viewport at scroll 0."""
    viewport = page.scroll.viewport()
    top = widget.mapTo(viewport, QPoint(0, 0))
    return (
        widget.isVisible()
        and top.y() >= 0
        and top.y() + min(widget.height(), 40) <= viewport.height()
    )


def test_every_round_offers_the_pitch_outline(card):
    for info in card.infos:
        card.set_round(info.id)
        page = card.pages.current()
        assert "@pitch-outline" in page.blocks, f"{info.id} has no pitch outline"
        assert not page.blocks["@pitch-outline"].collapsed, "open before the round starts"


@pytest.mark.parametrize("round_type", ["design", "coding"])
def test_past_the_opening_the_step_the_time_and_a_nudge_show_without_scrolling(
    card, ctx, db, clock, round_type
):
    loops.create_loop(db, "Acme", starts_on=clock.now().date().isoformat())
    card.set_round(round_type)
    card.reminder.show_text()  # the first-of-the-day reminder, as on the day
    card.toggle_round()
    page = card.pages.current()
    assert not page.blocks["@pitch-outline"].collapsed, "open in the first minutes"
    clock.advance(minutes=OPENING_MINUTES, seconds=1)
    card.tick()
    QApplication.processEvents()
    assert page.blocks["@pitch-outline"].collapsed, "folded once past the opening"
    assert "@pitch-outline" not in card.state.collapsed, "the day's fold is not saved"
    assert page.scroll.verticalScrollBar().value() == 0
    assert _on_screen(page.stepper, page), "the current step"
    assert card.clock.isVisible() and ":" in card.clock.text(), "time left, in the header"
    clock.advance(minutes=20)
    card.tick()
    QApplication.processEvents()
    assert card.banner.isVisible() and card.banner_text.text(), "a fresh nudge, above the page"
    card.toggle_round()
