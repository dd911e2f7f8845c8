"""Advisory locks: ``flock``/``lockf`` on POSIX (on a descriptor the caller opened and
checked), ``filelock`` elsewhere (imported where used: the single-instance lock runs
before the first paint, and filelock brings logging and typing) (a lock file beside what it guards; on Windows
``msvcrt.locking``, released by the OS when the process dies, like flock)."""

from __future__ import annotations

import contextlib
import os
import sys
import time
from pathlib import Path

from companion.core.platform.files import DIRECTORY

#: the lock file the portable folder lock uses (POSIX locks the folder itself: no file)
FOLDER_LOCK_NAME = ".first-open.lock"


def has_flock(system: str | None = None) -> bool:
    """Whether this OS (``system``, default ``sys.platform``) locks an open descriptor
    (flock, lockf); else :func:`file_lock`."""
    return (system or sys.platform) != "win32"


def try_flock(fd: int) -> bool | None:
    """Take an exclusive flock on ``fd`` without waiting: True when held, False when
    another process holds it, None when this file system or OS has no flock."""
    if sys.platform == "win32":
        return None
    import fcntl

    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except (BlockingIOError, PermissionError):
        return False
    except OSError:
        return None
    return True


def try_lock_range(fd: int, start: int, length: int) -> bool | None:
    """An exclusive POSIX record lock (``lockf``) on bytes ``start``..``start+length`` of
    ``fd``: the locks SQLite itself takes on Unix. None on Windows, where SQLite's locks
    are LockFileEx ones this call could not see."""
    if sys.platform == "win32":
        return None
    import fcntl

    try:
        fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB, length, start)
    except OSError:
        return False
    return True


def file_lock(path: Path | str):
    """The portable lock: ``path`` locked exclusively now (a ``filelock.FileLock``), or
    None when another process holds it. Release it with ``.release()``."""
    import filelock

    lock = filelock.FileLock(str(path), timeout=0)
    try:
        lock.acquire()
    except filelock.Timeout:
        return None
    return lock


@contextlib.contextmanager
def folder_lock(folder: Path, timeout: float, *, system: str | None = None):
    """Hold an exclusive lock on ``folder`` for the block, waiting at most ``timeout``
    seconds (then going on without it: the caller's own locking says the rest). POSIX
    locks the folder itself, so no file is added; elsewhere a hidden lock file in it."""
    if not has_flock(system):
        with _portable_folder_lock(folder, timeout):
            yield
        return
    try:
        fd = os.open(folder, os.O_RDONLY | DIRECTORY)
    except OSError:
        yield  # a folder we cannot open for the lock
        return
    try:
        deadline = time.monotonic() + timeout
        while try_flock(fd) is False and time.monotonic() <= deadline:
            time.sleep(0.01)
        yield
    finally:
        os.close(fd)  # closing the descriptor lets go of the lock


@contextlib.contextmanager
def _portable_folder_lock(folder: Path, timeout: float):
    import filelock

    lock = filelock.FileLock(str(Path(folder) / FOLDER_LOCK_NAME), timeout=timeout)
    try:
        lock.acquire(poll_interval=0.01)
    except (filelock.Timeout, OSError):
        yield  # not held: go on without it
        return
    try:
        yield
    finally:
        lock.release()
