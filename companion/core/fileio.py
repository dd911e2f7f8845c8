"""The one way the app reads a file it was handed: regular files only, never more than a
documented limit per kind of file.

``stat`` says 0 bytes for a device or a FIFO, so a size check alone lets ``/dev/zero``
grow without end and a FIFO block forever. :func:`read_limited` opens with
``O_NONBLOCK`` (a FIFO then opens at once), refuses anything that ``fstat`` does not
call a regular file, and reads at most ``limit + 1`` bytes whatever the file claims.

Limits (also in README.md, "Files the app reads"):

=====================  ==========
journal JSON import    256 MiB
one-pager Markdown     10 MB
content pack file      512 KiB
calendar (.ics)        2 MiB
voice take (WAV)       200 MiB
=====================  ==========

The data folder's own small files go through it too (a FIFO ``prefs.json`` must not hang
every command, nor ``prefs.json -> /dev/zero`` grow without end): preferences 1 MiB, the
do-not-disturb record 64 KiB.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from companion.core.platform import files as platform_files

LIMITS = {
    "journal": 256 * 1024 * 1024,  # our own export of 100,000 demo loops is ~235 MiB
    "one-pager": 10_000_000,
    "content": 512 * 1024,
    "calendar": 2 * 1024 * 1024,
    "take": 200 * 1024 * 1024,  # 30 minutes of 16-bit mono at 48 kHz is ~173 MB
    "prefs": 1024 * 1024,  # a few KiB in use (window geometry, hotkeys, a capture draft)
    "dnd-state": 64 * 1024,  # one small JSON object
}
KIND_NAMES = {
    "journal": "a journal export",
    "one-pager": "a Markdown file (a one-pager or a story bank)",
    "content": "a content file",
    "calendar": "a calendar file",
    "take": "a voice take",
    "prefs": "the preferences file",
    "dnd-state": "the do-not-disturb record",
}


class FileReadError(ValueError):
    """The file cannot be read as asked; the message names the file and says why."""


class FileMissingError(FileReadError):
    """There is no file (or only a dangling link) at the path."""


def _human(n: int) -> str:
    if n % (1024 * 1024) == 0:
        return f"{n // (1024 * 1024)} MiB"
    if n % 1024 == 0:
        return f"{n // 1024} KiB"
    return f"{n / 1e6:g} MB"


def read_limited(path: Path | str, kind: str) -> bytes:
    """The bytes of the regular file ``path``, at most ``LIMITS[kind]`` of them.

    Raises :class:`FileReadError` (one line naming the file) for a missing file, a
    folder, a device, a FIFO, a socket, a symlink loop, a file over the limit, or any
    other read error."""
    limit = LIMITS[kind]
    path = Path(path)
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags)
    except FileNotFoundError:
        raise FileMissingError(f"{path} does not exist.") from None
    except IsADirectoryError:
        raise FileReadError(f"{path} is a folder, not a file.") from None
    except OSError as exc:
        raise FileReadError(f"Cannot read {path}: {exc.strerror or exc}.") from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise FileReadError(
                f"{path} is {platform_files.describe_kind(st.st_mode)}, not a regular file; it was not read."
            )
        if st.st_size > limit:
            raise FileReadError(
                f"{path} is {st.st_size:,} bytes; {KIND_NAMES[kind]} is at most "
                f"{_human(limit)}, so it was not read."
            )
        if hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)
        chunks = []
        total = 0
        while total <= limit:
            chunk = os.read(fd, min(1024 * 1024, limit + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
        if total > limit:  # the file grew while we read it
            raise FileReadError(
                f"{path} is larger than {_human(limit)}; {KIND_NAMES[kind]} is not that "
                "big, so it was not read."
            )
        return b"".join(chunks)
    except OSError as exc:
        raise FileReadError(f"Cannot read {path}: {exc.strerror or exc}.") from None
    finally:
        os.close(fd)


def planted(path: Path | str) -> str | None:
    """Why a file of the data folder must not be trusted, or None: a regular file another
    user owns, or one that others may write (in a shared folder anyone could have put it
    there, or could change it later). Like ssh with a key: refused, never chmod-ed."""
    return _foreign(path, stat.S_ISREG)


def planted_folder(path: Path | str) -> str | None:
    """The same for a folder the app writes into (``backups/``): one another user owns,
    or that others may write (sticky or not: anyone could plant a file in it)."""
    return _foreign(path, stat.S_ISDIR)


def _foreign(path: Path | str, is_kind) -> str | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    if not is_kind(st.st_mode):
        return None  # read_limited (or the folder check) says what is wrong with it
    return platform_files.foreign(st)
