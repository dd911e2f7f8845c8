"""Ghost mode on the card (offscreen): the ⋯ menu entry and the hotkeys turn it on and
off, the window becomes transparent for input and dims, the mark names the key as bound,
the screen-share notice shows the first time only, and the opacity hotkeys change the
opacity of the mode in force. The click itself is tested under openbox and mutter in
tests/ui/hotkeys/."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from companion.core import hotkeys as hk
from companion.core.cue import ghost as core
from companion.core.cue import state as cue_state

pytestmark = [pytest.mark.gui, pytest.mark.qt_log_ignore("This plugin does not support")]

INPUT = Qt.WindowType.WindowTransparentForInput


@pytest.fixture
def make_card(ctx, bus, day_service, qtbot):
    from companion.ui.cue.window import open_cue_card

    made = []

    def make():
        card = open_cue_card(ctx, bus, day_service, "design")
        qtbot.addWidget(card)
        qtbot.waitExposed(card)
        made.append(card)
        return card

    yield make
    for card in made:
        card.close()


def _ghost_entry(card):
    return next(a for a in card.menu.actions() if a.text().startswith("Ghost mode"))


def test_the_menu_entry_makes_a_ghost_and_the_hotkey_ends_it(make_card, ctx):
    from companion.ui.hotkeys.service import drive_card

    card = make_card()
    assert card.windowOpacity() == pytest.approx(0.95, abs=0.01)
    _ghost_entry(card).trigger()
    assert card.ghost.on and card.windowFlags() & INPUT
    assert card.windowHandle().flags() & INPUT  # told to the window system too
    assert card.windowFlags() & Qt.WindowType.WindowStaysOnTopHint
    assert card.windowOpacity() == pytest.approx(core.DEFAULT_GHOST_OPACITY / 100, abs=0.01)
    mark = card.ghost.mark
    assert mark.isVisible() and mark.mark.text() == "ghost \u00b7 Ctrl+Alt+T"
    assert mark.note.isVisible() and "screen shares" in mark.note.text()
    assert mark.mark.geometry().right() < card.width() and mark.mark.y() >= 0
    assert mark.note.geometry().bottom() < card.height() and mark.note.x() >= 0
    assert card.isVisible() and not card.isActiveWindow()

    assert drive_card("ghost", card, lambda: card) is card
    assert not card.ghost.on and not card.windowFlags() & INPUT
    assert not card.windowHandle().flags() & INPUT
    assert not mark.isVisible()
    assert card.windowOpacity() == pytest.approx(0.95, abs=0.01)


def test_the_notice_shows_the_first_time_only_even_after_a_restart(make_card, ctx):
    card = make_card()
    card.ghost.toggle()
    assert card.ghost.mark.note.isVisible()
    card.ghost.toggle()
    card.ghost.toggle()
    assert card.ghost.mark.isVisible() and not card.ghost.mark.note.isVisible()
    card.ghost.toggle()
    card.close()
    card.deleteLater()
    again = make_card()
    assert not again.ghost.on  # a restart gives the normal card back
    again.ghost.toggle()
    assert not again.ghost.mark.note.isVisible()
    assert ctx.settings.get(core.GHOST_KEY)["told"] is True


def test_the_mark_names_the_key_as_rebound(make_card, ctx):
    hk.rebind(ctx.prefs, "ghost", "super+shift+BracketLeft")
    card = make_card()
    card.ghost.toggle()
    assert card.ghost.mark.mark.text() == "ghost \u00b7 Shift+Super+["
    card.ghost.toggle()
    hk.rebind(ctx.prefs, "ghost", "")
    card.ghost.toggle()
    assert card.ghost.mark.mark.text() == "ghost"


def test_opacity_hotkeys_change_the_mode_in_force_and_are_kept(make_card, ctx):
    from companion.ui.hotkeys.service import drive_card

    card = make_card()
    drive_card("opacity-down", card, lambda: card)
    assert card.state.opacity == 90 and card.windowOpacity() == pytest.approx(0.9, abs=0.01)
    card.memory.save_now()
    assert cue_state.load_state(ctx.settings).opacity == 90
    drive_card("ghost", card, lambda: card)
    drive_card("opacity-up", card, lambda: card)
    drive_card("opacity-up", card, lambda: card)
    assert card.windowOpacity() == pytest.approx(0.7, abs=0.01)
    assert card.state.opacity == 90  # the card's own opacity is left alone
    kept = ctx.settings.get(core.GHOST_KEY)["opacity"]
    assert kept["last|ghost"] == 70 and kept["last|card"] == 90
    assert any(k.endswith("|ghost") and not k.startswith("last") for k in kept)
    drive_card("ghost", card, lambda: card)
    assert card.windowOpacity() == pytest.approx(0.9, abs=0.01)
    drive_card("ghost", card, lambda: card)
    assert card.windowOpacity() == pytest.approx(0.7, abs=0.01)  # remembered


def test_a_hidden_card_comes_back_as_a_ghost_and_keeps_its_other_hotkeys(make_card):
    from companion.ui.hotkeys.service import drive_card

    card = make_card()
    drive_card("ghost", card, lambda: card)
    drive_card("show-card", card, lambda: card)
    assert not card.isVisible()
    drive_card("show-card", card, lambda: (card.show_card(), card)[1])
    assert card.isVisible() and card.ghost.on and card.windowFlags() & INPUT
    drive_card("next-step", card, lambda: card)
    assert card.state.step("design") == 1
    drive_card("glance", card, lambda: card)
    assert card.state.glance and card.ghost.mark.isVisible()
