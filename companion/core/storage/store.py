"""Opening the journal database safely: WAL, foreign keys, migrations, backups.

A file that is not a healthy SQLite database is moved aside (never deleted) and a fresh
one is created; the caller is told through :attr:`Store.notices` and can offer
:func:`restore_backup`. A database written by a newer version of the app is refused.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import errno
import os
import shutil
import sqlite3
import stat
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from sqlite_utils import Database

from companion.core import paths
from companion.core.storage.files import (  # noqa: F401 (re-export)
    atomic_write_bytes,
    atomic_write_text,
    describe_kind,
    private_temp,
)

SQLITE_MAGIC = b"SQLite format 3\x00"
KEEP_BACKUPS = 10
BACKUP_EVERY = dt.timedelta(days=1)
# another process writing: wait this long before giving up (COMPANION_BUSY_TIMEOUT, seconds)
BUSY_TIMEOUT_S = 10.0
BUSY_TIMEOUT_ENV = "COMPANION_BUSY_TIMEOUT"
SIDE_SUFFIXES = ("-wal", "-shm")


class _Database(Database):
    """sqlite-utils' Database whose outermost ``atomic()`` takes the write lock up front
    (``BEGIN IMMEDIATE``): a second process then waits on the busy timeout instead of
    failing at once with "database is locked" when its read turns into a write.
    ``commits`` counts the transactions it committed (an error after one must not say
    that nothing was saved)."""

    commits = 0

    @contextlib.contextmanager
    def atomic(self):
        if self.conn.in_transaction:
            with super().atomic():
                yield self
            return
        self.conn.execute("BEGIN IMMEDIATE")
        try:
            yield self
        except BaseException:
            self.rollback()
            raise
        else:
            try:
                self.conn.execute("COMMIT")
            except BaseException:
                self.rollback()
                raise
            self.commits += 1


class StorageError(Exception):
    """A problem the user must read: the message says what and where."""


def busy_timeout_s() -> float:
    """Seconds a writer waits for another (``COMPANION_BUSY_TIMEOUT``, default 10);
    StorageError for a value that is not a number of seconds."""
    import math

    text = os.environ.get(BUSY_TIMEOUT_ENV, "").strip()
    if not text:
        return BUSY_TIMEOUT_S
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not math.isfinite(value) or value < 0 or value > 24 * 3600:
        raise StorageError(
            f"{BUSY_TIMEOUT_ENV}={text[:40]!r} is not a number of seconds between 0 and "
            f"86400; unset it (the default is {BUSY_TIMEOUT_S:g}) or give one, e.g. 30."
        )
    return value


class NewerSchemaError(StorageError):
    pass


class BackupError(StorageError):
    """A backup could not be written; the message says where and why."""


@dataclass
class Store:
    db: Database
    path: Path | None
    backup_dir: Path | None = None
    notices: list[str] = field(default_factory=list)
    moved_aside: Path | None = None
    read_only: bool = False
    pending_migrations: int = 0  # read-only opens of an older schema: steps not applied

    @property
    def conn(self) -> sqlite3.Connection:
        return self.db.conn

    def close(self) -> None:
        with contextlib.suppress(sqlite3.Error):
            self.db.close()

    def schema_version(self) -> int:
        return self.db.execute("PRAGMA user_version").fetchone()[0]

    def quick_check(self) -> str:
        return self.db.execute("PRAGMA quick_check").fetchone()[0]


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
        why = _why(exc) if isinstance(exc, OSError) else str(exc)
        raise StorageError(f"Cannot use the data folder {path.parent}: {why}") from None

    notices: list[str] = []
    moved = None
    checked = False  # quick_check ran on the file and passed
    if path.exists():
        # the full scan (quick_check reads every page: ~0.8 s at 100,000 loops) runs once
        # a day, with the daily backup, and before an upgrade; other opens check the header
        full = _backup_due(backup_dir, now()) or _upgrade_due(path)
        problem, checked = _health(path, full=full)
        if problem:
            if not os.access(path.parent, os.W_OK):
                raise StorageError(
                    f"The data folder {path.parent} is not writable, and the journal there "
                    f"{problem}. Nothing was changed; fix the folder's permissions."
                )
            try:
                moved = _move_aside(path, now())
            except OSError as exc:
                raise StorageError(
                    f"The journal {path} {problem}, and it could not be moved aside "
                    f"({_why(exc)}). Nothing was changed."
                ) from None
            notices.append(
                f"The journal database {path} {problem}. It was moved aside to {moved.name} "
                "(nothing was deleted) and a new, empty journal was started."
            )
    _prepare_private(path)
    try:
        with _first_open_lock(path.parent):
            db = _connect(path)
            _check_not_newer(db, path)  # before WAL: switching modes rewrites the header
            if db.execute("PRAGMA journal_mode").fetchone()[0].lower() != "wal":
                db.execute("PRAGMA journal_mode = WAL")  # must run outside a transaction
            pending = _pending(db)
            fresh = not db.table_names()
            if fresh:  # nothing to back up: create it while the others wait
                _migrate(db, pending)
                pending = set()
        # a backup taken before anything is written need not run quick_check again
        if pending and not fresh:
            try:
                backup(
                    db,
                    backup_dir,
                    now(),
                    keep=keep_backups,
                    reason="pre-migration",
                    checked=checked,
                )
            except BackupError as exc:
                db.close()
                raise StorageError(
                    f"The journal {path} needs an upgrade, but {exc} Nothing was changed."
                ) from None
        _migrate(db, pending)
        if not fresh and _backup_due(backup_dir, now()):
            try:
                backup(
                    db,
                    backup_dir,
                    now(),
                    keep=keep_backups,
                    reason="daily",
                    checked=checked and not pending,
                )
            except BackupError as exc:  # the journal itself is fine: say so, go on
                notices.append(f"The daily backup was not taken: {exc}")
    except sqlite3.OperationalError as exc:
        raise StorageError(_explain_operational(exc, path)) from None
    _tighten(path)
    db.commits = 0  # the upgrade is not the command's change
    return Store(db=db, path=path, backup_dir=backup_dir, notices=notices, moved_aside=moved)


@contextlib.contextmanager
def _first_open_lock(folder: Path):
    """Hold an exclusive flock on the data folder while a journal is switched to WAL and
    created. Two processes opening a new journal at once otherwise meet inside SQLite's
    mode switch: one holds the write lock to create the tables while the other waits to
    change the journal mode, and SQLite answers one of them 'database is locked' without
    waiting (seen with four processes under load). The lock is the folder's own, so no
    file is added; it lasts milliseconds, and waits at most the busy timeout."""
    import fcntl
    import time

    try:
        fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    except OSError:
        yield  # a folder we cannot open for the lock: SQLite's own locking still holds
        return
    try:
        deadline = time.monotonic() + busy_timeout_s()
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() > deadline:
                    break  # go on without it: SQLite's busy timeout says the rest
                time.sleep(0.01)
            except OSError:
                break  # a file system without flock
        yield
    finally:
        os.close(fd)  # closing the descriptor lets go of the lock


def _migrate(db: Database, pending: set) -> None:
    """Apply the pending schema steps as one transaction that holds the write lock from
    its start (BEGIN IMMEDIATE): a second process opening the same new journal waits for
    it (busy timeout), then finds nothing pending, instead of creating the same tables
    and failing with 'table "_sqlite_migrations" already exists'."""
    from companion.core.storage.schema import MIGRATION_SETS

    if pending:
        db.execute("BEGIN IMMEDIATE")
        try:
            for migration_set in MIGRATION_SETS:
                migration_set.apply(db)  # its steps nest as savepoints
            db.execute(f"PRAGMA user_version = {len(_known())}")
            db.execute("COMMIT")
        except BaseException:
            if db.conn.in_transaction:
                db.execute("ROLLBACK")
            raise
    elif db.execute("PRAGMA user_version").fetchone()[0] != len(_known()):
        db.execute(f"PRAGMA user_version = {len(_known())}")


def open_upgraded_copy(path: Path, backup_dir: Path | None = None) -> Store:
    """An older journal for reading (exports, analyze): copied into memory and upgraded
    there, so the file is never written (no upgrade in place, no pre-migration backup)
    and a read-only folder or mount works too."""
    source = open_store(path, read_only=True, backup_dir=backup_dir)
    conn = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
    try:
        source.db.conn.backup(conn)
    except sqlite3.Error as exc:
        conn.close()
        raise StorageError(f"Cannot read the journal {path}: {exc}") from None
    finally:
        source.close()
    db = _Database(conn)
    db.execute("PRAGMA foreign_keys = ON")
    try:
        _migrate(db, _pending(db))
    except sqlite3.Error as exc:
        db.close()
        raise StorageError(f"Cannot upgrade a copy of the journal {path}: {exc}") from None
    db.commits = 0
    return Store(db=db, path=path, backup_dir=backup_dir, read_only=True)


def open_memory_store() -> Store:
    """A throwaway store, used when the real one cannot be opened, so the app still starts."""
    db = Database(memory=True)
    db.execute("PRAGMA foreign_keys = ON")
    from companion.core.storage.schema import MIGRATION_SETS

    for migration_set in MIGRATION_SETS:
        migration_set.apply(db)
    return Store(db=db, path=None, read_only=True)


def _connect(path: Path) -> Database:
    conn = sqlite3.connect(
        str(path), timeout=busy_timeout_s(), isolation_level=None, check_same_thread=False
    )
    db = _Database(conn)
    db.execute("PRAGMA foreign_keys = ON")
    db.execute("PRAGMA synchronous = NORMAL")
    return db


def _open_read_only(path: Path, backup_dir: Path) -> Store:
    if not path.exists():
        raise StorageError(f"There is no journal at {path} yet; nothing to read.")
    # the header only: a full quick_check reads every page (doctor runs integrity_check
    # itself), and damage elsewhere surfaces as an error on the read that meets it
    problem, _checked = _health(path, full=False)
    if problem:
        raise StorageError(
            f"The journal {path} {problem}. Nothing was changed; `companion doctor --repair` "
            "moves it aside and starts a new one."
        )
    try:
        db = _connect_read_only(path)
        _check_not_newer(db, path)
        pending = len(_pending(db)) if db.table_names() else len(_known())
    except sqlite3.OperationalError as exc:
        raise StorageError(_explain_operational(exc, path)) from None
    except sqlite3.DatabaseError as exc:
        raise StorageError(f"Cannot read the journal {path}: {exc}") from None
    _tighten_side_files(path)  # SQLite may have just made them with the database's mode
    return Store(
        db=db, path=path, backup_dir=backup_dir, read_only=True, pending_migrations=pending
    )


def _connect_read_only(path: Path) -> _Database:
    """A read-only connection. A journal in WAL mode needs its ``-shm`` to be created
    even to read; in a folder the user cannot write (their data on a read-only disk, a
    0500 folder) that fails, so a journal with no pending ``-wal`` is opened immutable
    instead (no locks, no side files): it can still be read and exported."""

    def connect(immutable: bool) -> _Database:
        conn = sqlite3.connect(
            read_only_uri(path, immutable=immutable),
            uri=True,
            timeout=busy_timeout_s(),
            isolation_level=None,
            check_same_thread=False,
        )
        conn.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()
        return _Database(conn)

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


def read_only_uri(path: Path, *, immutable: bool = False) -> str:
    """The SQLite URI (``uri=True``) that opens ``path`` read-only; the path is quoted, so
    a folder named with ``#``, ``?`` or ``%`` still names this file. ``immutable``: no
    locks and no side files (only for a file nobody can be writing)."""
    from urllib.parse import quote

    return f"file:{quote(str(path))}?mode=ro" + ("&immutable=1" if immutable else "")


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
        raise StorageError(f"The journal {path} cannot be used: {_why(exc)}.") from None
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
    if stat.S_ISREG(st.st_mode):
        return None
    return f"is {describe_kind(st.st_mode)}"


def foreign_problem(path: Path) -> str | None:
    """Why the journal at ``path`` (or its -wal/-shm) must not be adopted, or None: a file
    another user owns, or one that others may write (in a shared folder anyone could
    have planted it, or could change it later). Like ssh with a key, the app refuses it
    rather than write the user's journal into it; it is never chmod-ed or moved."""
    from companion.core.fileio import planted

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
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
    except FileExistsError:
        _tighten(path)
    except OSError:
        return  # the connect below explains (read-only folder, disk full...)
    else:
        os.close(fd)
        _tighten(path)


