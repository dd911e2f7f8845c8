"""`companion preflight [--json]`: the minutes before a round checked in one pass (mic,
camera, do-not-disturb, whether a hotkey and a notification have worked on this desktop,
programs that ping, power, the call link, screen share); the exit status is 0 when no
check failed."""

from __future__ import annotations

import json

from companion.commands.common import open_journal, say
from companion.core.dnd import DndError, controller_for
from companion.core.preflight import exit_status, preflight_json
from companion.core.preflight.run import gather


def register(parser) -> None:
    parser.description = (
        "Check what the minutes before a round need: an input device, a camera "
        "(never opened), do-not-disturb, the last hotkey that fired and notification that "
        "showed, programs that notify, the battery, the next round's "
        "call link and time. Exit status 0 when none failed (an unknown is not a failure)."
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(func=run)


def mic_devices():
    """The inputs through the mic command's QtMultimedia seam; None when it cannot tell."""
    from companion.commands.mic import _app  # seam: voice
    from companion.ui.voice.listener import AudioUnavailable, input_devices

    _app()
    try:
        return input_devices()
    except AudioUnavailable:
        return None


def dnd_state(ctx) -> tuple[bool | None, bool]:
    """(paused or None, whether there is a switch the app can work)."""

    try:
        status = controller_for(ctx, holder="cli").status()
    except DndError:
        return None, True
    return status.paused, status.automatic


def run(args, ctx) -> int:
    import os

    open_journal(ctx)
    # the tests' UPower stand-in lives on the private session bus
    bus = "SESSION" if os.environ.get("COMPANION_UPOWER_BUS") == "session" else "SYSTEM"
    paused, automatic = dnd_state(ctx)
    info, found = gather(
        ctx.db,
        ctx.now(),
        devices=mic_devices(),
        dnd_paused=paused,
        dnd_automatic=automatic,
        power_bus=bus,
        prefs=ctx.prefs,
        settings=ctx.settings,
    )
    if args.json:
        say(json.dumps(preflight_json(info, found), indent=2), data=True)
    else:
        mark = {True: "ok ", False: "DO ", None: " ? "}
        for check in found:
            say(f"{mark[check.ok]} {check.id:15} {check.say}")
    return exit_status(found)
