"""`companion hotkeys`: the global hotkeys in force, one per line; rebind, reset, on/off."""

from __future__ import annotations

from companion.commands.common import CommandError, say
from companion.core import hotkeys as hk


def register(parser) -> None:
    parser.description = (
        "Global hotkeys drive the cue card while the video call has the focus. "
        "Without a sub-command, prints ACTION<TAB>KEYS for each binding in force."
    )
    parser.set_defaults(func=run, hotkeys_action="list")
    actions = parser.add_subparsers(dest="hotkeys_action", metavar="ACTION")
    set_parser = actions.add_parser("set", help="bind an action to keys, e.g. ctrl+alt+shift+G")
    set_parser.add_argument("action", help="show-card, next-step, previous-step, ...")
    set_parser.add_argument("keys", help='keys like ctrl+alt+Right, or "" to unbind')
    actions.add_parser("reset", help="back to the default keys")
    actions.add_parser("on", help="turn the global hotkeys on")
    actions.add_parser("off", help="turn the global hotkeys off (the bindings are kept)")


def run(args, ctx) -> int:
    prefs = ctx.prefs
    action = args.hotkeys_action or "list"
    if prefs.problem:  # the defaults are used; a change keeps the unreadable file aside
        say(f"companion hotkeys: {prefs.problem}", err=True)
    if action == "list":
        bindings = hk.bindings_in_force(prefs)
        for problem in bindings.problems:
            say(f"companion hotkeys: {problem}", err=True)
        if not bindings.enabled:
            say("companion hotkeys: hotkeys are off (`companion hotkeys on`)", err=True)
        for name, keys in bindings.in_force().items():
            say(f"{name}\t{keys}")
        return 0
    try:
        if action == "set":
            combo = hk.rebind(prefs, args.action, args.keys)
            message = f"{args.action}\t{combo}" if combo else f"{args.action} unbound"
        elif action == "reset":
            hk.reset(prefs)
            message = "hotkeys reset to the defaults"
        else:
            hk.set_enabled(prefs, action == "on")
            message = f"hotkeys {action}"
    except hk.HotkeyError as exc:
        raise CommandError(f"hotkeys {action}: {exc}", exit_code=2) from None
    error = prefs.save()
    if error:
        raise CommandError(error)
    if prefs.kept_aside is not None:
        say(
            f"companion hotkeys: the unreadable preferences were kept as {prefs.kept_aside}",
            err=True,
        )
    say(message)
    say("A running app picks the change up when it next starts.")
    return 0