def _known() -> set[tuple[str, str]]:
    from companion.core.storage.schema import known_steps

    return known_steps()


def _applied(db: Database) -> set[tuple[str, str]]:
    if "_sqlite_migrations" not in db.table_names():
        return set()
    rows = db.execute("SELECT migration_set, name FROM _sqlite_migrations").fetchall()
    return {(a, b) for a, b in rows}


def _pending(db: Database) -> set[tuple[str, str]]:
    return _known() - _applied(db)


def _check_not_newer(db: Database, path: Path) -> None:
    unknown = _applied(db) - _known()
    version = db.execute("PRAGMA user_version").fetchone()[0]
    if unknown or version > len(_known()):
        db.close()
        raise NewerSchemaError(
            f"The journal {path} was written by a newer version of Interview Companion "
            f"(schema {version}, this version knows {len(_known())}). Update the app; the "
            "file was left untouched."
        )


def _header_size(header: bytes) -> int | None:
    """The file size the SQLite header claims (page size x page count), or None when
    the header's page count is not valid (an old writer did not keep it)."""
    page = int.from_bytes(header[16:18], "big")
    page = 65536 if page == 1 else page
    pages = int.from_bytes(header[28:32], "big")
    valid = header[24:28] == header[92:96] and pages > 0
    return page * pages if valid else None


