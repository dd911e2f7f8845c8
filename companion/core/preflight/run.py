"""All the checks at once, in the order a person goes through them. The caller gives what
only it can read: the input devices (QtMultimedia) and the do-not-disturb state."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

from companion.core import hotkeys as hk
from companion.core.platform.devices import cameras
from companion.core.preflight import link, pingers, power, proofs
from companion.core.preflight.checks import (
    Check,
    camera_check,
    dnd_check,
    mic_check,
    screen_share_check,
)
from companion.core.voice.check import sound_server_running


def gather(
    db,
    now: dt.datetime,
    *,
    devices: Sequence[tuple[str, str, bool]] | None,
    dnd_paused: bool | None,
    dnd_automatic: bool = True,
    power_bus: str = "SYSTEM",
    chosen_input: str = "",
    prefs=None,
    settings=None,
) -> tuple[dict | None, list[Check]]:
    """(the next round as JSON, or None; the checks); ``chosen_input``: the input picked
    in the window (its id), else the default; ``prefs``: the hotkeys in force;
    ``settings``: where the proofs that a hotkey fired and a notification showed are kept
    (companion.core.preflight.proofs)."""
    info = link.round_info(link.next_round(db, now))
    proved = []
    if prefs is not None and settings is not None:
        show_keys = hk.bindings_in_force(prefs).in_force().get("show-card", "")
        proved = [
            proofs.hotkey_check(settings, now, show_keys),
            proofs.notification_check(settings, now),
        ]
    return info, [
        mic_check(devices, chosen_input, server=sound_server_running()),
        camera_check(cameras()),
        dnd_check(dnd_paused, dnd_automatic),
        *proved,
        pingers.pingers_check(pingers.find_pingers(), app_pings=dnd_paused is False),
        power.power_check(power.read_power(power_bus)),
        link.link_check(info),
        screen_share_check(),
    ]
