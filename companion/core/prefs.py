"""User preferences in a small JSON file (read at start-up before the database opens).

UI state such as window geometry lives here as plain values (base64 strings, numbers),
never pickled objects. Only the keys :mod:`companion.core.setting_homes` declares for
this file are read or written here; the rest live in the database.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from companion.core.fileio import FileMissingError, FileReadError, planted, read_limited
from companion.core.paths import DataDirError, ensure_private_dir
from companion.core.setting_homes import PREFS, check_home
from companion.core.storage.files import atomic_write_text


class Prefs:
    def __init__(self, path: Path):
        self.path = Path(path)
        self._data: dict[str, Any] = {}
        self.problem: str | None = None

        foreign = planted(self.path)
        if foreign:  # a shared folder: someone else's preferences are never taken
            self.problem = f"Preferences not read, using defaults: {self.path} {foreign}."
            return
        try:  # bounded: a FIFO or a link to /dev/zero here must not hang or fill memory
            raw = read_limited(self.path, "prefs").decode("utf-8")
        except FileMissingError:
            return
        except FileReadError as exc:
            self.problem = f"Preferences not read, using defaults: {exc}"
            return
        except UnicodeDecodeError as exc:
            self.problem = f"Cannot read preferences {self.path}: {exc}; using defaults."
            return
        try:
            data = json.loads(raw)
        except ValueError as exc:
            line = getattr(exc, "lineno", None)  # a JSONDecodeError has one
            self.problem = f"Preferences {self.path} are not valid JSON" + (
                f" (line {line}); using defaults." if line else f" ({exc}); using defaults."
            )
            return
        except RecursionError:  # '[[[[...' a hundred thousand deep
            self.problem = (
                f"Preferences {self.path} are nested too deeply to be preferences; using defaults."
            )
            return
        if not isinstance(data, dict):  # '[1,2,3]' is JSON, but not preferences
            self.problem = (
                f"Preferences {self.path} hold {_json_kind(data)}, not an object of "
                "settings; using defaults."
            )
            return
        self._data = data

    def get(self, key: str, default: Any = None) -> Any:
        check_home(key, PREFS)
        return self._data.get(key, default)

    def set(self, key: str, value: Any) -> None:
        check_home(key, PREFS)
        self._data[key] = value

    def stored_keys(self) -> list[str]:
        """Every key in the file, declared here or not (an older version's)."""
        return list(self._data)

    def left_behind(self, key: str) -> Any:
        """The value an older version kept here for a key that lives elsewhere now (None
        if absent): read for its move to the database, then :meth:`drop`-ped."""
        return self._data.get(key)

    def drop(self, key: str) -> None:
        self._data.pop(key, None)

    def save(self) -> str | None:
        """Write the file; return an error message instead of raising. A file that could
        not be read (damaged JSON, a link loop) is kept aside as ``prefs.json.damaged-<time>``
        the first time, never overwritten: it may hold what the user had."""
        try:
            try:
                ensure_private_dir(self.path.parent)
            except DataDirError as exc:
                return f"Cannot save preferences to {self.path}: {exc}"
            if self.problem and not self._kept_aside:
                self._keep_aside()
            atomic_write_text(self.path, json.dumps(self._data, indent=1, sort_keys=True))
        except OSError as exc:
            return f"Cannot save preferences to {self.path}: {exc.strerror or exc}"
        return None

    _kept_aside = False
    kept_aside: Path | None = None  # where the unreadable file went on the first save

    def _keep_aside(self) -> None:
        import datetime as dt
        import os
        import stat

        try:
            st = os.lstat(self.path)
        except FileNotFoundError:
            return
        if not (stat.S_ISREG(st.st_mode) or stat.S_ISLNK(st.st_mode)):
            return  # a FIFO or folder is refused by the writer, and left as it is
        stamp = dt.datetime.now().strftime("%Y%m%d-%H%M%S")
        aside = self.path.with_name(f"{self.path.name}.damaged-{stamp}")
        if not os.path.lexists(aside):
            os.replace(self.path, aside)
            self.kept_aside = aside
        self._kept_aside = True


def _json_kind(value: Any) -> str:
    """What a JSON value is, in plain words: ``null`` is not "a JSON NoneType"."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return f"the value {str(value).lower()}"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    return "a list"