def _upgrade_due(path: Path) -> bool:
    """The file's header says its schema is older than this code's (or cannot be read):
    a backup, and so a full check, comes first. (``user_version`` is bytes 60-63.)"""
    try:
        with open(path, "rb") as fh:
            head = fh.read(64)
    except OSError:
        return True
    if len(head) < 64:
        return True
    return int.from_bytes(head[60:64], "big") != len(_known())


def _health(path: Path, *, full: bool = True) -> tuple[str | None, bool]:
    """What is wrong with ``path`` (None when it looks like a healthy SQLite file), and
    whether quick_check ran and passed (``full=False``: the header only, no quick_check)."""
    try:
        with open(path, "rb") as fh:
            header = fh.read(100)
            size = os.fstat(fh.fileno()).st_size
    except OSError as exc:
        return f"cannot be read ({_why(exc)})", False
    if header == b"" and size == 0:
        return None, False  # an empty file is a valid new database
    if header[: len(SQLITE_MAGIC)] != SQLITE_MAGIC or len(header) < 100:
        return "is not an SQLite database", False
    expected = _header_size(header)
    if expected is not None and size < expected:
        return f"is truncated ({size:,} of its {expected:,} bytes)", False
    if not full:
        return None, False
    try:
        conn = sqlite3.connect(read_only_uri(path), uri=True, timeout=5.0)
        try:
            result = conn.execute("PRAGMA quick_check").fetchone()[0]
        finally:
            conn.close()
    except sqlite3.OperationalError:
        return None, False  # cannot be opened here (permissions, locks): the real open explains
    except sqlite3.DatabaseError as exc:
        return f"is damaged ({exc})", False
    if result != "ok":
        return f"failed its integrity check ({result})", False
    return None, True


