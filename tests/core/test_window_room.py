from hypothesis import given
from hypothesis import strategies as st

from companion.core.cue.placement import Rect
from companion.core.window_room import GAP, beside_card, first_place

SCREEN = Rect(0, 0, 1600, 1000)


def test_a_first_window_is_centred_and_its_bottom_stays_on_screen():
    place = first_place(1100, 720, SCREEN)
    assert place.w == 1100 and place.h == 720
    assert place.bottom <= SCREEN.bottom and place.y >= 40
    assert abs((place.x - SCREEN.x) - (SCREEN.right - place.right)) <= 1
    small = first_place(1100, 720, Rect(0, 0, 800, 600))
    assert small.right <= 800 and small.bottom <= 600 and small.y >= 40


def test_the_main_window_steps_aside_for_the_card():
    main = Rect(250, 140, 1100, 720)
    card = Rect(1200, 60, 380, 520)  # over the right side, where the quiz's Flag button is
    moved = beside_card(main, card, SCREEN, min_width=700)
    assert moved is not None
    assert moved.right <= card.x - GAP + 1 and moved.x >= 0
    assert moved.overlap(card)[0] == 0
    assert moved.y == main.y and moved.h == main.h


def test_no_move_when_apart_or_when_both_do_not_fit():
    assert beside_card(Rect(0, 0, 800, 600), Rect(900, 0, 380, 500), SCREEN, 700) is None
    tight = Rect(0, 0, 1000, 800)
    assert beside_card(Rect(0, 0, 900, 700), Rect(500, 0, 400, 500), tight, 700) is None


@given(
    st.integers(0, 1500),
    st.integers(0, 500),
    st.integers(300, 1600),
    st.integers(300, 1000),
    st.integers(0, 1400),
    st.integers(0, 700),
)
def test_a_moved_window_never_overlaps_the_card_and_stays_on_screen(mx, my, mw, mh, cx, cy):
    main = Rect(mx, my, mw, mh)
    card = Rect(cx, cy, 200, 300)
    moved = beside_card(main, card, SCREEN, min_width=300)
    if moved is not None:
        assert moved.overlap(card)[0] == 0
        assert moved.x >= SCREEN.x and moved.right <= SCREEN.right
        assert moved.w >= 300
