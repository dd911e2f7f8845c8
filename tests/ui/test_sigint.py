"""Ctrl+C in the terminal ends the app and the lone cue card like Ctrl+Q, with exit code
130 and no traceback; they ignored SIGINT for 20-70 s (Qt's loop never let Python run)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def _cpu_ticks_and_waiting(pid: int) -> tuple[int, bool]:
    """The process's CPU time (clock ticks) and whether its main thread sleeps in poll:
    Qt's event loop waiting for an event."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    wchan = Path(f"/proc/{pid}/wchan").read_text()
    return int(fields[11]) + int(fields[12]), fields[0] == "S" and "poll" in wchan


def wait_until_idle(proc: subprocess.Popen, data: Path, quiet: float = 1.0) -> None:
    """Until the app's event loop runs with nothing left to do: its journal exists, its
    main thread sleeps in poll and it used almost no CPU for ``quiet`` seconds (on a
    loaded machine, start-up work goes on for seconds after the journal is made: a fixed
    sleep sent the signal into it)."""
    deadline = time.monotonic() + 90
    since, ticks = None, -1
    while time.monotonic() < deadline:
        assert proc.poll() is None, proc.communicate()[1][-2000:]
        now_ticks, waiting = _cpu_ticks_and_waiting(proc.pid)
        if not (data / "companion.sqlite3").exists() or not waiting:
            since = None
        elif since is None or now_ticks - ticks > 2:  # a timer's no-op: under 20 ms
            since, ticks = time.monotonic(), now_ticks
        elif time.monotonic() - since >= quiet:
            return
        time.sleep(0.05)
    raise AssertionError("the app never went idle in its event loop")


def started(argv, data: Path) -> subprocess.Popen:
    env = dict(os.environ, PYTHONPATH=str(REPO), QT_QPA_PLATFORM="offscreen")
    return subprocess.Popen(
        [sys.executable, "-m", "companion", "--data-dir", str(data), *argv],
        cwd=REPO,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


@pytest.mark.slow
@pytest.mark.parametrize(
    ("argv", "sig", "code"),
    [([], signal.SIGINT, 130), (["cue"], signal.SIGINT, 130), ([], signal.SIGTERM, 143)],
    ids=["app", "cue", "app-sigterm"],
)
def test_ctrl_c_quits_with_130(argv, sig, code, tmp_path):
    """SIGTERM too (a log-out, `kill`): it killed the app outright, do-not-disturb left on
    until the next start."""
    data = tmp_path / "data"
    proc = started(argv, data)
    try:
        wait_until_idle(proc, data)
        proc.send_signal(sig)
        sent = time.monotonic()
        out, err = proc.communicate(timeout=20)
        waited = time.monotonic() - sent
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == code, err[-2000:]
    assert "Traceback" not in err and "KeyboardInterrupt" not in err
    assert waited < 10