def _aside_name(path: Path, when: dt.datetime) -> Path:
    stamp = when.strftime("%Y%m%d-%H%M%S")
    target = path.with_name(f"{path.name}.damaged-{stamp}")
    n = 1
    while target.exists():
        n += 1
        target = path.with_name(f"{path.name}.damaged-{stamp}-{n}")
    return target


def _move_aside(path: Path, when: dt.datetime) -> Path:
    target = _aside_name(path, when)
    os.replace(path, target)
    for suffix in ("-wal", "-shm"):
        side = path.with_name(path.name + suffix)
        if side.exists():
            os.replace(side, target.with_name(target.name + suffix))
    return target


def backup(
    db: Database,
    folder: Path,
    when: dt.datetime,
    *,
    keep: int = KEEP_BACKUPS,
    reason: str = "",
    checked: bool = False,
) -> Path | None:
    """Copy the database into ``folder`` if it passes quick_check; keep the newest ``keep``.
    ``checked``: the caller has just run quick_check on it (and written nothing since)."""
    if not checked and db.execute("PRAGMA quick_check").fetchone()[0] != "ok":
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
    try:
        fd, tmp = private_temp(folder, name)  # unique per run: concurrent backups never collide
    except OSError as exc:
        raise BackupError(f"no backup can be written in {folder} ({_why(exc)}).") from None
    os.close(fd)
    try:
        dest = sqlite3.connect(str(tmp))
        try:
            db.conn.backup(dest)
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
            why = _why(exc) if isinstance(exc, OSError) else str(exc)
            raise BackupError(f"the backup {target} could not be written ({why}).") from None
        raise
    stamp = when.timestamp()
    os.utime(target, (stamp, stamp))  # the app's clock decides when the next one is due
    for old in list_backups(folder)[keep:]:
        with contextlib.suppress(OSError):
            old.unlink()
    return target


