"""Opening the journal database safely: WAL, foreign keys, the refusals (a device, a
planted file, a newer schema), then the pending migrations and the daily backup.

A file that is not a healthy SQLite database is moved aside (never deleted) and a fresh
one is created; the caller is told through :attr:`Store.notices` and can offer
:func:`backups.restore_backup`. The jobs around opening have their own modules:
``errors`` (what a failure says), ``health`` (the file from outside), ``migrations`` and
``backups``.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import errno
import os
import sqlite3
import stat
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from companion.core import paths
from companion.core.fileio import planted
from companion.core.platform import locks
from companion.core.platform.files import NOFOLLOW, describe_kind
from companion.core.storage.backups import (  # noqa: F401 (re-exported: the callers' one door)
    KEEP_BACKUPS,
    SIDE_SUFFIXES,
    JournalInUseError,
    backup,
    backup_due,
    foreign_backups,
    list_backups,
    restore_backup,
)
from companion.core.storage.errors import (  # noqa: F401 (re-exported)
    BackupError,
    NewerSchemaError,
    StorageError,
    busy_timeout_s,
    explain_database_error,
    explain_operational,
    os_reason,
)
from companion.core.storage.files import (  # noqa: F401 (re-export)
    atomic_write_bytes,
    atomic_write_text,
    private_temp,
)
from companion.core.storage.health import health, move_aside, read_only_uri  # noqa: F401
from companion.core.storage.migrations import (
    check_not_newer,
    known_steps,
    migrate,
    pending_steps,
    table_names,
    upgrade_due,
)

if TYPE_CHECKING:
    from sqlite_utils import Database


@dataclass
class Store:
    conn: sqlite3.Connection
    path: Path | None
    backup_dir: Path | None = None
    notices: list[str] = field(default_factory=list)
    moved_aside: Path | None = None
    read_only: bool = False
    pending_migrations: int = 0  # read-only opens of an older schema: steps not applied
    _db: Database | None = field(default=None, repr=False)

    @property
    def db(self) -> Database:
        """sqlite-utils' view of the connection, made when first asked for: a command
        that only reads through ``conn`` (``about rehearse`` on the saved one-pager)
        never imports sqlite-utils, 10 MiB of its 40 MiB budget."""
        if self._db is None:
            from companion.core.storage.database import JournalDatabase  # seam: journal

            self._db = JournalDatabase(self.conn)
        return self._db

    @property
    def commits(self) -> int:
        """Write transactions committed through ``db`` so far."""
        return getattr(self._db, "commits", 0)

    def close(self) -> None:
        with contextlib.suppress(sqlite3.Error):
            self.conn.close()

    def schema_version(self) -> int:
        return self.conn.execute("PRAGMA user_version").fetchone()[0]

    def quick_check(self) -> str:
        return self.conn.execute("PRAGMA quick_check").fetchone()[0]


def open_store(
    path: Path,
    *,
    backup_dir: Path | None = None,
    keep_backups: int = KEEP_BACKUPS,
    now: Callable[[], dt.datetime] = dt.datetime.now,
    read_only: bool = False,
) -> Store:
    """Open (creating or migrating) the database at ``path``; raise StorageError on failure.

    ``read_only=True`` (doctor, exports, analyze) never writes: no folder or file is
    created, nothing is migrated, moved aside, backed up or chmod-ed, and the connection
    itself is read-only; a missing or damaged file raises StorageError instead."""
    path = Path(path)
    backup_dir = backup_dir or paths.backup_dir(path.parent)
    busy_timeout_s()  # a bad COMPANION_BUSY_TIMEOUT is one line, before anything is done
    _refuse_non_regular(path)
    problem = foreign_problem(path)
    if problem:
        raise StorageError(problem)
    if read_only:
        return _open_read_only(path, backup_dir)
    try:
        paths.ensure_private_dir(path.parent)
    except (OSError, paths.DataDirError) as exc:
        why = os_reason(exc) if isinstance(exc, OSError) else str(exc)
        raise StorageError(f"Cannot use the data folder {path.parent}: {why}") from None

    unwritable = paths.not_writable(path.parent)
    if unwritable:  # the read-only rule: SQLite could still write a journal whose -wal
        # and -shm a read-only command left there; doctor says the app does not open it
        raise StorageError(
            f"The data folder {path.parent} {unwritable}: the journal there is not opened "
            "for writing, and nothing was changed. `companion journal export` still reads "
            "it; `--data-dir` on a writable copy of the folder works in full."
        )
    notices: list[str] = []
    moved = None
    checked = False  # quick_check ran on the file and passed
    if path.exists():
        # the full scan (quick_check reads every page: ~0.8 s at 100,000 loops) runs once
        # a day, with the daily backup, and before an upgrade; other opens check the header
        full = backup_due(backup_dir, now()) or upgrade_due(path)
        problem, checked = health(path, full=full)
        if problem:
            if not os.access(path.parent, os.W_OK):
                raise StorageError(
                    f"The data folder {path.parent} is not writable, and the journal there "
                    f"{problem}. Nothing was changed; fix the folder's permissions."
                )
            try:
                moved = move_aside(path, now())
            except OSError as exc:
                raise StorageError(
                    f"The journal {path} {problem}, and it could not be moved aside "
                    f"({os_reason(exc)}). Nothing was changed."
                ) from None
            notices.append(
                f"The journal database {path} {problem}. It was moved aside to {moved.name} "
                "(nothing was deleted) and a new, empty journal was started."
            )
    _prepare_private(path)
    try:
        with _first_open_lock(path.parent):
            conn = _connect(path)
            check_not_newer(conn, path)  # before WAL: switching modes rewrites the header
            if conn.execute("PRAGMA journal_mode").fetchone()[0].lower() != "wal":
                conn.execute("PRAGMA journal_mode = WAL")  # must run outside a transaction
            store = Store(
                conn=conn, path=path, backup_dir=backup_dir, notices=notices, moved_aside=moved
            )
            pending = pending_steps(conn)
            fresh = not table_names(conn)
            if fresh:  # nothing to back up: create it while the others wait
                migrate(store.db, pending)
                pending = set()
        # a backup taken before anything is written need not run quick_check again
        if pending and not fresh:
            try:
                backup(
                    conn,
                    backup_dir,
                    now(),
                    keep=keep_backups,
                    reason="pre-migration",
                    checked=checked,
                )
            except BackupError as exc:
                conn.close()
                raise StorageError(
                    f"The journal {path} needs an upgrade, but {exc} Nothing was changed."
                ) from None
        migrate(store.db, pending)
        if not fresh and backup_due(backup_dir, now()):
            try:
                backup(
                    conn,
                    backup_dir,
                    now(),
                    keep=keep_backups,
                    reason="daily",
                    checked=checked and not pending,
                )
            except BackupError as exc:  # the journal itself is fine: say so, go on
                notices.append(f"The daily backup was not taken: {exc}")
    except sqlite3.OperationalError as exc:
        raise StorageError(explain_operational(exc, path)) from None
    _tighten(path)
    return store


def _first_open_lock(folder: Path):
    """Hold an exclusive lock on the data folder while a journal is switched to WAL and
    created. Two processes opening a new journal at once otherwise meet inside SQLite's
    mode switch: one holds the write lock to create the tables while the other waits to
    change the journal mode, and SQLite answers one of them 'database is locked' without
    waiting (seen with four processes under load). It lasts milliseconds, and waits at
    most the busy timeout (then SQLite's busy timeout says the rest)."""
    return locks.folder_lock(folder, busy_timeout_s())


def open_upgraded_copy(path: Path, backup_dir: Path | None = None) -> Store:
    """An older journal for reading (exports, analyze): copied into memory and upgraded
    there, so the file is never written (no upgrade in place, no pre-migration backup)
    and a read-only folder or mount works too."""
    source = open_store(path, read_only=True, backup_dir=backup_dir)
    conn = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
    try:
        source.conn.backup(conn)
    except sqlite3.Error as exc:
        conn.close()
        raise StorageError(f"Cannot read the journal {path}: {exc}") from None
    finally:
        source.close()
    conn.execute("PRAGMA foreign_keys = ON")
    store = Store(conn=conn, path=path, backup_dir=backup_dir, read_only=True)
    try:
        migrate(store.db, pending_steps(conn))
    except sqlite3.Error as exc:
        conn.close()
        raise StorageError(f"Cannot upgrade a copy of the journal {path}: {exc}") from None
    return store


def open_memory_store() -> Store:
    """A throwaway store, used when the real one cannot be opened, so the app still starts."""
    conn = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
    conn.execute("PRAGMA foreign_keys = ON")
    store = Store(conn=conn, path=None, read_only=True)
    migrate(store.db, known_steps())
    return store


def _connect(path: Path) -> sqlite3.Connection:
    conn = sqlite3.connect(
        str(path), timeout=busy_timeout_s(), isolation_level=None, check_same_thread=False
    )
    conn.execute("PRAGMA foreign_keys = ON")
    conn.execute("PRAGMA synchronous = NORMAL")
    return conn


def _open_read_only(path: Path, backup_dir: Path) -> Store:
    if not path.exists():
        raise StorageError(f"There is no journal at {path} yet; nothing to read.")
    # the header only: a full quick_check reads every page (doctor runs integrity_check
    # itself), and damage elsewhere surfaces as an error on the read that meets it
    problem, _checked = health(path, full=False)
    if problem:
        raise StorageError(
            f"The journal {path} {problem}. Nothing was changed; `companion doctor --repair` "
            "moves it aside and starts a new one."
        )
    try:
        conn = _connect_read_only(path)
        check_not_newer(conn, path)
        pending = len(pending_steps(conn)) if table_names(conn) else len(known_steps())
    except sqlite3.OperationalError as exc:
        raise StorageError(explain_operational(exc, path)) from None
    except sqlite3.DatabaseError as exc:
        raise StorageError(f"Cannot read the journal {path}: {exc}") from None
    _tighten_side_files(path)  # SQLite may have just made them with the database's mode
    return Store(
        conn=conn, path=path, backup_dir=backup_dir, read_only=True, pending_migrations=pending
    )


def _connect_read_only(path: Path) -> sqlite3.Connection:
    """A read-only connection. A journal in WAL mode needs its ``-shm`` to be created
    even to read; in a folder the user cannot write (their data on a read-only disk, a
    0500 folder) that fails, so a journal with no pending ``-wal`` is opened immutable
    instead (no locks, no side files): it can still be read and exported."""

    def connect(immutable: bool) -> sqlite3.Connection:
        conn = sqlite3.connect(
            read_only_uri(path, immutable=immutable),
            uri=True,
            timeout=busy_timeout_s(),
            isolation_level=None,
            check_same_thread=False,
        )
        conn.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()
        return conn

    try:
        return connect(immutable=False)
    except sqlite3.OperationalError as exc:
        text = str(exc)
        if "readonly" not in text and "read-only" not in text and "unable to open" not in text:
            raise
        if os.access(path.parent, os.W_OK):
            raise
        wal = path.with_name(path.name + "-wal")
        try:
            pending = wal.stat().st_size > 0
        except OSError:
            pending = False
        if pending:
            raise StorageError(
                f"The journal {path} is in a folder you cannot write, and its last changes "
                f"are still in {wal.name}, which SQLite can read only where it may write. "
                "Nothing was changed; copy the folder somewhere writable and use --data-dir."
            ) from None
        return connect(immutable=True)


def _refuse_non_regular(path: Path) -> None:
    """A FIFO or device named like the database would hang or be clobbered: refuse it."""
    try:
        st = os.stat(path)
    except FileNotFoundError:
        if os.path.islink(path):
            raise StorageError(
                f"The journal {path} is a symbolic link to {os.readlink(path)}, which does not "
                "exist. Nothing was created there; point the link at your journal or remove it."
            ) from None
        return
    except OSError as exc:
        if exc.errno == errno.ENOTDIR:
            return  # the data folder is not a folder: the folder check says so
        if exc.errno == errno.ELOOP:
            raise StorageError(
                f"The journal {path} is a symbolic link loop (it leads back to itself). Nothing "
                "was changed; remove the link or point it at your journal."
            ) from None
        raise StorageError(f"The journal {path} cannot be used: {os_reason(exc)}.") from None
    if not stat.S_ISREG(st.st_mode):
        raise StorageError(
            f"The journal {path} is {describe_kind(st.st_mode)}, not a database file. "
            "Nothing was changed; move it away or use --data-dir elsewhere."
        )
    for suffix in SIDE_SUFFIXES:
        side = path.with_name(path.name + suffix)
        what = _side_file_kind(side)
        if what:
            raise StorageError(
                f"The journal's {suffix[1:].upper()} file {side} {what}, not a file SQLite "
                "can use, so the journal was not opened (SQLite would read or write the "
                "journal's changes through it). Nothing was changed; move it away."
            )


def _side_file_kind(side: Path) -> str | None:
    """What the -wal or -shm at ``side`` is instead of a regular file, or None (a regular
    file, or nothing: SQLite creates it)."""
    try:
        st = os.lstat(side)
    except OSError:
        return None
    if stat.S_ISLNK(st.st_mode):
        try:
            st = os.stat(side)
        except OSError as exc:
            if exc.errno == errno.ELOOP:
                return "is a symbolic link loop"
            return f"is a symbolic link to {os.readlink(side)}, which does not exist"
        # SQLite will not open a side file through a link ("unable to open"), which
        # read as an unwritable folder; nobody but a planter puts one there
        return f"is a symbolic link to {os.readlink(side)}"
    if stat.S_ISREG(st.st_mode):
        return None
    return f"is {describe_kind(st.st_mode)}"


def foreign_problem(path: Path) -> str | None:
    """Why the journal at ``path`` (or its -wal/-shm) must not be adopted, or None: a file
    another user owns, or one that others may write (in a shared folder anyone could
    have planted it, or could change it later). Like ssh with a key, the app refuses it
    rather than write the user's journal into it; it is never chmod-ed or moved."""

    for candidate in (path, *(path.with_name(path.name + s) for s in SIDE_SUFFIXES)):
        why = planted(candidate)
        if why is None:
            continue
        return (
            f"The journal file {candidate} {why}, so it was not used: anyone who can "
            "write it could change your journal. Nothing was changed; if it is yours, "
            f"`chown` it to you and `chmod 600` it, or start with --data-dir elsewhere."
        )
    return None


def _prepare_private(path: Path) -> None:
    """Make the database file 0600 before SQLite opens it, so the -wal and -shm files
    SQLite creates (with the database's mode) are 0600 too, whatever the umask; an
    existing file we own is tightened (with its side files)."""
    if os.name != "posix":
        return
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | NOFOLLOW, 0o600)
    except FileExistsError:
        _tighten(path)
    except OSError:
        return  # the connect below explains (read-only folder, disk full...)
    else:
        os.close(fd)
        _tighten(path)


def _tighten(path: Path) -> None:
    """The database loses any group/other bits (a deliberate 0400 stays 0400); its -wal
    and -shm, SQLite's scratch files, become exactly 0600."""
    if os.name != "posix":
        return
    with contextlib.suppress(OSError):
        st = os.lstat(path)
        current = stat.S_IMODE(st.st_mode)
        if stat.S_ISREG(st.st_mode) and current & 0o077:
            os.chmod(path, current & 0o700)
    _tighten_side_files(path)


def _tighten_side_files(path: Path) -> None:
    """The -wal and -shm (SQLite's scratch files, never the user's own) become 0600."""
    if os.name != "posix":
        return
    for suffix in SIDE_SUFFIXES:
        side = path.with_name(path.name + suffix)
        with contextlib.suppress(OSError):
            st = os.lstat(side)
            if stat.S_ISREG(st.st_mode) and stat.S_IMODE(st.st_mode) != 0o600:
                os.chmod(side, 0o600)
