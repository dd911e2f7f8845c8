"""`companion dnd status|on|off`: pause desktop notifications for a round, and restore them."""

from __future__ import annotations

from companion.commands.common import CommandError, say
from companion.core.dnd import DndError, controller_for, run_command


def register(parser) -> None:
    parser.description = (
        "Pause desktop notifications (GNOME, dunst, mako, macOS Focus via Shortcuts) and "
        "put back exactly the state they had before. KDE and other DBus notification "
        "servers only keep a pause while the app that asked runs: use the switch on the "
        "app's Today page there. Windows has no public API: the steps are shown."
    )
    parser.add_argument("action", choices=("status", "on", "off"), help="what to do")
    parser.set_defaults(func=run)


def run(args, ctx, *, which=None, runner=None, env=None, platform=None) -> int:
    import shutil

    controller = controller_for(
        ctx,
        holder="cli",
        which=which or shutil.which,
        run=runner or run_command,
        env=env,
        platform=platform,
    )
    adapter = controller.adapter
    try:
        if args.action == "on":
            say(controller.turn_on())
        elif args.action == "off":
            say(controller.turn_off())
        else:
            status = controller.status()
            state = {True: "paused", False: "on", None: "unknown"}[status.paused]
            say(f"adapter: {status.adapter}")
            say(f"notifications: {state}")
            say(status.text)
            if adapter.setup_hint():
                say(f"\nSetup: {adapter.setup_hint()}")
    except DndError as exc:
        raise CommandError(f"dnd {args.action}: {exc}") from None
    return 0
