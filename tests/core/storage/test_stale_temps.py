"""A writer killed mid-write (SIGKILL runs no clean-up) leaves its hidden temp file; the
next write of the same file removes it, and never another live writer's."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap

from companion.core.storage.files import atomic_write_text

KILLED_WRITER = textwrap.dedent(
    """
    import os, signal, sys
    from companion.core.storage.files import atomic_writer
    with atomic_writer(sys.argv[1]) as fh:
        fh.write(b"half of an export")
        fh.flush()
        os.kill(os.getpid(), signal.SIGKILL)
    """
)


def temps(folder, name):
    return [p for p in folder.iterdir() if p.name.startswith(f".{name}.")]


def test_a_killed_writers_temp_file_is_removed_by_the_next_write(tmp_path):
    out = tmp_path / "journal.json"
    proc = subprocess.run([sys.executable, "-c", KILLED_WRITER, str(out)], timeout=60)
    assert proc.returncode == -signal.SIGKILL
    assert len(temps(tmp_path, out.name)) == 1  # what the kill left
    atomic_write_text(out, "{}")
    assert temps(tmp_path, out.name) == [] and out.read_text() == "{}"


def test_a_live_writers_temp_file_is_left(tmp_path):
    out = tmp_path / "journal.json"
    sleeper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        live = tmp_path / f".{out.name}.{sleeper.pid}-abc.tmp"
        live.write_text("being written")
        other = tmp_path / ".other.json.1-abc.tmp"
        other.write_text("not this file's")
        atomic_write_text(out, "{}")
        assert live.exists() and other.exists()
    finally:
        sleeper.kill()
        sleeper.wait()
    assert os.path.exists(out)
