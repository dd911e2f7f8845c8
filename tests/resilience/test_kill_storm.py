"""SIGKILL a process writing through the real storage code, 20 times (1,000 in a soak);
nothing committed may go missing and the database must stay intact.

Each child (kill_child.py) opens the store, then writes journal transactions (loop, round,
start, end inside ``db.atomic()``) and, when the about-me store exists, one-pager saves,
printing a flushed line after each commit. It is killed 5-60 ms after it reports ready,
seven in ten after its first commit too (one in ten is killed earlier, while it may still
be opening or migrating the store).
COMPANION_SOAK=1 raises the count to 1000 (``make soak``; COMPANION_SOAK_KILLS sets it).
Twenty already kill writers mid-commit (the last checks require half of them to be), and
each kill is checked on its own; the thousand are the search for the rare torn write.
"""

from __future__ import annotations

import os
import random
import re
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from companion.core.storage.store import open_store

pytestmark = pytest.mark.slow

CHILD = Path(__file__).with_name("kill_child.py")
REPO = Path(__file__).resolve().parents[2]
KILLS = (
    int(os.environ.get("COMPANION_SOAK_KILLS", "1000")) if os.environ.get("COMPANION_SOAK") else 20
)
ABOUT_RE = re.compile(r"rev (\d+)-(\d+)\n((?:typing )*)\Z")


def _spawn(db_path: Path, seed: int) -> subprocess.Popen:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(REPO) + os.pathsep + env.get("PYTHONPATH", "")
    return subprocess.Popen(
        [sys.executable, str(CHILD), str(db_path), str(seed)],
        cwd=REPO,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _read_db(db_path: Path) -> tuple[str, set[int], set[int], str | None]:
    """integrity_check result, loop ids, ended round ids and the one-pager text."""
    conn = sqlite3.connect(db_path, timeout=10)
    try:
        integrity = conn.execute("PRAGMA integrity_check").fetchone()[0]
        loop_ids = {r[0] for r in conn.execute("SELECT id FROM loops")}
        ended = {r[0] for r in conn.execute("SELECT id FROM rounds WHERE ended_at IS NOT NULL")}
        about = None
        if conn.execute(
            "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'about_document'"
        ).fetchone():
            row = conn.execute("SELECT text FROM about_document WHERE id = 1").fetchone()
            about = row[0] if row else None
    finally:
        conn.close()
    return integrity, loop_ids, ended, about


def test_sigkill_storm_keeps_every_commit(tmp_path):
    data = tmp_path / "data"
    db_path = data / "companion.sqlite3"
    open_store(db_path).close()
    rng = random.Random(int(os.environ.get("COMPANION_KILL_SEED", "20261201")))

    committed_loops: set[int] = set()
    committed_rounds: set[int] = set()
    last_about: tuple[int, int] | None = None
    kills_after_a_commit = 0

    for seed in range(KILLS):
        proc = _spawn(db_path, seed)
        watchdog = threading.Timer(30, proc.kill)  # a hung child fails the test, not the run
        watchdog.start()
        read = ""  # what was read before the kill (the rest comes from communicate)
        try:
            when = rng.random()
            if when < 0.1:
                time.sleep(rng.uniform(0.0, 0.15))  # maybe still opening / migrating
            else:
                first = proc.stdout.readline()
                assert first.strip() == "ready", f"child {seed} failed: {proc.stderr.read()}"
                if when >= 0.3:
                    # most kills come mid-stream: after a first commit, however slow the
                    # machine (a loaded one often killed between ready and that commit)
                    read = proc.stdout.readline()
                time.sleep(rng.uniform(0.005, 0.060))
            proc.send_signal(signal.SIGKILL)
            out, err = proc.communicate(timeout=30)
            out = read + out
        finally:
            watchdog.cancel()
        assert proc.returncode == -signal.SIGKILL, f"child {seed} ended by itself: {err}"

        commits_here = 0
        for line in out.splitlines():
            parts = line.split()
            if len(parts) == 3 and parts[0] == "J":
                committed_loops.add(int(parts[1]))
                committed_rounds.add(int(parts[2]))
                commits_here += 1
            elif len(parts) == 3 and parts[0] == "A":
                it, n = (int(x) for x in parts[1].split("-"))
                last_about = (it, n)
                commits_here += 1
        kills_after_a_commit += commits_here > 0

        integrity, loop_ids, ended, about = _read_db(db_path)
        assert integrity == "ok", f"after kill {seed}: {integrity}"
        missing = committed_loops - loop_ids
        assert not missing, f"after kill {seed}: committed loops {sorted(missing)[:5]} are gone"
        missing = committed_rounds - ended
        assert not missing, f"after kill {seed}: committed rounds {sorted(missing)[:5]} lost"
        if last_about is not None:
            assert about is not None, f"after kill {seed}: the one-pager is gone"
            match = ABOUT_RE.match(about)
            assert match, f"after kill {seed}: the one-pager is torn: {about[:60]!r}"
            saved = (int(match.group(1)), int(match.group(2)))
            assert saved >= last_about, f"after kill {seed}: {saved} older than {last_about}"
        assert not list(data.glob("*.damaged-*")), f"after kill {seed}: the DB was moved aside"

    store = open_store(db_path)
    try:
        assert store.notices == []
        assert store.quick_check() == "ok"
    finally:
        store.close()
    # the storm must have hit writers mid-stream, not only children still starting up
    assert kills_after_a_commit >= KILLS // 2, f"only {kills_after_a_commit} kills after a commit"
    assert len(committed_loops) >= KILLS
    assert last_about is not None, "no about-me save was committed"
