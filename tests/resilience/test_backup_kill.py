"""A SIGKILL in the middle of a backup leaves a hidden full-size copy in backups/: doctor
mentions it, and the next backup (due, since this one never finished) removes it."""

from __future__ import annotations

import os
import signal
import subprocess
import sys

from demo_journal import companion_with_demo

from companion.cli import main

CHILD = """
import os, sys, time
from companion.core.storage.store import open_store

real_replace = os.replace

def stall(src, dst, **kw):  # the daily backup's copy is whole: stop before it is named
    if os.path.basename(src).startswith(".companion-"):
        print("copied", flush=True)
        time.sleep(60)
    return real_replace(src, dst, **kw)

os.replace = stall
open_store(sys.argv[1])
"""


def test_a_backup_killed_midway_is_mentioned_then_removed(data_dir, capsys):
    assert companion_with_demo(["demo", "--loops", "5"]) == 0
    folder = data_dir / "backups"
    for old in folder.glob("*"):
        old.unlink()  # so that the next open takes a backup
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(data_dir / "companion.sqlite3")],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert child.stdout.readline().strip() == "copied"
    finally:
        os.kill(child.pid, signal.SIGKILL)
        child.wait()
        child.stdout.close()
    hidden = [p for p in folder.iterdir() if p.name.startswith(".companion-")]
    assert len(hidden) == 1 and hidden[0].stat().st_size > 100_000
    capsys.readouterr()
    assert main(["doctor"]) == 0
    assert "backups/ holds 1 hidden copy of a backup cut short" in capsys.readouterr().out
    # the next command's open takes the backup that is still due, and sweeps
    assert main(["today"]) == 0
    assert not hidden[0].exists()
    assert [p.name for p in folder.iterdir() if p.name.startswith(".")] == []
    assert len(list(folder.glob("companion-*.sqlite3"))) == 1
