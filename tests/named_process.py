"""A real running process with a chosen name (a copy of sleep), for checks that read the
process list (preflight's pingers)."""

from __future__ import annotations

import contextlib
import shutil
import subprocess
import time
from pathlib import Path


def record_signals(monkeypatch) -> list[tuple[int, int]]:
    """Every (pid, signal) this process sends from now on through os.kill, passed on as
    sent: that a signal was not sent is then known at once, not by waiting a while to
    see whether the process died."""
    import os

    sent: list[tuple[int, int]] = []
    real = os.kill

    def kill(pid: int, sig: int) -> None:
        sent.append((pid, sig))
        real(pid, sig)

    monkeypatch.setattr(os, "kill", kill)
    return sent


@contextlib.contextmanager
def named_process(folder: Path, name: str):
    program = folder / name
    shutil.copy("/bin/sleep", program)
    proc = subprocess.Popen([str(program), "60"])
    for _ in range(100):
        if Path(f"/proc/{proc.pid}/comm").read_text().strip() == name[:15]:
            break
        time.sleep(0.01)
    try:
        yield proc
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait()
