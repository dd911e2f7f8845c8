"""What the headless commands share: open the real journal or say why not, read an
``--at`` time, and check where an output file goes. A :class:`CommandError` is printed by the CLI as one line.
Every line a command writes goes through :func:`~companion.core.text.say`."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from companion.core import paths
from companion.core.paths import own_file
from companion.core.storage.backups import list_backups
from companion.core.storage.files import NotARegularFileError, check_replaceable
from companion.core.timeutil import parse_stored, to_local

__all__ = ["CommandError", "open_journal", "output_path", "parse_moment", "say"]
from companion.core.text import say


class CommandError(Exception):
    """A problem the user must read; ``exit_code`` 1 for failures, 2 for usage."""

    def __init__(self, message: str, exit_code: int = 1):
        super().__init__(message)
        self.exit_code = exit_code


def open_journal(ctx, *, read_only: bool = False):
    """``ctx`` with its database open. Unlike the GUI, a command never falls back to a
    throwaway in-memory journal: what it writes would silently vanish. ``read_only``
    (exports, analyze) opens it so that nothing is written to the file."""
    if read_only:
        ctx.use_read_only_store()
        if ctx.storage_problem:
            raise CommandError(ctx.storage_problem)
    store = ctx.store  # open (and migrate) now so problems surface here
    if ctx.storage_problem:
        raise CommandError(ctx.storage_problem)
    if store.moved_aside is not None:
        raise CommandError(_moved_aside_message(ctx, store))
    for notice in store.notices:
        say(f"companion: warning: {' '.join(notice.split())}", err=True)
    return ctx


def _moved_aside_message(ctx, store) -> str:
    """The journal was damaged and moved aside on this open: say what, where, and how to
    get it back; the command itself does not run on the new, empty journal."""
    newest = next(iter(list_backups(paths.backup_dir(ctx.data_dir))), None)
    restore = (
        f"`companion doctor --restore` puts back the newest backup ({newest.name})"
        if newest is not None
        else "there is no backup to restore"
    )
    return (
        f"{store.notices[0]} This command did not run, so nothing was changed in it: "
        f"{restore}; or run the command again to use the new journal."
    )


def parse_moment(text: str) -> dt.datetime:
    """``--at`` read by the rule for stored times (no zone: local time); a moment given
    with another zone is the same instant on this machine's clock, in the local zone with
    its rules (a fixed offset would show the dates after a clock change an hour off)."""
    moment = parse_stored(text.strip())
    if moment is None:
        raise CommandError(
            f"--at {text!r} is not an ISO-8601 time, e.g. 2026-12-01T09:50", exit_code=2
        )
    return to_local(moment)


def output_path(path: Path | str | None, option: str = "-o", *, data_dir=None) -> Path:
    """``path`` with ``~`` expanded, if it names a file (or nothing yet) in a folder that
    exists; an empty name, a folder, a device or a FIFO is refused with one line, and so
    is one of the data folder's own files (``data_dir``): the journal, prefs, a backup."""
    if path is None or not str(path).strip():
        raise CommandError(f"{option} is empty: give the name of a file to write", exit_code=2)
    path = Path(path).expanduser()
    if data_dir is not None:
        mine = own_file(data_dir, path)
        if mine is not None:
            what = f"is {mine}" if Path(mine) == path else f"leads to {mine}"
            raise CommandError(
                f"{option} {path} {what}, one of the app's own files in the data folder: it "
                "was not overwritten. Give another file name.",
                exit_code=2,
            )

    try:
        check_replaceable(path)
    except NotARegularFileError as exc:
        raise CommandError(f"{exc.strerror}; give a file name", exit_code=2) from None
    if not path.parent.is_dir():
        raise CommandError(f"the folder {path.parent} does not exist", exit_code=2)
    return path
