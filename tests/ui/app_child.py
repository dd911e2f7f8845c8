"""App code run in a child Python, for what one test process cannot show: the modules a
fresh start or a quit loads, the first frame of a new process.

The child has the checkout on its path, Qt's offscreen platform and a private HOME; its
result comes back whole (the caller asserts on its stdout and stderr)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def run_child(code: str, *args: str, home: Path, timeout: float = 120, **env: str):
    """``python -c code args...`` from the checkout; ``env`` adds variables."""
    child_env = dict(
        os.environ, PYTHONPATH=str(REPO), QT_QPA_PLATFORM="offscreen", HOME=str(home), **env
    )
    return subprocess.run(
        [sys.executable, "-c", code, *args],
        cwd=REPO,
        env=child_env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def journal_with_a_loop_today(tmp_path: Path) -> Path:
    """A data folder whose journal holds a loop today (Acme, SRE) with a coding round in
    two hours: the app opens on Today's plan."""
    import datetime as dt

    from companion.core.day.loops import add_round, create_loop
    from companion.core.storage.store import open_store
    from companion.core.timeutil import local_now

    data = tmp_path / "data"
    data.mkdir(mode=0o700)
    store = open_store(data / "companion.sqlite3")
    now = local_now().replace(second=0, microsecond=0)
    loop = create_loop(store.db, "Acme", "SRE", starts_on=now.date().isoformat())
    add_round(store.db, loop, "coding", scheduled_at=now + dt.timedelta(hours=2))
    store.close()
    return data
