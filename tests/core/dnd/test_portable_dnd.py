"""Do-not-disturb with the portable services (``COMPANION_PORTABLE=1``): nothing is run
and nothing asked over D-Bus; the checklist step says how to do it on that desktop."""

from __future__ import annotations

import re

import pytest

from companion.core.dnd import detect
from companion.core.dnd.base import DndError


def _never(*_args, **_kw):
    raise AssertionError("the portable path runs no command")


@pytest.mark.parametrize(
    ("platform", "desktop", "words"),
    [
        ("linux", "ubuntu:GNOME", "switch 'Do Not Disturb' on"),
        ("linux", "KDE", "KDE: click the bell in the system tray"),
        ("linux", "XFCE", "Pause notifications by hand in your desktop's settings"),
        ("darwin", "", "macOS: Open Control Centre > Focus"),
        ("win32", "", "Settings > System > Notifications > Do not disturb"),
    ],
)
def test_the_portable_step_says_how_on_that_desktop(platform, desktop, words):
    env = {"COMPANION_PORTABLE": "1", "XDG_CURRENT_DESKTOP": desktop}
    adapter = detect(env=env, which=_never, run=_never, platform=platform)
    assert not adapter.automatic and words in adapter.manual_steps()
    with pytest.raises(DndError, match=re.escape(words)):  # the step, never a command
        adapter.pause()


def test_without_the_switch_gnome_is_driven_as_before():
    env = {"XDG_CURRENT_DESKTOP": "GNOME"}
    which = {"gsettings": "/usr/bin/gsettings"}.get
    adapter = detect(env=env, which=which, run=_never, platform="linux")
    assert adapter.name == "gnome" and adapter.automatic
