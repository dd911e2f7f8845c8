"""The one place that decides where the app keeps its files.

Order of precedence: an explicit ``--data-dir`` (via :func:`set_data_dir`), then the
``COMPANION_HOME`` environment variable, then the platform's user data folder.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

ENV_VAR = "COMPANION_HOME"
_override: Path | None = None


def set_data_dir(path: str | os.PathLike[str] | None) -> None:
    """Pin the data folder for this process (the ``--data-dir`` option)."""
    global _override
    _override = Path(path).expanduser().resolve() if path else None


def data_dir() -> Path:
    """The data folder, not created."""
    if _override is not None:
        return _override
    env = os.environ.get(ENV_VAR)
    if env:
        return Path(env).expanduser().resolve()
    from platformdirs import user_data_dir

    return Path(user_data_dir("interview-companion", appauthor=False))


def ensure_private_dir(path: Path) -> Path:
    """Create ``path`` (owner-only, 0700) if needed and tighten it if it exists."""
    path.mkdir(parents=True, exist_ok=True)
    if os.name == "posix":
        try:
            os.chmod(path, 0o700)
        except OSError:
            pass  # a read-only or foreign folder: storage reports the real problem
    return path


def db_path() -> Path:
    return data_dir() / "companion.sqlite3"


def backup_dir() -> Path:
    return data_dir() / "backups"


def user_content_dir() -> Path:
    """Where a user drops their own content packs."""
    return data_dir() / "content"


def settings_path() -> Path:
    return data_dir() / "settings.json"


def exports_dir() -> Path:
    return data_dir() / "exports"


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
