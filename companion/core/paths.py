"""The one place that decides where the app keeps its files.

The data folder is resolved once, at the entry point (:func:`resolve_data_dir`), and then
handed down inside :class:`companion.core.context.AppContext`; the functions below take it
as a parameter. No module keeps it in a global.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from companion.core.platform.files import describe_kind, on_read_only_mount

ENV_VAR = "COMPANION_HOME"

# every name inside a data folder (README.md, "Your data")
DB_NAME = "companion.sqlite3"
BACKUPS_NAME = "backups"
PREFS_NAME = "prefs.json"
DND_STATE_NAME = "dnd-state.json"
INSTANCE_LOCK_NAME = ".instance.lock"
CONTENT_NAME = "content"
EXPORTS_NAME = "exports"
TAKES_NAME = "takes"
CHECKED_NAME = ".last-full-check"  # when the journal last passed a full quick_check


class DataDirError(ValueError):
    """A data folder option that cannot be used (for example an empty string)."""


def default_data_dir() -> Path:
    """The platform's user data folder for the app (not created)."""
    from platformdirs import user_data_dir

    return Path(user_data_dir("interview-companion", appauthor=False))


def resolve_data_dir(option: str | os.PathLike[str] | None = None) -> Path:
    """``--data-dir`` over ``COMPANION_HOME`` over the platform default; not created."""
    for value, where in ((option, "--data-dir"), (os.environ.get(ENV_VAR), ENV_VAR)):
        if value is None:
            continue
        text = os.fspath(value)
        if not text.strip():
            raise DataDirError(f"{where} is empty: give a folder, or leave it out")
        return _resolved(text, where)
    return default_data_dir()


def _resolved(text: str, where: str) -> Path:
    """``text`` with ``~`` expanded, made absolute; DataDirError for ``~nouser`` or a
    symbolic link loop (pathlib raises RuntimeError for both)."""
    try:
        path = Path(text).expanduser()
    except RuntimeError:
        user = text[1:].split("/", 1)[0].split(os.sep, 1)[0]
        raise DataDirError(
            f"{where} {text}: there is no user {user!r} whose home ~{user} could stand for"
        ) from None
    try:
        return path.resolve()
    except (RuntimeError, OSError) as exc:  # 3.11: RuntimeError; 3.13+: OSError (ELOOP)
        why = getattr(exc, "strerror", None) or "it is a symbolic link loop"
        raise DataDirError(f"{where} {text} cannot be used: {why}") from None


def ensure_private_dir(path: Path) -> Path:
    """Create ``path`` owner-only (0700) if it is missing, and every missing parent
    0700 too, whatever the umask: the one rule for every folder the app makes. An
    existing folder keeps its mode (it may be shared, or deliberately read-only:
    `companion doctor` warns instead).

    Raises :class:`DataDirError` when the path exists and is not a folder, or cannot be
    created (its message says why); the app sets modes only on folders it created."""
    path = Path(path)
    missing = []
    probe = path
    try:
        while not probe.exists() and not probe.is_symlink() and probe != probe.parent:
            missing.append(probe)
            probe = probe.parent
        if path.exists() and not path.is_dir():
            raise DataDirError(f"{path} is a file, not a folder")
    except OSError as exc:
        raise DataDirError(f"cannot use the folder {path}: {exc.strerror or exc}") from None
    for folder in reversed(missing):
        try:
            folder.mkdir(mode=0o700)
        except FileExistsError:
            continue  # made meanwhile by another process: then it is not ours to chmod
        except OSError as exc:
            raise DataDirError(
                f"cannot create the folder {folder}: {exc.strerror or exc}"
            ) from None
        if os.name == "posix":
            try:
                os.chmod(folder, 0o700)  # mkdir's mode is masked by the umask
            except OSError:
                pass
    if not path.is_dir():
        raise DataDirError(f"{path} is not a folder")
    return path


def argument_problem(path: Path) -> str | None:
    """Why ``path`` can never be a data folder, whatever its permissions, or None: a name
    too long, a path that is a file (or a device...), or one below a file. The CLI says
    this is a usage error (exit 2); nothing is created."""
    path = Path(path)
    for part in path.parts:
        if len(os.fsencode(part)) > 255:
            return f"the name {part[:40]}... is too long for a folder name"
    try:
        if path.exists():
            if not path.is_dir():
                kind = describe_kind(path.stat().st_mode)
                kind = "a file" if kind == "not a regular file" else kind
                return f"{path} is {kind}, not a folder"
            return None
        probe = path
        while not probe.exists():
            if probe == probe.parent:
                break
            probe = probe.parent
        if not probe.is_dir():
            return f"{probe} is a file, so {path} cannot be created"
    except OSError as exc:  # e.g. ENAMETOOLONG from stat
        return f"{path} cannot be used: {exc.strerror or exc}"
    return None


