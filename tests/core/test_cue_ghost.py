"""Ghost mode as data: on/off, the notice said once, the opacity per screen layout, the
way to let clicks through per platform. No Qt."""

from __future__ import annotations

import pytest

from companion.core.cue import ghost
from companion.core.cue.placement import Rect

ONE = [Rect(0, 0, 1280, 800)]
TWO = [Rect(0, 0, 1280, 800), Rect(1280, 0, 1920, 1080)]


def test_the_notice_is_said_the_first_time_only_and_remembered():
    state = ghost.Ghost()
    assert state.set(True) is True  # changed the memory: save it
    assert state.on and state.telling and state.mode == "ghost"
    assert state.set(True) is False  # already on
    assert state.set(False) is False
    assert not state.on and not state.telling and state.mode == "card"
    again = ghost.Ghost(ghost.GhostMemory.from_dict(state.memory.to_dict()))
    assert again.set(True) is False and again.on and not again.telling


def test_ghost_opacity_is_kept_per_screen_layout_and_falls_back_to_the_last():
    state = ghost.Ghost()
    state.set(True)
    assert state.opacity(ONE, 95) == ghost.DEFAULT_GHOST_OPACITY
    assert state.opacity(ONE, 40) == 40  # never more opaque than the card itself
    assert state.memory.remember(ONE, "ghost", 70) is True
    assert state.memory.remember(ONE, "ghost", 70) is False  # nothing to save
    assert state.memory.remember(TWO, "ghost", 30) is True
    assert state.opacity(ONE, 95) == 70 and state.opacity(TWO, 95) == 30
    third = [Rect(0, 0, 800, 600)]
    assert state.opacity(third, 95) == 30  # a new layout: the last one used
    state.set(False)
    assert state.opacity(ONE, 95) == 95  # out of ghost mode: the card's own


def test_card_opacity_comes_back_on_a_layout_only_if_set_last_elsewhere():
    memory = ghost.GhostMemory()
    memory.remember(ONE, "card", 80)
    assert memory.card_opacity_back(ONE) is None  # the card's own value is the newer
    memory.remember(TWO, "card", 50)
    assert memory.card_opacity_back(ONE) == 80  # back on the laptop alone
    assert memory.card_opacity_back(TWO) is None
    assert memory.card_opacity_back([Rect(0, 0, 640, 480)]) is None  # never kept there
    restored = ghost.GhostMemory.from_dict(memory.to_dict())
    assert restored.card_opacity_back(ONE) == 80 and restored.layout == memory.layout


@pytest.mark.parametrize(
    "raw",
    [None, 3, "x", {"told": "yes", "opacity": [1, 2]}, {"opacity": {"a": True, 5: 50}}],
)
def test_bad_stored_values_fall_back_to_defaults(raw):
    memory = ghost.GhostMemory.from_dict(raw)
    assert memory.told is False and memory.opacity == {} and memory.layout == ""


def test_stored_opacity_is_clamped_and_a_bad_mode_is_refused():
    memory = ghost.GhostMemory.from_dict({"opacity": {"last|ghost": 5, "last|card": 400}})
    assert memory.opacity_for(ONE, "ghost") == 30 and memory.opacity_for(ONE, "card") == 100
    with pytest.raises(ValueError, match="unknown opacity mode 'glance'"):
        memory.remember(ONE, "glance", 50)


@pytest.mark.parametrize(
    ("pct", "delta", "want"),
    [(95, 1, 100), (95, -1, 90), (90, -1, 80), (30, -1, 30), (100, 1, 100), (44, 1, 50)],
)
def test_opacity_steps_on_the_menus_grid_within_limits(pct, delta, want):
    assert ghost.step_opacity(pct, delta) == want


@pytest.mark.parametrize(
    ("platform", "env", "want"),
    [
        ("xcb", {"DISPLAY": ":1"}, ghost.BYPASS_WM),  # openbox & co: the frame takes clicks
        ("xcb", {"DISPLAY": ":1", "WAYLAND_DISPLAY": "wayland-0"}, ghost.INPUT_SHAPE),
        ("xcb", {"XDG_SESSION_TYPE": "wayland"}, ghost.INPUT_SHAPE),
        ("wayland", {}, ghost.INPUT_SHAPE),
        ("offscreen", {}, ghost.INPUT_SHAPE),
    ],
)
def test_the_way_clicks_pass_through_depends_on_the_session(platform, env, want):
    assert ghost.strategy(platform, env) == want


def test_the_mark_names_the_key_as_bound():
    assert ghost.mark_text("Ctrl+Alt+T") == "ghost \u00b7 Ctrl+Alt+T"
    assert ghost.mark_text("") == "ghost"
