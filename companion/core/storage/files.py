"""Atomic file writes: a private temp file beside the target, fsync, then os.replace.

The temp file is made with :func:`tempfile.mkstemp` in the target's folder (a fresh,
unpredictable name opened ``O_EXCL``, so a planted symlink is never followed), its mode
is set on the open descriptor (0600 whatever the umask), and only a regular file (or
nothing) at the target is ever replaced: a device, FIFO, socket or folder there is
refused with :class:`NotARegularFileError`.
"""

from __future__ import annotations

import contextlib
import os
import stat
from pathlib import Path

from companion.core.platform.files import describe_kind, owned_by_me
from companion.core.platform.processes import alive


class NotARegularFileError(OSError):
    """The target exists and is not a regular file; its ``strerror`` says what it is."""


def check_replaceable(path: Path) -> None:
    """Raise :class:`NotARegularFileError` unless ``path`` is missing or a regular file."""
    try:
        st = os.stat(path)
    except FileNotFoundError:
        return  # nothing there (or a dangling link): writing creates a file
    except OSError:
        return  # the write itself reports it
    if not stat.S_ISREG(st.st_mode):
        kind = describe_kind(st.st_mode)
        raise NotARegularFileError(
            0, f"{path} is {kind}, not a regular file; it was not replaced", str(path)
        )


def private_temp(folder: Path, name: str, suffix: str = ".tmp") -> tuple[int, Path]:
    """A new 0600 file in ``folder`` with an unpredictable name: (descriptor, path)."""
    import tempfile  # here, not at the top: prefs load this module before the first paint

    # the pid in the name lets a later write of the same file remove what a killed
    # writer left (sweep_stale_temps)
    fd, tmp = tempfile.mkstemp(prefix=f".{name}.{os.getpid()}-", suffix=suffix, dir=folder)
    if hasattr(os, "fchmod"):
        os.fchmod(fd, 0o600)  # mkstemp already does; say it whatever the platform default
    return fd, Path(tmp)


def sweep_stale_temps(folder: Path, name: str) -> None:
    """Remove the temp files of ``name`` that a writer killed mid-write left in
    ``folder`` (SIGKILL runs no clean-up): ours, regular, named by a process that is gone."""
    import re

    pattern = re.compile(rf"\.{re.escape(name)}\.(\d+)-[^/]*\.tmp")
    try:
        entries = [e for e in os.scandir(folder) if e.name.startswith(f".{name}.")]
    except OSError:
        return
    for entry in entries:
        match = pattern.fullmatch(entry.name)
        if not match or int(match.group(1)) == os.getpid() or alive(int(match.group(1))):
            continue
        with contextlib.suppress(OSError):
            st = entry.stat(follow_symlinks=False)
            if stat.S_ISREG(st.st_mode) and owned_by_me(st):
                os.unlink(entry.path)


def atomic_write_bytes(path: Path, data: bytes, *, mode: int = 0o600) -> None:
    """Write ``path`` all at once: a private temp file beside it, fsync, then os.replace."""
    with atomic_writer(path, mode=mode) as fh:
        fh.write(data)


def atomic_write_text(path: Path, text: str, *, mode: int = 0o600) -> None:
    atomic_write_bytes(path, text.encode("utf-8"), mode=mode)


@contextlib.contextmanager
def atomic_writer(path: Path, *, mode: int = 0o600):
    """A binary file object to stream into; on success it replaces ``path`` atomically,
    on any error the temp file is removed and ``path`` is untouched."""
    path = Path(path)
    if not path.name or path.name in (".", ".."):
        raise NotARegularFileError(0, f"{str(path)!r} is not a file name", str(path))
    check_replaceable(path)
    sweep_stale_temps(path.parent, path.name)
    fd, tmp = private_temp(path.parent, path.name)
    try:
        if hasattr(os, "fchmod"):
            os.fchmod(fd, mode)
        with os.fdopen(fd, "wb") as fh:
            yield fh
            fh.flush()
            os.fsync(fh.fileno())
        check_replaceable(path)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise
