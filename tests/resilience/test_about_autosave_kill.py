"""A process typing into the one-pager through the real autosave code is SIGKILLed: the
database must pass integrity_check and hold everything but at most the last second."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]

# The child types one character every few milliseconds, drives the Autosaver as the page
# does (touch on every edit, tick every ~0.1 s), and logs "<length> <monotonic time>" for
# each keystroke before the next one. CLOCK_MONOTONIC is shared across processes on Linux.
CHILD = textwrap.dedent(
    """
    import datetime as dt
    import sys
    import time

    from companion.core.about.autosave import Autosaver
    from companion.core.context import AppContext

    def typed(n):
        return "".join("\\n" if i % 60 == 59 else chr(97 + i % 26) for i in range(n))

    from companion.core.paths import resolve_data_dir

    ctx = AppContext(resolve_data_dir())
    state = {"n": 0}
    saver = Autosaver(
        ctx.db, lambda: typed(state["n"]), wall_clock=lambda: dt.datetime.now().astimezone()
    )
    out = sys.stdout
    out.write("ready\\n")
    out.flush()
    next_tick = time.monotonic()
    while True:
        state["n"] += 1
        saver.touch()
        out.write(f"{state['n']} {time.monotonic():.6f}\\n")
        out.flush()
        if time.monotonic() >= next_tick:
            saver.tick()
            next_tick = time.monotonic() + 0.1
        time.sleep(0.004)
    """
)


def typed(n: int) -> str:
    return "".join("\n" if i % 60 == 59 else chr(97 + i % 26) for i in range(n))


def run_and_kill(data_dir: Path, typed_before_kill: int) -> tuple[dict[int, float], float]:
    """Start the typist, kill it once it has typed ``typed_before_kill`` keystrokes (an
    event the child reports, not a wall-clock sleep that a loaded machine stretches), and
    return its keystrokes with their times and the moment of the kill."""
    env = dict(os.environ, COMPANION_HOME=str(data_dir), PYTHONPATH=str(REPO))
    proc = subprocess.Popen(
        [sys.executable, "-c", CHILD],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
        text=True,
        cwd=REPO,
    )
    seen = []
    try:
        assert proc.stdout.readline().strip() == "ready", proc.stderr.read()
        while len(seen) < typed_before_kill:
            line = proc.stdout.readline()
            assert line, proc.stderr.read()
            seen.append(line)
        killed_at = time.monotonic()
        proc.send_signal(signal.SIGKILL)
        out, err = proc.communicate(timeout=20)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == -signal.SIGKILL, err
    keystrokes = {}
    for line in [*seen, *out.splitlines()]:
        parts = line.split()
        if len(parts) == 2:
            keystrokes[int(parts[0])] = float(parts[1])
    return keystrokes, killed_at


@pytest.mark.parametrize("typed_before_kill", [300, 600])  # about 1.3 s and 2.5 s of typing
def test_killed_typist_loses_at_most_the_last_second(tmp_path, typed_before_kill):
    data_dir = tmp_path / "data"
    data_dir.mkdir(mode=0o700)
    keystrokes, killed_at = run_and_kill(data_dir, typed_before_kill)
    assert len(keystrokes) > 100, "the child barely typed; the test proves nothing"

    conn = sqlite3.connect(data_dir / "companion.sqlite3")
    try:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        row = conn.execute("SELECT text FROM about_document WHERE id = 1").fetchone()
    finally:
        conn.close()
    assert row is not None, "nothing was saved at all"
    saved = row[0]
    last = max(keystrokes)
    assert saved == typed(len(saved)), "the saved text is not what was typed"
    assert 0 < len(saved) <= last
    if len(saved) < last:
        first_lost = keystrokes[len(saved) + 1]
        # everything typed before the last second survived
        assert killed_at - first_lost <= 1.0, (
            f"lost {last - len(saved)} keystrokes reaching back "
            f"{killed_at - first_lost:.2f} s before the kill"
        )
