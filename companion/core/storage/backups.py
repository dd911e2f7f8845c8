"""Backups of the journal: taken (daily and before an upgrade), listed, rotated, refused
in a folder someone else could write, and restored under SQLite's own locks."""

from __future__ import annotations

import contextlib
import datetime as dt
import errno
import os
import re
import shutil
import sqlite3
from pathlib import Path

from companion.core import paths
from companion.core.fileio import planted, planted_folder
from companion.core.platform import locks
from companion.core.storage.errors import BackupError, busy_timeout_s, os_reason
from companion.core.storage.files import private_temp, sweep_stale_temps
from companion.core.storage.health import aside_name, health, move_aside, read_only_uri

SIDE_SUFFIXES = ("-wal", "-shm")


KEEP_BACKUPS = 10


BACKUP_EVERY = dt.timedelta(days=1)


def backup(
    conn: sqlite3.Connection,
    folder: Path,
    when: dt.datetime,
    *,
    keep: int = KEEP_BACKUPS,
    reason: str = "",
    checked: bool = False,
) -> Path | None:
    """Copy the database into ``folder`` if it passes quick_check; keep the newest ``keep``.
    ``checked``: the caller has just run quick_check on it (and written nothing since)."""
    if not checked and conn.execute("PRAGMA quick_check").fetchone()[0] != "ok":
        return None
    try:
        paths.ensure_private_dir(folder)
    except paths.DataDirError as exc:
        raise BackupError(f"the backups folder cannot be used ({exc}).") from None
    foreign = foreign_backups(folder)
    if foreign:
        raise BackupError(foreign)
    name = f"companion-{when.strftime('%Y%m%d-%H%M%S')}{'-' + reason if reason else ''}.sqlite3"
    target = folder / name
    sweep_cut_short(folder)  # a backup SIGKILL cut short was never done: this one is due
    try:
        fd, tmp = private_temp(folder, name)  # unique per run: concurrent backups never collide
    except OSError as exc:
        raise BackupError(f"no backup can be written in {folder} ({os_reason(exc)}).") from None
    os.close(fd)
    try:
        dest = sqlite3.connect(str(tmp))
        try:
            conn.backup(dest)
            dest.execute("PRAGMA journal_mode = DELETE")  # one self-contained file
        finally:
            dest.close()
        os.chmod(tmp, 0o600)
        os.replace(tmp, target)
    except BaseException as exc:
        for leftover in (tmp, *(tmp.with_name(tmp.name + s) for s in (*SIDE_SUFFIXES, "-journal"))):
            with contextlib.suppress(OSError):
                leftover.unlink()
        if isinstance(exc, (OSError, sqlite3.OperationalError)):
            why = os_reason(exc) if isinstance(exc, OSError) else str(exc)
            raise BackupError(f"the backup {target} could not be written ({why}).") from None
        raise
    stamp = when.timestamp()
    os.utime(target, (stamp, stamp))  # the app's clock decides when the next one is due
    for old in list_backups(folder)[keep:]:
        with contextlib.suppress(OSError):
            old.unlink()
    return target


_CUT_SHORT = re.compile(r"\.(companion-[\w-]+\.sqlite3)\.(\d+)-[^/]*\.tmp")


def cut_short(folder: Path) -> list[Path]:
    """The hidden copies of backups (a full-size copy each) in ``folder``: left by a
    process killed mid-backup, or one being written right now."""
    try:
        return sorted(Path(e.path) for e in os.scandir(folder) if _CUT_SHORT.fullmatch(e.name))
    except OSError:
        return []


def sweep_cut_short(folder: Path) -> None:
    """Remove the copies :func:`cut_short` finds whose writer is gone (ours, regular)."""
    for name in {_CUT_SHORT.fullmatch(p.name).group(1) for p in cut_short(folder)}:
        sweep_stale_temps(folder, name)


def list_backups(folder: Path) -> list[Path]:
    """Backups, newest first: regular files of ours in a folder of ours. A backup another
    user owns or others may write (or any file in such a folder) is never listed, so it
    is never restored, rotated or taken as the newest."""

    try:
        if not folder.is_dir() or foreign_backups(folder):
            return []
        found = [p for p in folder.glob("companion-*.sqlite3") if p.is_file() and not planted(p)]
    except OSError:
        return []
    return sorted(found, key=lambda p: p.name, reverse=True)