def list_backups(folder: Path) -> list[Path]:
    """Backups, newest first: regular files of ours in a folder of ours. A backup another
    user owns or others may write (or any file in such a folder) is never listed, so it
    is never restored, rotated or taken as the newest."""
    from companion.core.fileio import planted

    try:
        if not folder.is_dir() or foreign_backups(folder):
            return []
        found = [p for p in folder.glob("companion-*.sqlite3") if p.is_file() and not planted(p)]
    except OSError:
        return []
    return sorted(found, key=lambda p: p.name, reverse=True)


def foreign_backups(folder: Path) -> str | None:
    """Why the backups folder must not be written into nor restored from, or None."""
    from companion.core.fileio import planted_folder

    why = planted_folder(folder)
    if why is None:
        return None
    return (
        f"the backups folder {folder} {why}, so the app neither writes a backup there nor "
        "restores one from it (anyone who can write it could plant one); `chown` it to you "
        "and `chmod 700` it if it is yours, or move it away."
    )


def _backup_due(folder: Path, when: dt.datetime) -> bool:
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
        moved = _move_aside(path, dt.datetime.now()) if path.exists() else None
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
    problem, _ = _health(path, full=False)
    if problem:
        return None
    try:
        live = sqlite3.connect(str(path), timeout=busy_timeout_s(), isolation_level=None)
    except sqlite3.Error:
        return None
    try:
        live.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()
        aside = _aside_name(path, dt.datetime.now())
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
    try:
        import fcntl
    except ImportError:  # Windows: SQLite's locks there are not fcntl's
        yield
        return
    try:
        fd = os.open(path, os.O_RDWR | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        yield  # no journal: nothing to protect
        return
    try:
        try:
            fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB, _LOCK_LENGTH, _LOCK_START)
        except OSError:
            raise JournalInUseError(
                errno.EBUSY,
                f"the journal {path} is open in another program (Interview Companion or a "
                "command); nothing was restored: try again when it is done",
                str(path),
            ) from None
        yield
    finally:
        os.close(fd)  # releases the lock


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


def _shown_timeout() -> str:
    try:
        return f"{busy_timeout_s():g}"
    except StorageError:
        return f"{BUSY_TIMEOUT_S:g}"


def _why(exc: OSError) -> str:
    return exc.strerror or str(exc)


def _explain_operational(exc: sqlite3.OperationalError, path: Path) -> str:
    text = str(exc)
    if "readonly" in text or "read-only" in text or "unable to open" in text:
        why = paths.not_writable(path.parent) or "is not writable"
        return (
            f"The data folder {path.parent} {why} ({text}). Your saved data is "
            "untouched; make the folder writable or start with --data-dir elsewhere."
        )
    return explain_database_error(exc, path, doing="open")


def explain_database_error(
    exc: sqlite3.Error, path: Path | None, *, doing: str = "save", saved: int = 0
) -> str:
    """One line for an SQLite error at open or commit: what happened, where, what to do.
    ``saved``: transactions this command had already committed (they stay saved)."""
    text = str(exc)
    where = str(path) if path is not None else "the journal"
    if saved:
        return (
            f"The journal {where} refused a later write ({text}) after this command had "
            f"saved {saved} change(s), which stay saved; run `companion doctor` to check it."
        )
    if "full" in text:
        return (
            f"The disk holding {where} is full ({text}); this change was not saved. Free some "
            "space and try again; nothing saved before was lost."
        )
    if "malformed" in text or "not a database" in text:
        return (
            f"The journal {where} is damaged ({text}); this change was not saved. "
            "`companion doctor` checks it, `companion doctor --repair` moves it aside and "
            "`companion doctor --restore` puts the newest backup back."
        )
    if "disk I/O error" in text:
        lost = (
            "this change was not saved" if doing == "save" else f"this command could not {doing} it"
        )
        return (
            f"The disk holding {where} reported an I/O error ({text}); {lost}. Check the "
            "disk (or a file-size limit), then run `companion doctor`."
        )
    if "locked" in text or "busy" in text:
        return (
            f"Another program kept the journal {where} busy for more than "
            f"{_shown_timeout()} s ({text}); this command did not {doing} anything. "
            "Try again when the other Interview Companion window or command is done."
        )
    if "readonly" in text or "read-only" in text:
        return (
            f"The journal {where} is read-only ({text}); fix its permissions or start with "
            "--data-dir elsewhere."
        )
    return f"Cannot {doing} the journal {where}: {text}"
