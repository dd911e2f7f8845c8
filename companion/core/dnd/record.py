"""The record of a pause in progress: which adapter, the prior state, who holds it.

Written atomically to ``<data folder>/dnd-state.json`` *before* notifications are
paused and removed only after they are restored, so a crash or kill in between leaves
the prior state on disk for the next start to put back.
"""

from __future__ import annotations

import contextlib
import json
import os
from dataclasses import asdict, dataclass, field
from pathlib import Path

from companion.core import paths
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


def record_path(data_dir: Path) -> Path:
    return paths.dnd_state_path(data_dir)


def load(path: Path) -> Hold | None:
    from companion.core.fileio import FileMissingError, FileReadError, planted, read_limited

    if planted(path):  # another user's record is not ours to "restore" from
        return Hold(adapter="", damaged=True)
    try:  # bounded: a FIFO here must not hang `dnd status` or the app's start
        raw = read_limited(path, "dnd-state").decode("utf-8")
    except FileMissingError:
        return None
    except (FileReadError, UnicodeDecodeError):
        return Hold(adapter="", damaged=True)
    try:
        data = json.loads(raw)
        known = {k: data[k] for k in Hold.__dataclass_fields__ if k in data and k != "damaged"}
        hold = Hold(**known)
        if not isinstance(hold.adapter, str) or not isinstance(hold.prior, dict):
            raise TypeError
        return hold
    except (ValueError, TypeError, AttributeError):
        return Hold(adapter="", damaged=True)


def save(path: Path, hold: Hold) -> None:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_text(path, json.dumps(asdict(hold), indent=1, sort_keys=True))


def clear(path: Path) -> None:
    with contextlib.suppress(FileNotFoundError):
        os.unlink(path)
