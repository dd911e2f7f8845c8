"""Which Qt platform plugin the app runs on, and why (no Qt import: decided from the
environment before the QApplication exists).

Under a Wayland session a native Wayland window cannot ask to stay on top (GNOME and
KDE ignore the request), so the cue card would fall behind the call. When XWayland is
there (``DISPLAY`` set next to ``WAYLAND_DISPLAY``) the app defaults to Qt's ``xcb``
platform, where the stay-on-top request is honoured; ``COMPANION_WAYLAND=1`` opts into
native Wayland, and a ``QT_QPA_PLATFORM`` the user set always wins.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping, MutableMapping
from typing import NamedTuple

OPT_IN = "COMPANION_WAYLAND"


class PlatformChoice(NamedTuple):  # not a dataclass: this module loads before the first paint
    platform: str  # what Qt will use: "xcb", "wayland", "cocoa", "windows", or Qt's default
    reason: str
    set_env: str | None = None  # the QT_QPA_PLATFORM value to set, when we choose


def _truthy(value: str | None) -> bool:
    return (value or "").strip().lower() in ("1", "yes", "true", "on")


def choose_platform(env: Mapping[str, str], system: str | None = None) -> PlatformChoice:
    system = system or sys.platform
    chosen = env.get("QT_QPA_PLATFORM", "").strip()
    if chosen:
        return PlatformChoice(chosen.split(":")[0], f"QT_QPA_PLATFORM={chosen} is set")
    if system == "darwin":
        return PlatformChoice("cocoa", "macOS")
    if system.startswith("win"):
        return PlatformChoice("windows", "Windows")
    wayland = env.get("WAYLAND_DISPLAY", "") or env.get("XDG_SESSION_TYPE", "") == "wayland"
    display = env.get("DISPLAY", "")
    if wayland and display:
        if _truthy(env.get(OPT_IN)):
            return PlatformChoice(
                "wayland",
                f"{OPT_IN}=1: native Wayland; the compositor decides whether the card "
                "stays on top (add a window rule, see the README)",
                "wayland",
            )
        return PlatformChoice(
            "xcb",
            f"Wayland session with XWayland (DISPLAY={display}): X11 so the cue card can "
            f"stay on top; {OPT_IN}=1 for native Wayland",
            "xcb",
        )
    if wayland:
        return PlatformChoice(
            "wayland",
            "Wayland session without XWayland (DISPLAY is not set): native Wayland; the "
            "card cannot ask to stay on top (add a window rule, see the README)",
        )
    if display:
        return PlatformChoice("xcb", f"X11 session (DISPLAY={display})")
    return PlatformChoice("default", "no display found (DISPLAY and WAYLAND_DISPLAY are unset)")


def apply_platform_choice(env: MutableMapping[str, str] | None = None) -> PlatformChoice:
    """Set QT_QPA_PLATFORM when we choose; call before the QApplication is built."""
    env = os.environ if env is None else env
    choice = choose_platform(env)
    if choice.set_env:
        env["QT_QPA_PLATFORM"] = choice.set_env
    return choice


def wayland_rule_text(env: Mapping[str, str]) -> str:
    """What to tell a user who runs the card as a native Wayland window."""
    desktop = env.get("XDG_CURRENT_DESKTOP", "").lower()
    if "kde" in desktop:
        rule = (
            "KWin: System Settings > Window Management > Window Rules, match the title "
            '"Cue card", set Keep above.'
        )
    elif "hyprland" in desktop:
        rule = "Hyprland: windowrulev2 = float, pin, title:^(Cue card)$"
    elif "sway" in desktop:
        rule = 'sway: for_window [title="Cue card"] floating enable, sticky enable'
    else:
        rule = "GNOME: right-click the card's title bar > Always on Top (when it has one)."
    return (
        "Native Wayland: the desktop decides whether this card stays on top. "
        f"{rule} Or start without {OPT_IN}=1 to use XWayland, where it stays on top."
    )
