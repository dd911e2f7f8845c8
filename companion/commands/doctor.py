"""`companion doctor [--repair | --restore [BACKUP]]`: report paths, schema, integrity,
backups and content errors. A check only reports; ``--repair`` creates what is missing,
migrates, and moves a damaged database aside (never deleting it); ``--restore`` puts a
backup back in place of the journal (the current file is moved aside first)."""

from __future__ import annotations

from companion.commands.common import CommandError, say
from companion.core import paths
from companion.core.fileio import planted, planted_folder
from companion.core.health import check_health
from companion.core.storage.backups import cut_short, sweep_cut_short
from companion.core.storage.health import repair_page_size
from companion.core.storage.store import (
    StorageError,
    foreign_backups,
    foreign_problem,
    list_backups,
    open_store,
)
from companion.core.storage.store import restore_backup as put_back
from companion.core.text import count_of
from companion.ui.process.single_instance import InstanceLock, InstanceLockError


def register(parser) -> None:
    parser.add_argument(
        "--repair",
        action="store_true",
        help="also fix what can be fixed: create the journal, upgrade it, move a damaged one aside",
    )
    parser.add_argument(
        "--restore",
        nargs="?",
        const="",
        metavar="BACKUP",
        help="put a backup (default: the newest in backups/) in place of the journal; "
        "the current journal is moved aside, never deleted",
    )
    parser.set_defaults(func=run)


def run(args, ctx) -> int:
    if getattr(args, "restore", None) is not None:
        return restore(args.restore, ctx)
    fixed = None
    if getattr(args, "repair", False) and ctx.db_path.is_file():
        try:  # before the open, which would move the whole journal aside
            fixed = repair_page_size(ctx.db_path, ctx.now())
        except OSError as exc:
            say(f"! could not repair the journal's header: {exc.strerror or exc}")
    report = check_health(ctx.data_dir, repair=getattr(args, "repair", False))
    left = _cut_short_note(paths.backup_dir(ctx.data_dir), getattr(args, "repair", False))
    for line in report.lines:
        say(line)
        if fixed and line.startswith("  database: "):
            say(f"  repaired: {fixed}")
        if left and line.lstrip("! ").startswith("backups: "):
            say(left)
    say("healthy" if report.healthy else "UNHEALTHY: see the lines marked !")
    return 0 if report.healthy else 1


def _cut_short_note(folder, repair: bool) -> str | None:
    """A line on the hidden copies of backups a SIGKILL cut short (a full-size copy each,
    removed by the next backup), or None; ``repair`` removes them now."""
    if repair:
        sweep_cut_short(folder)
    left = cut_short(folder)
    if not left:
        return None
    size = sum(p.stat().st_size for p in left if p.is_file()) / 1e6
    return (
        f"  backups/ holds {count_of(len(left), 'hidden copy', 'hidden copies')} of a backup "
        f"cut short or under way ({size:.1f} MB): the next backup or "
        "`companion doctor --repair` removes those a killed process left"
    )


def restore(name: str, ctx) -> int:
    """Put backup ``name`` (a file in backups/, or a path; "" = the newest) back."""
    from pathlib import Path

    folder = paths.backup_dir(ctx.data_dir)
    if name:
        chosen = Path(name).expanduser()
        if not chosen.is_absolute() and not chosen.exists():
            chosen = folder / name
        if not chosen.is_file():
            raise CommandError(f"doctor: there is no backup {name} (see `companion doctor`)")

        why = planted(chosen) or (
            planted_folder(chosen.parent) if chosen.parent == folder else None
        )
        if why:
            raise CommandError(
                f"doctor: {chosen} was not restored: it (or its folder) {why}, so anyone "
                "could have put it there; nothing was changed"
            )
    else:
        chosen = next(iter(list_backups(folder)), None)
        if chosen is None:
            why = foreign_backups(folder) if folder.is_dir() else None
            raise CommandError(
                f"doctor: {why}" if why else f"doctor: there is no backup in {folder} to restore"
            )
    try:
        check = open_store(chosen, read_only=True)
        check.close()
    except StorageError as exc:
        raise CommandError(f"doctor: {chosen} cannot be restored: {exc}") from None

    foreign = foreign_problem(ctx.db_path)
    if foreign:  # not ours to move aside: it is left as it is, like every other open
        raise CommandError(f"doctor: nothing was restored. {foreign}")
    lock = InstanceLock(ctx.data_dir)
    try:
        if not lock.acquire():
            raise CommandError(
                f"doctor: Interview Companion is running on {ctx.data_dir}; close it first"
            )
    except InstanceLockError as exc:
        raise CommandError(f"doctor: {exc.strerror}") from None
    try:
        ctx.close()
        moved = put_back(chosen, ctx.db_path)
    except OSError as exc:
        raise CommandError(f"doctor: could not restore {chosen}: {exc.strerror or exc}") from None
    finally:
        lock.release()
    aside = f"; the journal that was there is now {moved.name}" if moved else ""
    say(f"restored {ctx.db_path} from {chosen.name}{aside}")
    return 0
