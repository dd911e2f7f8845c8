"""`companion preflight [--json]`: the minutes before a round checked in one pass (mic,
camera, do-not-disturb, programs that ping, power, the call link, screen share); the exit
status is 0 when no check failed."""

from __future__ import annotations

import json

from companion.commands.common import open_journal


def register(sub) -> None:
    parser = sub.add_parser(
        "preflight",
        help="before a round: mic, camera, do-not-disturb, pingers, power, link",
        description="Check what the minutes before a round need: an input device, a camera "
        "(never opened), do-not-disturb, programs that notify, the battery, the next round's "
        "call link and time. Exit status 0 when none failed (an unknown is not a failure).",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(func=run)


def mic_devices():
    """The inputs through the mic command's QtMultimedia seam; None when it cannot tell."""
    from companion.commands.mic import _app
    from companion.ui.voice.listener import AudioUnavailable, input_devices

    _app()
    try:
        return input_devices()
    except AudioUnavailable:
        return None


def dnd_state(ctx) -> tuple[bool | None, str]:
    from companion.core.dnd import DndError, controller_for

    try:
        status = controller_for(ctx, holder="cli").status()
    except DndError:
        return None, "the notification server"
    return status.paused, status.adapter


def gather(ctx, *, devices=None, power_bus: str = "SYSTEM"):
    """(round info, checks) as of now; ``devices`` a listing already made (the GUI's)."""
    from companion.core.preflight import checks, link, pingers, power

    info = link.round_info(link.next_round(ctx.db, ctx.now()))
    paused, adapter = dnd_state(ctx)
    return info, [
        checks.mic_check(mic_devices() if devices is None else devices),
        checks.camera_check(),
        checks.dnd_check(paused, adapter),
        pingers.pingers_check(pingers.find_pingers()),
        power.power_check(power.read_display_device(power_bus)),
        link.link_check(info),
        checks.screen_share_check(),
    ]


def run(args, ctx) -> int:
    import os

    from companion.core.preflight import exit_status, preflight_json

    open_journal(ctx)
    # the tests' UPower stand-in lives on the private session bus
    bus = "SESSION" if os.environ.get("COMPANION_UPOWER_BUS") == "session" else "SYSTEM"
    info, found = gather(ctx, power_bus=bus)
    if args.json:
        print(json.dumps(preflight_json(info, found), indent=2))
    else:
        mark = {True: "ok ", False: "DO ", None: " ? "}
        for check in found:
            print(f"{mark[check.ok]} {check.id:15} {check.say}")
    return exit_status(found)
