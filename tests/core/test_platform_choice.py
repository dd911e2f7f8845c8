"""Which Qt platform the app picks, and why: XWayland by default under Wayland."""

from __future__ import annotations

import pytest

from companion.core.platform_choice import apply_platform_choice, choose_platform, wayland_rule_text


@pytest.mark.parametrize(
    ("env", "platform", "set_env", "says"),
    [
        ({"WAYLAND_DISPLAY": "wayland-0", "DISPLAY": ":0"}, "xcb", "xcb", "XWayland (DISPLAY=:0)"),
        (
            {"WAYLAND_DISPLAY": "wayland-0", "DISPLAY": ":0", "COMPANION_WAYLAND": "1"},
            "wayland",
            "wayland",
            "COMPANION_WAYLAND=1",
        ),
        ({"WAYLAND_DISPLAY": "wayland-0"}, "wayland", None, "without XWayland"),
        ({"XDG_SESSION_TYPE": "wayland", "DISPLAY": ":1"}, "xcb", "xcb", "XWayland"),
        ({"DISPLAY": ":0"}, "xcb", None, "X11 session"),
        (
            {"WAYLAND_DISPLAY": "wayland-0", "DISPLAY": ":0", "QT_QPA_PLATFORM": "wayland"},
            "wayland",
            None,
            "QT_QPA_PLATFORM=wayland is set",
        ),
        ({}, "default", None, "no display found"),
    ],
)
def test_choice(env, platform, set_env, says):
    choice = choose_platform(env, system="linux")
    assert (choice.platform, choice.set_env) == (platform, set_env)
    assert says in choice.reason


def test_other_systems_keep_their_own_platform():
    assert choose_platform({}, system="darwin").platform == "cocoa"
    assert choose_platform({"DISPLAY": ":0"}, system="win32").set_env is None


def test_apply_sets_only_what_it_chose():
    env = {"WAYLAND_DISPLAY": "wayland-0", "DISPLAY": ":0"}
    apply_platform_choice(env)
    assert env["QT_QPA_PLATFORM"] == "xcb"
    env = {"WAYLAND_DISPLAY": "wayland-0", "DISPLAY": ":0", "QT_QPA_PLATFORM": "offscreen"}
    apply_platform_choice(env)
    assert env["QT_QPA_PLATFORM"] == "offscreen"


def test_the_wayland_note_names_the_compositor_rule():
    assert "KWin" in wayland_rule_text({"XDG_CURRENT_DESKTOP": "KDE"})
    assert "windowrulev2" in wayland_rule_text({"XDG_CURRENT_DESKTOP": "Hyprland"})
    assert "Always on Top" in wayland_rule_text({"XDG_CURRENT_DESKTOP": "ubuntu:GNOME"})
