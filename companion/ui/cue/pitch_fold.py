"""Fold the pitch outline away once the running round is past its opening minutes (and
unfold it for the next round); a fold the user made by hand is left alone."""

from __future__ import annotations

from companion.core.cue.opening import pitch_outline_open

SECTION = "@pitch-outline"


def fold_pitch(card) -> None:
    page = card._current_page()
    block = page.blocks.get(SECTION) if page is not None else None
    if block is None or SECTION in card.state.collapsed:
        return
    rnd = card._day_round
    status = card._status if rnd is not None and rnd.type == page.round_id else None
    collapsed = not pitch_outline_open(status.elapsed if status is not None else None)
    if block.collapsed != collapsed:
        block.blockSignals(True)  # the day's fold, not the user's: not saved
        block.set_collapsed(collapsed)
        block.blockSignals(False)