def not_writable(path: Path) -> str | None:
    """Why the existing folder ``path`` cannot be written, or None: 'is on a read-only
    file system' (a read-only disk or mount) or 'is not writable' (its permissions)."""
    if os.access(path, os.W_OK | os.X_OK):
        return None
    if on_read_only_mount(path):
        return "is on a read-only file system"
    return "is not writable"


def folder_problem(path: Path) -> str | None:
    """Why ``path`` cannot be used as the data folder, or None (nothing is created)."""
    path = Path(path)
    problem = argument_problem(path)
    if problem:
        return problem
    try:
        if path.exists():
            why = not_writable(path)
            return f"the folder {path} {why}" if why else None
        probe = path
        while not probe.exists():
            if probe == probe.parent:
                break
            probe = probe.parent
        why = not_writable(probe)
        if why:
            return f"{path} cannot be created: {probe} {why}"
    except OSError as exc:  # e.g. ENAMETOOLONG from stat
        return f"{path} cannot be used: {exc.strerror or exc}"
    return None


def own_file(data_dir: Path, path: Path) -> Path | None:
    """The data folder's own file (the journal and its -wal/-shm, prefs, the
    do-not-disturb record, the lock, a backup) that writing ``path`` would replace, or
    None. Links and hard links are seen through: ``-o`` must never overwrite the journal."""
    folder = Path(os.path.realpath(data_dir))
    target = Path(os.path.realpath(path))
    names = (
        DB_NAME,
        DB_NAME + "-wal",
        DB_NAME + "-shm",
        DB_NAME + "-journal",
        PREFS_NAME,
        DND_STATE_NAME,
        INSTANCE_LOCK_NAME,
        CHECKED_NAME,
    )
    if target.parent == folder and target.name in names:
        return folder / target.name
    if target.parent == folder / BACKUPS_NAME:
        return target
    for name in names:  # a hard link to any of them (its -wal and -shm too)
        mine = folder / name
        try:
            if os.path.samefile(path, mine):
                return mine
        except OSError:
            continue
    return _hard_link_to_a_backup(folder / BACKUPS_NAME, path)


def _hard_link_to_a_backup(backups: Path, path: Path) -> Path | None:
    """The backup that ``path`` is a second name of (a hard link), or None."""
    try:
        st = os.stat(path)
        if st.st_nlink < 2:
            return None
        entries = list(os.scandir(backups))
    except OSError:
        return None
    for entry in entries:
        try:
            other = entry.stat(follow_symlinks=False)
        except OSError:
            continue
        if (other.st_dev, other.st_ino) == (st.st_dev, st.st_ino):
            return backups / entry.name
    return None


def db_path(data_dir: Path) -> Path:
    return Path(data_dir) / DB_NAME


def backup_dir(data_dir: Path) -> Path:
    return Path(data_dir) / BACKUPS_NAME


def prefs_path(data_dir: Path) -> Path:
    return Path(data_dir) / PREFS_NAME


def dnd_state_path(data_dir: Path) -> Path:
    return Path(data_dir) / DND_STATE_NAME


def instance_lock_path(data_dir: Path) -> Path:
    return Path(data_dir) / INSTANCE_LOCK_NAME


def user_content_dir(data_dir: Path) -> Path:
    """Where a user drops their own content packs."""
    return Path(data_dir) / CONTENT_NAME


def exports_dir(data_dir: Path) -> Path:
    return Path(data_dir) / EXPORTS_NAME


def _bundled(name: str) -> Path:
    """``content`` or ``resources``: inside the wheel, the bundle, or the source tree."""
    here = Path(__file__).resolve().parent.parent  # companion/
    candidates = [here / "_data" / name, here.parent / name]
    if getattr(sys, "frozen", False):  # PyInstaller one-folder bundle
        candidates.insert(0, Path(getattr(sys, "_MEIPASS", here)) / name)
    for candidate in candidates:
        if candidate.is_dir():
            return candidate
    return candidates[-1]


def shipped_content_dir() -> Path:
    return _bundled("content")


def resources_dir() -> Path:
    return _bundled("resources")
