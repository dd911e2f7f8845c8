"""The record of a pause in progress: which adapter, the prior state, who holds it.

Written atomically to ``<data folder>/dnd-state.json`` *before* notifications are
paused and removed only after they are restored, so a crash or kill in between leaves
the prior state on disk for the next start to put back.
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass, field
from pathlib import Path

from companion.core import paths
from companion.core.fileio import FileMissingError, FileReadError, planted, read_limited
from companion.core.paths import DataDirError, ensure_private_dir
from companion.core.platform.files import describe_kind
from companion.core.storage.files import atomic_write_text

FILE_NAME = paths.DND_STATE_NAME


@dataclass(frozen=True)
class Hold:
    adapter: str
    prior: dict = field(default_factory=dict)
    since: str = ""  # ISO timestamp
    holder: str = "app"  # "app" or "cli"
    pid: int = 0
    round_id: int = 0
    restores_itself: bool = False
    damaged: bool = False  # the file could not be read: prior state unknown
    problem: str = ""  # why it could not be read (one line naming the file), if damaged


def record_path(data_dir: Path) -> Path:
    return paths.dnd_state_path(data_dir)


def load(path: Path) -> Hold | None:
    foreign = planted(path)
    if foreign:  # another user's record is not ours to "restore" from
        return _damaged(f"{path} {foreign}, so it was not read.")
    try:  # bounded: a FIFO here must not hang `dnd status` or the app's start
        raw = read_limited(path, "dnd-state").decode("utf-8")
    except FileMissingError:
        return None
    except FileReadError as exc:
        return _damaged(str(exc))
    except UnicodeDecodeError:
        return _damaged(f"{path} is not UTF-8 text.")
    try:
        data = json.loads(raw)
        known = {
            k: data[k]
            for k in Hold.__dataclass_fields__
            if k in data and k not in ("damaged", "problem")
        }
        hold = Hold(**known)
        if not isinstance(hold.adapter, str) or not isinstance(hold.prior, dict):
            raise TypeError
        return hold
    except RecursionError:
        return _damaged(f"{path} is nested too deeply to be a do-not-disturb record.")
    except (ValueError, TypeError, AttributeError):
        return _damaged(f"{path} is not a do-not-disturb record (damaged JSON).")


def _damaged(problem: str) -> Hold:
    return Hold(adapter="", damaged=True, problem=problem)


def save(path: Path, hold: Hold) -> None:
    path = Path(path)

    try:
        ensure_private_dir(path.parent)
    except DataDirError as exc:  # callers report an OSError's reason
        raise OSError(0, str(exc), str(path.parent)) from None
    data = {k: v for k, v in asdict(hold).items() if k != "problem"}
    atomic_write_text(path, json.dumps(data, indent=1, sort_keys=True))


def clear(path: Path) -> str | None:
    """Remove the record: a regular file of ours only. Anything else in its place (a FIFO,
    a folder, a device, another user's file) is not ours to delete: it is left, and the
    returned line says so (None when the record is gone or never was)."""
    import stat

    try:
        st = os.lstat(path)
        if stat.S_ISLNK(st.st_mode) or (stat.S_ISREG(st.st_mode) and not planted(path)):
            os.unlink(path)  # a link is removed, never what it points to
            return None
    except FileNotFoundError:
        return None
    except OSError as exc:
        return f"{path} could not be removed ({exc.strerror or exc}); move it away."

    what = planted(path) or f"is {describe_kind(st.st_mode)}, not a do-not-disturb record"
    return f"{path} {what}; it was left as it is: move it away."
