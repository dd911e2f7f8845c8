"""What the journal file looks like from outside SQLite's open: its header, its size
against what the header claims, a quick check, and moving a damaged file aside."""

from __future__ import annotations

import datetime as dt
import os
import sqlite3
from pathlib import Path

from companion.core.storage.errors import os_reason

SQLITE_MAGIC = b"SQLite format 3\x00"


def read_only_uri(path: Path, *, immutable: bool = False) -> str:
    """The SQLite URI (``uri=True``) that opens ``path`` read-only; the path is quoted, so
    a folder named with ``#``, ``?`` or ``%`` still names this file. ``immutable``: no
    locks and no side files (only for a file nobody can be writing)."""
    from urllib.parse import quote

    return f"file:{quote(str(path))}?mode=ro" + ("&immutable=1" if immutable else "")


def _header_size(header: bytes) -> int | None:
    """The file size the SQLite header claims (page size x page count), or None when
    the header's page count is not valid (an old writer did not keep it)."""
    page = int.from_bytes(header[16:18], "big")
    page = 65536 if page == 1 else page
    pages = int.from_bytes(header[28:32], "big")
    valid = header[24:28] == header[92:96] and pages > 0
    return page * pages if valid else None


def health(path: Path, *, full: bool = True) -> tuple[str | None, bool]:
    """What is wrong with ``path`` (None when it looks like a healthy SQLite file), and
    whether quick_check ran and passed (``full=False``: the header only, no quick_check)."""
    try:
        with open(path, "rb") as fh:
            header = fh.read(100)
            size = os.fstat(fh.fileno()).st_size
    except OSError as exc:
        return f"cannot be read ({os_reason(exc)})", False
    if header == b"" and size == 0:
        return None, False  # an empty file is a valid new database
    if header[: len(SQLITE_MAGIC)] != SQLITE_MAGIC or len(header) < 100:
        return "is not an SQLite database", False
    expected = _header_size(header)
    if expected is not None and size < expected:
        # another process's checkpoint writes the header before the pages that grow the
        # file: read raw, a live journal looked truncated and was moved aside (four
        # imports at once, one run in sixteen). SQLite reads it through its locks; a
        # check that could not run (busy, permissions) proves nothing, and the real open
        # explains it: only a check that fails makes it truncated (and moved aside)
        problem, checked = _quick_check(path)
        if problem is None:
            return None, checked
        return f"is truncated ({size:,} of its {expected:,} bytes)", False
    if not full:
        return None, False
    return _quick_check(path)


def _quick_check(path: Path) -> tuple[str | None, bool]:
    """PRAGMA quick_check through SQLite (its locks, its view of the WAL): the problem or
    None, and whether the check ran and passed."""
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


def aside_name(path: Path, when: dt.datetime) -> Path:
    stamp = when.strftime("%Y%m%d-%H%M%S")
    target = path.with_name(f"{path.name}.damaged-{stamp}")
    n = 1
    while target.exists():
        n += 1
        target = path.with_name(f"{path.name}.damaged-{stamp}-{n}")
    return target


def move_aside(path: Path, when: dt.datetime) -> Path:
    target = aside_name(path, when)
    os.replace(path, target)
    for suffix in ("-wal", "-shm"):
        side = path.with_name(path.name + suffix)
        if side.exists():
            os.replace(side, target.with_name(target.name + suffix))
    return target


PAGE_SIZES = tuple(512 << n for n in range(8))  # 512 .. 65536, what SQLite allows


def _page_size_field(size: int) -> bytes:
    return (1 if size == 65536 else size).to_bytes(2, "big")


def repair_page_size(path: Path, when: dt.datetime) -> str | None:
    """Put back a page-size header that was changed (bytes 16-17): when the journal does
    not open and one page size makes it pass quick_check, the two bytes are written back,
    after the file as it was is copied aside (nothing is deleted). Returns what was done,
    or None (nothing to do, or no page size makes it whole: moving it aside is left to
    the open). A journal with a -wal is left alone: its frames are of the old size."""
    import shutil
    import tempfile

    problem, _checked = health(path)
    wal = path.with_name(path.name + "-wal")
    if problem is None or (wal.exists() and wal.stat().st_size > 0):
        return None
    with open(path, "rb") as fh:
        header = fh.read(100)
        size = os.fstat(fh.fileno()).st_size
    if header[: len(SQLITE_MAGIC)] != SQLITE_MAGIC or len(header) < 100:
        return None
    said = header[16:18]
    for page in PAGE_SIZES:
        if _page_size_field(page) == said or size % page:
            continue
        with tempfile.TemporaryDirectory(dir=path.parent) as scratch:
            trial = Path(scratch) / "trial.sqlite3"
            shutil.copyfile(path, trial)
            with open(trial, "r+b") as fh:
                fh.seek(16)
                fh.write(_page_size_field(page))
            if _quick_check(trial) != (None, True):
                continue
        kept = aside_name(path, when)
        shutil.copy2(path, kept)
        with open(path, "r+b") as fh:
            fh.seek(16)
            fh.write(_page_size_field(page))
            fh.flush()
            os.fsync(fh.fileno())
        old = int.from_bytes(said, "big")
        old = 65536 if old == 1 else old
        return (
            f"the journal's header said its pages were {old:,} bytes; they are {page:,}: "
            f"the header was set back (the file as it was is kept as {kept.name})"
        )
    return None
