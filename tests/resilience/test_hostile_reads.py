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
    [
        ["journal", "import"],
        ["about", "analyze"],
        ["about", "export", "-o", "{out}", "--input"],
        ["about", "rehearse", "--audio"],
    ],
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
    assert "3 errors" in proc.stdout


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


@pytest.fixture
def deadline():
    """In-process reads of a FIFO blocked forever in the old code: fail instead."""
    import signal

    class Blocked(BaseException):  # not an OSError: the old code caught those
        pass

    def expired(signum, frame):
        raise Blocked("the read did not return in 20 s")

    old = signal.signal(signal.SIGALRM, expired)
    signal.alarm(20)
    yield
    signal.alarm(0)
    signal.signal(signal.SIGALRM, old)


def _plant(folder: Path, name: str, what: str, fifo_dir: Path) -> None:
    folder.mkdir(exist_ok=True)
    target = folder / name
    if what == "fifo":
        os.mkfifo(target)
    elif what == "zero":
        target.symlink_to("/dev/zero")
    elif what == "loop":
        target.symlink_to(target)
    elif what == "folder":
        target.mkdir()


@pytest.mark.parametrize("what", ["fifo", "zero", "loop", "folder"])
@pytest.mark.parametrize(
    "name, argv",
    [
        ("prefs.json", ["doctor"]),
        ("prefs.json", ["today"]),
        ("dnd-state.json", ["dnd", "status"]),
    ],
)
def test_the_data_folders_own_files_are_read_bounded(tmp_path, name, argv, what):
    """A FIFO prefs.json used to hang every command (doctor too), a link to /dev/zero
    to grow without end; a FIFO dnd-state.json hung `dnd status`. Each now ends at once,
    and the planted file is left as it was."""
    data = tmp_path / "data"
    _plant(data, name, what, tmp_path)
    before = os.lstat(data / name).st_mode
    proc = companion(*argv, data_dir=data)
    assert "Traceback" not in proc.stderr, proc.stderr
    assert proc.returncode in (0, 1), proc.stderr
    assert os.lstat(data / name).st_mode == before


def test_a_hostile_prefs_file_is_named_and_defaults_are_used(tmp_path, deadline):
    from companion.core.prefs import Prefs

    data = tmp_path / "data"
    _plant(data, "prefs.json", "fifo", tmp_path)
    prefs = Prefs(data / "prefs.json")
    assert prefs.get("main.page", "today") == "today"
    assert "prefs.json" in prefs.problem and "FIFO" in prefs.problem
    assert prefs.save() is not None  # a FIFO is never replaced


def test_deeply_nested_preferences_are_named_and_every_command_runs(tmp_path):
    """`prefs.json` of '[[[[...' (200 KB, under the 1 MiB cap) raised RecursionError from
    json.loads: a traceback on every command and at the GUI's start."""
    from companion.core.prefs import Prefs

    data = tmp_path / "data"
    data.mkdir()
    (data / "prefs.json").write_text("[" * 100_000 + "]" * 100_000)
    prefs = Prefs(data / "prefs.json")
    assert prefs.get("main.page") is None and "nested too deeply" in prefs.problem
    proc = companion("today", data_dir=data)
    assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr


def test_a_dnd_record_that_is_a_fifo_reads_as_damaged(tmp_path, deadline):
    from companion.core.dnd.record import load

    os.mkfifo(tmp_path / "dnd-state.json")
    hold = load(tmp_path / "dnd-state.json")
    assert hold is not None and hold.damaged


def test_an_instance_lock_that_is_not_a_file_is_a_folder_problem(tmp_path, deadline):
    """`.instance.lock` as a folder ended the GUI in a traceback (IsADirectoryError)."""
    from companion.core.context import AppContext
    from companion.ui.process.folder_problem import usable_context

    data = tmp_path / "data"
    for what in ("folder", "fifo"):
        _plant(data, ".instance.lock", what, tmp_path)
        asked: list[str] = []
        ctx = AppContext(data)
        assert (
            usable_context(ctx, ask=lambda folder, problem, seen=asked: seen.append(problem))
            is None
        )
        assert asked and ".instance.lock" in asked[0] and "move it away" in asked[0]
        ctx.close()
        lock = data / ".instance.lock"
        lock.rmdir() if lock.is_dir() else lock.unlink()


@pytest.mark.parametrize("junk", ["deep", "not-json", "loop"])
def test_saving_over_unreadable_preferences_keeps_them_aside(tmp_path, junk):
    """Prefs that could not be read were overwritten by the next save (the GUI's quit):
    whatever the user had there was gone. Now the file is kept aside first."""
    from companion.core.prefs import Prefs

    path = tmp_path / "prefs.json"
    if junk == "loop":
        path.symlink_to("prefs.json")
    else:
        path.write_text("[" * 100_000 + "]" * 100_000 if junk == "deep" else '{"main.page": ')
    before = os.readlink(path) if junk == "loop" else path.read_text()
    prefs = Prefs(path)
    assert prefs.problem
    prefs.set("main.page", "today")
    assert prefs.save() is None
    assert Prefs(path).get("main.page") == "today"
    [aside] = tmp_path.glob("prefs.json.damaged-*")
    assert (os.readlink(aside) if junk == "loop" else aside.read_text()) == before
    assert prefs.save() is None and len(list(tmp_path.glob("prefs.json.damaged-*"))) == 1


def _readme_limits() -> dict[str, int]:
    """The limits README.md promises: its "Files the app reads" table, and the data
    folder's own files in the sentence before it."""
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    units = {"MiB": 1024 * 1024, "KiB": 1024, "MB": 1_000_000}
    table = readme.split("### Files the app reads", 1)[1].split("\n\n", 3)[2]
    said = {}
    for line in table.splitlines()[2:]:
        kind, limit = (c.strip() for c in line.strip("|").split("|"))
        number, unit = limit.split()
        said[kind.split(" (")[0]] = int(number) * units[unit]
    own = readme.split("hand it (regular files only, ", 1)[1].split(")", 1)[0]
    for part in own.split(", "):
        name, *_, number, unit = part.replace("at most ", "").split()
        said[name.strip("`")] = int(number) * units[unit]
    return said


def test_every_kind_is_read_up_to_the_limit_the_readme_gives_and_not_a_byte_more(tmp_path):
    """A limit changed in the code and not in the README (or the other way) fails here;
    each small kind is read at its limit and refused one byte past it."""
    names = {
        "journal JSON": "journal",
        "Markdown: a one-pager or a story bank": "one-pager",
        "content pack file": "content",
        "calendar invitation": "calendar",
        "voice take": "take",
        "prefs.json": "prefs",
        "dnd-state.json": "dnd-state",
    }
    said = {names[k]: v for k, v in _readme_limits().items()}
    assert said == LIMITS
    for kind in ("prefs", "dnd-state", "content", "calendar"):
        path = tmp_path / kind
        path.write_bytes(b"x" * LIMITS[kind])
        assert len(read_limited(path, kind)) == LIMITS[kind]
        path.write_bytes(b"x" * (LIMITS[kind] + 1))
        with pytest.raises(FileReadError):
            read_limited(path, kind)
