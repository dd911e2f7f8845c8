"""Reading what is not a regular file: /dev/zero, a FIFO, a symlink to a device, a
symlink loop. Every reader goes through the one bounded reader, so each of these ends at
once with one line naming the file. Run in a child process with a memory cap and a
timeout, so the old behaviour (grow to gigabytes, or block forever) fails the test
instead of the machine."""

from __future__ import annotations

import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest

from companion.core.fileio import LIMITS, FileReadError, read_limited

REPO = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.skipif(not Path("/dev/zero").exists(), reason="needs /dev/zero")


def _cap():
    resource.setrlimit(resource.RLIMIT_AS, (1536 * 1024 * 1024, 1536 * 1024 * 1024))


def companion(*argv: str, data_dir: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(REPO), QT_QPA_PLATFORM="offscreen")
    return subprocess.run(
        [sys.executable, "-m", "companion", "--data-dir", str(data_dir), *argv],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=30,
        preexec_fn=_cap,
    )


def one_line(proc: subprocess.CompletedProcess) -> str:
    assert "Traceback" not in proc.stderr, proc.stderr
    lines = [ln for ln in proc.stderr.splitlines() if ln.startswith("companion")]
    assert lines, proc.stderr
    return lines[0]


@pytest.fixture
def fifo(tmp_path) -> Path:
    path = tmp_path / "pipe.json"
    os.mkfifo(path)
    return path


@pytest.mark.parametrize("source", ["/dev/zero", "{fifo}", "{link}"])
@pytest.mark.parametrize(
    "argv",
    [["journal", "import"], ["about", "analyze"], ["about", "export", "-o", "{out}", "--input"]],
)
def test_commands_refuse_devices_fifos_and_links_to_them(argv, source, tmp_path, fifo):
    link = tmp_path / "zero.md"
    link.symlink_to("/dev/zero")
    source = source.replace("{fifo}", str(fifo)).replace("{link}", str(link))
    argv = [a.replace("{out}", str(tmp_path / "out.md")) for a in argv]
    proc = companion(*argv, source, data_dir=tmp_path / "data")
    assert proc.returncode == 1, proc.stderr
    line = one_line(proc)
    assert "not a regular file" in line, line


def test_the_ics_reader_refuses_devices_and_fifos(tmp_path, fifo):
    from companion.core.day.ics import IcsError, read_ics

    for path in (Path("/dev/zero"), fifo, tmp_path):
        with pytest.raises(IcsError, match="not a regular file|folder"):
            read_ics(path)


def test_content_check_survives_fifo_device_link_and_symlink_loop(tmp_path):
    pack = tmp_path / "pack"
    pack.mkdir()
    os.mkfifo(pack / "fifo.md")
    (pack / "zero.md").symlink_to("/dev/zero")
    (pack / "loop.md").symlink_to(pack / "loop.md")
    (pack / "sub").symlink_to(pack / "sub")  # a folder loop too
    proc = companion("content", "check", str(pack), data_dir=tmp_path / "data")
    assert proc.returncode == 1
    assert "Traceback" not in proc.stderr
    err = proc.stderr
    assert "fifo.md" in err and "zero.md" in err and "loop.md" in err
    assert "3 error(s)" in proc.stdout


def test_the_reader_stops_at_the_limit_even_if_stat_lies(tmp_path, monkeypatch):
    big = tmp_path / "big.ics"
    big.write_bytes(b"x" * (LIMITS["calendar"] + 10))
    with pytest.raises(FileReadError, match="at most 2 MiB"):
        read_limited(big, "calendar")
    real_fstat = os.fstat

    class Small:
        def __init__(self, st):
            self._st = st

        def __getattr__(self, name):
            return 0 if name == "st_size" else getattr(self._st, name)

    monkeypatch.setattr(os, "fstat", lambda fd: Small(real_fstat(fd)))
    with pytest.raises(FileReadError, match="larger than"):
        read_limited(big, "calendar")
