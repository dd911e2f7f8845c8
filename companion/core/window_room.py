"""Where the main window goes: on screen at first start, and beside the cue card rather
than under it. Plain arithmetic on (x, y, w, h) rectangles, tested without a display."""

from __future__ import annotations

from companion.core.cue.placement import Rect

TITLE_BAR = 40  # room left for a window manager's title bar above a first window
GAP = 8


def first_place(width: int, height: int, area: Rect) -> Rect:
    """A first window (no saved place) of at most ``width`` x ``height``, centred in the
    screen's free ``area`` with room for its title bar, so no part of it hangs below."""
    w = min(width, int(area.w * 0.9))
    h = min(height, int(area.h * 0.9) - TITLE_BAR)
    x = area.x + (area.w - w) // 2
    y = area.y + TITLE_BAR + max(0, (area.h - TITLE_BAR - h) // 2)
    return Rect(x, y, w, h)


def beside_card(main: Rect, card: Rect, area: Rect, min_width: int) -> Rect | None:
    """The main window moved (and narrowed down to ``min_width``) to the side of the
    card with more room, when the card covers part of it and both fit side by side on
    the screen; None when they do not overlap or cannot both fit."""
    w_over, h_over = main.overlap(card)
    if not w_over or not h_over:
        return None
    left_room = card.x - GAP - area.x  # free width left of the card
    right_room = area.right - (card.right + GAP)
    room, on_left = max((left_room, True), (right_room, False))
    if room < min_width:
        return None
    w = min(main.w, room)
    if on_left:
        x = min(max(main.x, area.x), card.x - GAP - w)
    else:
        x = max(main.x, card.right + GAP)
        x = min(x, area.right - w)
    return Rect(x, main.y, w, main.h)
