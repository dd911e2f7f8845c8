"""What this desktop has been seen to do, for preflight: the last hotkey that fired and
the last notification shown, kept in the database's settings (``settings``:
companion.core.settings.Settings). On a desktop nobody has tested the app
on (macOS, Windows) these are the proofs that count: preflight says what happened here,
not what should."""

from __future__ import annotations

import datetime as dt

from companion.core.day.clock import clock_text
from companion.core.preflight.checks import Check
from companion.core.timeutil import parse_stored, to_stored

HOTKEY = "proof.hotkey"  # {"keys": "ctrl+alt+C", "through": "X11 key grab", "at": time}
NOTIFICATION = "proof.notification"  # {"channel": "dbus" | "tray" | "window", "at": time}


def record_hotkey(settings, keys: str, through: str, at: dt.datetime) -> None:
    """A hotkey fired (a journal that refuses the write: no proof this time)."""
    settings.keep(HOTKEY, {"keys": keys, "through": through, "at": to_stored(at)})


def record_notification(settings, channel: str, at: dt.datetime) -> None:
    settings.keep(NOTIFICATION, {"channel": channel, "at": to_stored(at)})


def _seen(settings, key: str) -> tuple[dict, dt.datetime] | None:
    """The record under ``key`` and its time; None when absent or not one we wrote."""
    value = settings.get(key)
    if not isinstance(value, dict):
        return None
    at = parse_stored(value.get("at"))
    return (value, at) if at is not None else None


def hotkey_check(settings, now: dt.datetime, try_keys: str) -> Check:
    """``try_keys``: the show-card keys in force ("" when none are bound)."""
    seen = _seen(settings, HOTKEY)
    if seen is None:
        if not try_keys:
            return Check("hotkeys", None, "No hotkey is bound: set them in Global hotkeys.")
        return Check(
            "hotkeys", None, f"No hotkey has fired here yet: press {try_keys} with the call "
            "app focused; the card should come up.",
        )  # fmt: skip
    value, at = seen
    return Check(
        "hotkeys", True, f"{value.get('keys', 'A hotkey')} worked at "
        f"{clock_text(at, now)} ({value.get('through', 'global hotkeys')}).",
    )  # fmt: skip


def notification_check(settings, now: dt.datetime) -> Check:
    seen = _seen(settings, NOTIFICATION)
    if seen is None:
        return Check(
            "notification", None, "No notification shown here yet: the next reminder will "
            "tell whether this desktop shows them.",
        )  # fmt: skip
    value, at = seen
    when = clock_text(at, now)
    channel = value.get("channel")
    if channel == "dbus":
        return Check("notification", True, f"The notification service showed one at {when}.")
    if channel == "tray":
        return Check(
            "notification", None, f"One was handed to the tray at {when}: if you did not see "
            "it, this desktop dropped it (macOS shows them only from a signed app).",
        )  # fmt: skip
    return Check(
        "notification", None, f"Reminders show in the app's window (last at {when}): this "
        "desktop offered no notification service or tray.",
    )  # fmt: skip
