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
        deadline = time.monotonic() + 60
        while not (data / "companion.sqlite3").exists() and time.monotonic() < deadline:
            assert proc.poll() is None, proc.communicate()[1][-2000:]
            time.sleep(0.1)
        time.sleep(3)  # the loop is running, idle
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
