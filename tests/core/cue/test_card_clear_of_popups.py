"""The card's first place keeps clear of the notification corner: dunst's popups (top
right, 50 px down, 300 px wide) covered the card's title line."""

from __future__ import annotations

from companion.core.cue.placement import Rect, default_rect, restore_rect

# dunst's defaults: origin top-right, offset 10x50, width 300; a three-line popup
FHD = Rect(0, 0, 1920, 1080)


def _dunst_popup(screen: Rect, lines: int = 3) -> Rect:
    return Rect(screen.right - 10 - 300, screen.y + 50, 300, 20 + 30 * lines)


def test_the_cards_title_line_is_below_a_popup():
    for screen in (FHD, Rect(1920, 0, 2560, 1440), Rect(0, 0, 1280, 800)):
        for glance in (False, True):
            card = default_rect(screen, glance)
            title_line = Rect(card.x, card.y, card.w, 40)
            w, h = title_line.overlap(_dunst_popup(screen))
            assert w == 0 or h == 0, (screen, glance, card)
            assert card.bottom <= screen.bottom and card.right <= screen.right


def test_with_nothing_saved_the_card_opens_below_the_band():
    rect, rescued = restore_rect({}, [FHD])
    assert not rescued
    assert rect.y >= _dunst_popup(FHD).bottom


def test_a_short_screen_keeps_the_card_whole():
    short = Rect(0, 0, 800, 400)
    card = default_rect(short)
    assert card.y >= 0 and card.bottom <= short.bottom and card.h >= 300


def test_at_200_percent_a_tall_card_goes_left_of_the_band_not_under_it():
    # 1920x1080 at QT_SCALE_FACTOR=2: 960x540 logical; the card's minimum is the whole height
    screen = Rect(0, 0, 960, 540)
    for min_h in (400, 540, 600):
        rect, rescued = restore_rect({}, [screen], min_size=(380, min_h))
        assert not rescued
        w, h = rect.overlap(_dunst_popup(screen))
        assert w == 0 or h == 0, (min_h, rect)
        assert rect.x >= screen.x and rect.right <= screen.right
        assert rect.h >= min(min_h, screen.h) and rect.bottom <= screen.bottom or rect.y == 0


def test_a_card_that_fits_below_the_band_stays_on_the_right():
    rect, _ = restore_rect({}, [FHD], min_size=(380, 500))
    assert rect.right == FHD.right - 24 and rect.y >= _dunst_popup(FHD).bottom and rect.h >= 500
