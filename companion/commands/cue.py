"""`companion cue [--round TYPE]`: the cue card on its own, without the main window."""

from __future__ import annotations

from companion.commands.common import CommandError, open_journal, say
from companion.core import paths
from companion.core.cue.rounds import round_infos
from companion.core.day.loops import custom_types
from companion.core.day.schedule import guess_round_type
from companion.core.paths import DataDirError, ensure_private_dir
from companion.core.sigint import deferred_sigint
from companion.ui.process.single_instance import (
    InstanceLock,
    cue_message,
    hand_over_waiting,
    server_name,
)


def register(parser) -> None:
    parser.description = (
        "Open the cue card without the main window. Keys when the card has "
        "focus: 1-9 round type, Left/Right or Space step, G glance, Ctrl+Enter start/end."
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
    infos = round_infos(ctx.content)
    wanted = getattr(args, "round", None)
    listing = getattr(args, "list", False)
    ids = {i.id for i in infos}
    customs = _custom_types(ctx, ids) if listing or (wanted and wanted not in ids) else []
    if listing:
        for info in infos:
            say(f"{info.key or '-'}  {info.id:<16} {info.title}")
        for type_id, words in customs:
            say(f"-  {type_id:<16} {words} (custom, from the journal)")
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

    try:
        ensure_private_dir(ctx.data_dir)
    except DataDirError as exc:
        raise CommandError(f"cue: {exc}") from None
    lock = InstanceLock(ctx.data_dir)
    if not lock.acquire():
        # the app (or another card) runs on this folder: its card comes up instead
        if hand_over_waiting(server_name(ctx.data_dir), message=cue_message(wanted or "")):
            say("Interview Companion is running: its cue card is shown.")
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


def _custom_types(ctx, known: set[str]) -> list[tuple[str, str]]:
    """The journal's custom round types (none when there is no journal yet)."""

    if not paths.db_path(ctx.data_dir).exists():
        return []
    open_journal(ctx)
    return custom_types(ctx.db, known)


def _run_gui(ctx, round_type: str | None) -> int:
    # PySide6 and the card load only here, once the lock is held (this module is imported
    # by every command's parser), and a Ctrl+C in their import waits for it to finish
    with deferred_sigint():  # seam: qt (PySide6 does not survive a Ctrl+C in its import)
        from companion.ui.process.card_launch import run_card
    return run_card(ctx, round_type)
