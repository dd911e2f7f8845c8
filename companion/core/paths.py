"""The one place that decides where the app keeps its files.

The data folder is resolved once, at the entry point (:func:`resolve_data_dir`), and then
handed down inside :class:`companion.core.context.AppContext`; the functions below take it
as a parameter. No module keeps it in a global.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

ENV_VAR = "COMPANION_HOME"
DB_NAME = "companion.sqlite3"


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
        return Path(text).expanduser().resolve()
    return default_data_dir()


def ensure_private_dir(path: Path) -> Path:
    """Create ``path`` (owner-only, 0700) if needed and tighten it if it exists."""
    path.mkdir(parents=True, exist_ok=True)
    if os.name == "posix":
        try:
            os.chmod(path, 0o700)
        except OSError:
            pass  # a read-only or foreign folder: storage reports the real problem
    return path


def db_path(data_dir: Path) -> Path:
    return data_dir / DB_NAME


def backup_dir(data_dir: Path) -> Path:
    return data_dir / "backups"


def user_content_dir(data_dir: Path) -> Path:
    """Where a user drops their own content packs."""
    return data_dir / "content"


def exports_dir(data_dir: Path) -> Path:
    return data_dir / "exports"


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
