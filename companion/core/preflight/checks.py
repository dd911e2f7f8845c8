"""The checks' shape and the pure ones (camera, do-not-disturb, mic, screen share)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from companion.core.text import count_of

SCREEN_SHARE = (
    "Share one window, not the whole screen: a shared screen shows the cue card to everyone."
)


@dataclass(frozen=True)
class Check:
    # mic | camera | do-not-disturb | hotkeys | notification | pingers | power | link |
    # screen-share
    id: str
    ok: bool | None  # None: could not tell
    say: str  # what was seen, and the one thing to do

    def as_json(self) -> dict:
        return {"id": self.id, "ok": self.ok, "say": self.say}


def exit_status(checks: Sequence[Check]) -> int:
    """0 when no check failed (an unknown is not a failure), else 1."""
    return 1 if any(c.ok is False for c in checks) else 0


def preflight_json(round_info: dict | None, checks: Sequence[Check]) -> dict:
    return {"round": round_info, "checks": [c.as_json() for c in checks]}


def camera_check(found: list[str] | None) -> Check:
    """``found``: the camera devices seen (companion.core.platform.devices.cameras), None
    when this desktop cannot list them without opening one."""
    if found is None:
        return Check("camera", None, "Could not look for a camera: check it in the call app.")
    if not found:
        return Check("camera", False, "No camera found: plug it in, or join by voice.")
    return Check("camera", True, f"Camera present ({', '.join(found)}); not opened.")


def mic_check(
    devices: Sequence[tuple[str, str, bool]] | None, chosen: str = "", *, server: bool = True
) -> Check:
    """``devices``: (id, description, default) of each input, None when the audio stack
    could not be asked; ``chosen``: the app's chosen input (id or description), if any;
    ``server``: whether a sound server runs (without one no input can be listed)."""
    if devices is None:
        return Check("mic", None, "Could not list the inputs: try the mic in the call app.")
    if not devices and not server:
        return Check(
            "mic", False, "No sound server is running, so no microphone can be found: "
            "start PulseAudio or PipeWire, or log in to a desktop session.",
        )  # fmt: skip
    if not devices:
        return Check("mic", False, "No microphone found: plug one in, or pick another input.")
    pick = next((d for d in devices if chosen and chosen in (d[0], d[1])), None)
    pick = pick or next((d for d in devices if d[2]), devices[0])
    others = len(devices) - 1
    more = f"; {count_of(others, 'other input')} to pick from" if others else ""
    return Check("mic", True, f"Input: {pick[1]}{more}. Say a few words and watch the level.")


def dnd_check(paused: bool | None, automatic: bool = True) -> Check:
    """``automatic``: whether this desktop has a switch the app can work (else only
    the user can pause notifications, in the desktop's settings)."""
    if paused is None and not automatic:
        return Check(
            "do-not-disturb", None, "Cannot tell whether notifications are paused (this "
            "desktop has no switch the app can read): pause them in its notification settings.",
        )  # fmt: skip
    if paused is None:
        return Check(
            "do-not-disturb", None, "Cannot tell whether notifications are paused: "
            "turn do-not-disturb on below.",
        )  # fmt: skip
    if paused:
        return Check("do-not-disturb", True, "Notifications are paused.")
    return Check("do-not-disturb", False, "Notifications are on: turn do-not-disturb on.")


def screen_share_check() -> Check:
    return Check("screen-share", None, SCREEN_SHARE)
