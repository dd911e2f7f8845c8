"""`companion cue [--round TYPE]`: the cue card on its own, without the main window."""

from __future__ import annotations

import sys

from companion.commands.common import CommandError, open_journal


def register(sub) -> None:
    parser = sub.add_parser(
        "cue",
        help="open the always-on-top cue card on its own",
        description="Open the cue card without the main window. Keys when the card has "
        "focus: 1-9 round type, Left/Right or Space step, G glance, Ctrl+Enter start/end.",
    )
    parser.add_argument(
        "--round",
        metavar="TYPE",
        help="round type id from the content (opening, design, coding, ...); "
        "default: the last one used",
    )
    parser.add_argument("--list", action="store_true", help="list the round types and exit")
    parser.set_defaults(func=run)


def run(args, ctx) -> int:
    from companion.core.cue.rounds import round_infos

    infos = round_infos(ctx.content)
    if getattr(args, "list", False):
        for info in infos:
            print(f"{info.key or '-'}  {info.id:<16} {info.title}")
        return 0
    if not infos:
        raise CommandError(
            "cue: the content has no round types (a `kind: rounds` file); "
            "run `companion content check`."
        )
    wanted = getattr(args, "round", None)
    if wanted and wanted not in {i.id for i in infos}:
        known = ", ".join(i.id for i in infos)
        raise CommandError(f"cue: unknown round type {wanted!r}; use one of: {known}", 2)
    # rounds started on the card go into the real journal, never a throwaway one
    open_journal(ctx)
    return _run_gui(ctx, wanted)


def _run_gui(ctx, round_type: str | None) -> int:
    from companion.ui.app import create_application

    app = create_application(sys.argv[:1])
    from companion.ui.bus import AppBus
    from companion.ui.cue.notes import open_capture
    from companion.ui.cue.window import open_cue_card

    bus = AppBus()
    dialogs: list = []
    card = open_cue_card(ctx, bus, round_type)

    def capture(round_id: int) -> None:
        dialog = open_capture(ctx, bus, round_id)
        if dialog is not None:
            dialogs.append(dialog)

    bus.capture_round.connect(capture)
    # the card is the only window: quit when it closes unless a notes box is still open
    app.setQuitOnLastWindowClosed(True)
    code = app.exec()
    del card
    return code