def foreign_backups(folder: Path) -> str | None:
    """Why the backups folder must not be written into nor restored from, or None."""

    why = planted_folder(folder)
    if why is None:
        return None
    return (
        f"the backups folder {folder} {why}, so the app neither writes a backup there nor "
        "restores one from it (anyone who can write it could plant one); `chown` it to you "
        "and `chmod 700` it if it is yours, or move it away."
    )


def backup_due(folder: Path, when: dt.datetime) -> bool:
    newest = next(iter(list_backups(folder)), None)
    if newest is None:
        return True
    try:
        age = when.timestamp() - newest.stat().st_mtime
    except OSError:  # removed meanwhile
        return True
    return age >= BACKUP_EVERY.total_seconds()


class JournalInUseError(OSError):
    """Another process has the journal open; its ``strerror`` says so in one line."""


def restore_backup(backup_file: Path, path: Path) -> Path | None:
    """Put ``backup_file`` in place of the database; the current file is moved aside first.
    Refused (:class:`JournalInUseError`) while another process has the journal open: its
    connection would go on writing the old journal's pages into the ``-wal`` beside the
    restored one (`demo` during `doctor --restore` left a malformed journal)."""
    path = Path(path)
    if path.exists():
        aside = _restore_through_sqlite(backup_file, path)
        if aside is not None:
            return aside
    with _held_exclusively(path):
        moved = move_aside(path, dt.datetime.now()) if path.exists() else None
        fd, tmp = private_temp(path.parent, path.name, ".restoring")
        try:
            with open(backup_file, "rb") as src, os.fdopen(fd, "wb") as dst:
                shutil.copyfileobj(src, dst)
            os.replace(tmp, path)
        except BaseException:
            with contextlib.suppress(OSError):
                tmp.unlink()
            raise
    return moved


def _restore_through_sqlite(backup_file: Path, path: Path) -> Path | None:
    """A journal SQLite can open is never swapped under another process: it is copied
    aside (``.damaged-<time>``, as a moved journal is named) and the backup is written
    into it through SQLite's backup API, under SQLite's own locks, so a connection open
    elsewhere (`demo` running meanwhile) sees the restored journal and nothing mixes.
    Returns the copy, or None when the file cannot be opened that way (damaged): then
    the caller moves it aside."""
    problem, _ = health(path, full=False)
    if problem:
        return None
    try:
        live = sqlite3.connect(str(path), timeout=busy_timeout_s(), isolation_level=None)
    except sqlite3.Error:
        return None
    try:
        live.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()
        aside = aside_name(path, dt.datetime.now())
        _copy_database(live, aside)
        source = sqlite3.connect(read_only_uri(Path(backup_file)), uri=True)
        try:
            source.backup(live)
        finally:
            source.close()
    except sqlite3.DatabaseError:
        return None
    finally:
        live.close()
    return aside


def _copy_database(db: sqlite3.Connection, target: Path) -> None:
    """A private, self-contained copy of ``db`` at ``target`` (written beside it, then
    renamed into place)."""
    fd, tmp = private_temp(target.parent, target.name)
    os.close(fd)
    try:
        dest = sqlite3.connect(str(tmp))
        try:
            db.backup(dest)
            dest.execute("PRAGMA journal_mode = DELETE")
        finally:
            dest.close()
        os.replace(tmp, target)
    except BaseException:
        for leftover in (tmp, tmp.with_name(tmp.name + "-journal")):
            with contextlib.suppress(OSError):
                leftover.unlink()
        raise


# SQLite's lock bytes in the database file (os_unix.c): PENDING, RESERVED, then the
# SHARED range. Every open WAL connection keeps a SHARED lock there from its first read
# until it closes, so an exclusive lock on the range means nobody else has it open.
_LOCK_START = 0x40000000


_LOCK_LENGTH = 2 + 510


@contextlib.contextmanager
def _held_exclusively(path: Path):
    """Hold SQLite's own locks on ``path`` (POSIX advisory locks) for the block: no other
    connection has it open meanwhile, and none can start a read until it ends."""
    if not locks.has_flock():  # Windows: SQLite's locks there are not fcntl's
        yield
        return
    try:
        fd = os.open(path, os.O_RDWR | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        yield  # no journal: nothing to protect
        return
    try:
        if not locks.try_lock_range(fd, _LOCK_START, _LOCK_LENGTH):
            raise JournalInUseError(
                errno.EBUSY,
                f"the journal {path} is open in another program (Interview Companion or a "
                "command); nothing was restored: try again when it is done",
                str(path),
            )
        yield
    finally:
        os.close(fd)  # releases the lock
