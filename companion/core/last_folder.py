"""The folder file dialogs open in: the last one the user chose, while it still exists;
kept in the database's settings (``settings``: companion.core.settings.Settings)."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Protocol

KEY = "files.last_folder"


class Settings(Protocol):
    def get(self, key: str, default: Any = None) -> Any: ...
    def keep(self, key: str, value: Any) -> str | None: ...


def start_folder(settings: Settings | None, fallback: Path) -> Path:
    """The last folder used, else ``fallback`` (a folder since removed counts as none)."""
    saved = settings.get(KEY) if settings is not None else None
    if isinstance(saved, str) and saved and "\0" not in saved:
        folder = Path(saved)
        try:
            if folder.is_absolute() and folder.is_dir():
                return folder
        except OSError:
            pass
    return fallback


def remember(settings: Settings | None, chosen: Path) -> None:
    """Keep the folder of a file the user just picked, for the next dialog (a journal
    that refuses the write: the next dialog opens where it would have anyway)."""
    if settings is not None:
        settings.keep(KEY, str(Path(chosen).parent))
