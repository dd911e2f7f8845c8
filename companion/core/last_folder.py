"""The folder file dialogs open in: the last one the user chose, while it still exists."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Protocol

KEY = "files.last_folder"


class Prefs(Protocol):
    def get(self, key: str, default: Any = None) -> Any: ...
    def set(self, key: str, value: Any) -> None: ...


def start_folder(prefs: Prefs | None, fallback: Path) -> Path:
    """The last folder used, else ``fallback`` (a folder since removed counts as none)."""
    saved = prefs.get(KEY) if prefs is not None else None
    if isinstance(saved, str) and saved and "\0" not in saved:
        folder = Path(saved)
        try:
            if folder.is_absolute() and folder.is_dir():
                return folder
        except OSError:
            pass
    return fallback


def remember(prefs: Prefs | None, chosen: Path) -> None:
    """Keep the folder of a file the user just picked, for the next dialog."""
    if prefs is not None:
        prefs.set(KEY, str(Path(chosen).parent))
