"""The glance text is large type: never drawn smaller than the card's normal text (the
walk read about 9 px bold at 100 %, below the body's size). A text too long for the box
at the body size is cut at a word with '…' and the tooltip holds it all."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QApplication

pytestmark = [pytest.mark.gui, pytest.mark.qt_log_ignore("This plugin does not support")]

LONG = " ".join(f"word{n}" for n in range(200))


@pytest.fixture
def card(ctx, bus, day_service, qtbot):
    from companion.ui.cue.window import CueCardWindow

    window = CueCardWindow(ctx, bus, day_service)
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    window.set_glance(True)
    window.resize(300, 160)  # a small glance card
    QApplication.processEvents()
    yield window
    window.close()


def _body_pt(card) -> float:
    return card.glance.font().pointSizeF()


def test_a_long_glance_text_stays_at_body_size_and_is_cut_with_a_tooltip(card):
    label = card.glance_text
    label.setText(LONG)
    label.repaint()
    font, fits = label.fitted_font()
    assert font.pointSizeF() >= _body_pt(card) > 0
    assert not fits
    shown = label.shown_text()
    assert shown.endswith("\u2026") and shown.startswith("word0 word1")
    assert len(shown) < len(LONG)
    assert label.toolTip() == LONG


def test_a_short_glance_text_is_whole_large_and_has_no_tooltip(card):
    label = card.glance_text
    label.setText(LONG)
    label.repaint()
    label.setText("Ask about scale")
    label.repaint()
    font, fits = label.fitted_font()
    assert fits and label.shown_text() == "Ask about scale"
    assert font.pointSizeF() > _body_pt(card)
    assert label.toolTip() == ""


@pytest.mark.parametrize("font_pt", [11, 16])
def test_no_shipped_glance_text_is_drawn_below_the_body_size(card, font_pt):
    card.appearance.change_font(font_pt - card.state.font_pt)
    QApplication.processEvents()
    label = card.glance_text
    body = _body_pt(card)
    for info in card.infos:
        label.setText(info.title + ": " + LONG[:120])
        font, _fits = label.fitted_font()
        assert font.pointSizeF() >= body, f"{info.id}: {font.pointSizeF()} pt < body {body} pt"
