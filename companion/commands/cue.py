"""`companion cue [--round TYPE]`: the cue card on its own, without the main window."""

from __future__ import annotations

import sys

from companion.commands.common import CommandError, open_journal
from companion.core.day.schedule import guess_round_type


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
    wanted = getattr(args, "round", None)
    listing = getattr(args, "list", False)
    ids = {i.id for i in infos}
    customs = _custom_types(ctx, ids) if listing or (wanted and wanted not in ids) else []
    if listing:
        for info in infos:
            print(f"{info.key or '-'}  {info.id:<16} {info.title}")
        for type_id, words in customs:
            print(f"-  {type_id:<16} {words} (custom, from the journal)")
        return 0
    if not infos:
        raise CommandError(
            "cue: the content has no round types (a `kind: rounds` file); "
            "run `companion content check`."
        )
    if wanted and wanted not in ids:
        words = dict(customs).get(wanted)
        if words is None:
            known = ", ".join([i.id for i in infos] + [t for t, _w in customs])
            raise CommandError(f"cue: unknown round type {wanted!r}; use one of: {known}", 2)
        # a custom type shows the page of the type its words name, else the day's own
        wanted = guess_round_type(words, [(i.id, i.title) for i in infos]) or ""
    from companion.core.paths import DataDirError, ensure_private_dir
    from companion.ui.process.single_instance import (
        InstanceLock,
        cue_message,
        hand_over_waiting,
        server_name,
    )

    try:
        ensure_private_dir(ctx.data_dir)
    except DataDirError as exc:
        raise CommandError(f"cue: {exc}") from None
    lock = InstanceLock(ctx.data_dir)
    if not lock.acquire():
        # the app (or another card) runs on this folder: its card comes up instead
        if hand_over_waiting(server_name(ctx.data_dir), message=cue_message(wanted or "")):
            print("Interview Companion is running: its cue card is shown.")
            return 0
        raise CommandError(
            f"another Interview Companion holds {ctx.data_dir} but does not answer; "
            "close it or use --data-dir elsewhere."
        )
    try:
        # rounds started on the card go into the real journal, never a throwaway one
        open_journal(ctx)
        return _run_gui(ctx, wanted)
    finally:
        lock.release()


def open_main(ctx, bus, day, mains: list):
    """The main window in the card's process (made once, on the card's session: its
    pages are handed the session's day service), brought to the front. ``mains`` holds it."""
    if not mains:
        from companion.ui.mainwindow import MainWindow

        mains.append(MainWindow(ctx, bus, day=lambda: day))
    window = mains[0]
    window.bring_to_front()
    return window


def _custom_types(ctx, known: set[str]) -> list[tuple[str, str]]:
    """The journal's custom round types (none when there is no journal yet)."""
    from companion.core import paths
    from companion.core.day.loops import custom_types

    if not paths.db_path(ctx.data_dir).exists():
        return []
    open_journal(ctx)
    return custom_types(ctx.db, known)


def _run_gui(ctx, round_type: str | None) -> int:
    from companion.core.sigint import deferred_sigint

    with deferred_sigint():  # seam: qt (PySide6 does not survive a Ctrl+C in its import)
        from companion.ui.app import create_application

    app = create_application(sys.argv[:1])
    from companion.ui.process.interrupt import SigintQuit

    cards: list = []  # Ctrl+C: as closing the card (before the card: just quit)
    sigint = SigintQuit(lambda: (cards[0].close() if cards else None, app.quit()))
    from companion.ui.theme import finish_theme

    finish_theme(app)  # the card alone: its whole look before it is built
    from companion.ui.bus import AppBus
    from companion.ui.process.single_instance import make_server, server_name
    from companion.ui.session import Session

    bus = AppBus()
    # the same session the main app builds: the day service, the captures, the hotkeys
    session = Session(ctx, bus, app)
    card = session.show_cue_card(round_type or "")
    cards.append(card)
    session.day.start()  # the card follows the day here too
    session.start_hotkeys()
    server = make_server(server_name(ctx.data_dir), card)
    mains: list = []  # `companion` run while the card runs: the main window opens here
    server.raise_requested.connect(
        lambda: (card.show_card(), open_main(ctx, bus, session.day, mains))
    )
    server.cue_requested.connect(lambda rtype: (card.set_round(rtype), card.show_card()))
    # the card (a tool window Qt does not count) is what the user closes: quit then, or
    # once the last capture is closed after it; closing a capture alone quits nothing
    app.setQuitOnLastWindowClosed(False)

    closed: list[bool] = []

    def maybe_quit() -> None:
        idle = session.captures.open_one() is None and not any(w.isVisible() for w in mains)
        if closed and not card.isVisible() and idle:
            app.quit()

    card.closed.connect(lambda: (closed.append(True), maybe_quit()))
    session.captures.changed.connect(maybe_quit)
    app.lastWindowClosed.connect(maybe_quit)  # the main window, closed after the card
    code = sigint.exec(app.exec)
    server.close()
    session.shutdown()
    return code
