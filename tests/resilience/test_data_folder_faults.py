"""Faults in the data folder and its options: a bad COMPANION_BUSY_TIMEOUT, ``~nouser``,
a symlink loop as the folder, ``backups`` that is a file, a journal that is a dangling
link or a link loop, a damaged journal. Each is one line naming the real problem (never
a traceback); a damaged journal moved aside is reported with where it went and how to
put a backup back, and the command that could not run exits 1."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
DEMO = REPO / "benchmarks" / "demo_journal.py"  # the app's command line with `demo` added
pytestmark = pytest.mark.skipif(os.name != "posix", reason="POSIX files")


def companion(*argv: str, env: dict | None = None, prefix=()) -> subprocess.CompletedProcess:
    full_env = dict(os.environ, PYTHONPATH=str(REPO), QT_QPA_PLATFORM="offscreen", **(env or {}))
    program = [str(DEMO)] if "demo" in argv else ["-m", "companion"]
    return subprocess.run(
        [*prefix, sys.executable, *program, *argv],
        cwd=REPO,
        env=full_env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def one_line(proc: subprocess.CompletedProcess) -> str:
    assert "Traceback" not in proc.stderr, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("companion: "), proc.stderr
    return lines[0]


@pytest.fixture(scope="module")
def base(tmp_path_factory) -> Path:
    """`companion demo --loops 3 --seed 11`, then a second open (the daily backup)."""
    folder = tmp_path_factory.mktemp("base") / "data"
    assert (
        companion("--data-dir", str(folder), "demo", "--loops", "3", "--seed", "11").returncode == 0
    )
    return folder


@pytest.fixture
def data(base, tmp_path) -> Path:
    copy = tmp_path / "D"
    shutil.copytree(base, copy)
    return copy


@pytest.mark.parametrize("value", ["abc", "-1", "nan", "inf"])
@pytest.mark.parametrize("argv", [["doctor"], ["today"], ["demo", "--loops", "1"]])
def test_a_bad_busy_timeout_is_one_line(data, value, argv):
    proc = companion("--data-dir", str(data), *argv, env={"COMPANION_BUSY_TIMEOUT": value})
    assert proc.returncode == 1
    if argv == ["doctor"]:
        assert "Traceback" not in proc.stderr
        assert "COMPANION_BUSY_TIMEOUT" in proc.stdout
    else:
        assert "COMPANION_BUSY_TIMEOUT" in one_line(proc)


@pytest.mark.parametrize("how", ["nouser", "loop", "below-a-loop"])
@pytest.mark.parametrize("where", ["--data-dir", "COMPANION_HOME"])
def test_an_unusable_folder_option_is_one_line(tmp_path, how, where):
    loop = tmp_path / "loop"
    loop.symlink_to(tmp_path / "loop")
    folder = {
        "nouser": "~no-such-user-here/x",
        "loop": str(loop),
        "below-a-loop": str(loop / "data"),
    }[how]
    if where == "--data-dir":
        proc = companion("--data-dir", folder, "doctor")
    else:
        proc = companion("doctor", env={"COMPANION_HOME": folder})
    assert proc.returncode == 2
    line = one_line(proc)
    assert where in line
    assert ("no user" in line) if how == "nouser" else ("symbolic link loop" in line)


@pytest.mark.parametrize(
    "argv",
    [["today"], ["demo", "--loops", "1"], ["journal", "import", "{export}"]],
)
def test_backups_that_is_a_file_is_a_warning_not_a_traceback(data, tmp_path, argv):
    export = tmp_path / "j.json"
    assert (
        companion("--data-dir", str(data), "journal", "export", "-o", str(export)).returncode == 0
    )
    shutil.rmtree(data / "backups", ignore_errors=True)
    (data / "backups").write_text("not a folder")
    argv = [a.replace("{export}", str(export)) for a in argv]
    proc = companion("--data-dir", str(data), *argv)
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr
    assert "daily backup was not taken" in proc.stderr and "backups" in proc.stderr
    assert (data / "backups").read_text() == "not a folder"
    doctor = companion("--data-dir", str(data), "doctor")
    assert doctor.returncode == 1 and "backups is not a folder" in doctor.stdout


@pytest.mark.parametrize("link", ["dangling", "loop"])
@pytest.mark.parametrize(
    "argv", [["doctor"], ["today"], ["journal", "export", "-o", "{out}"], ["demo", "--loops", "1"]]
)
def test_a_journal_that_is_a_broken_link_is_named(tmp_path, link, argv):
    data = tmp_path / "D"
    data.mkdir(mode=0o700)
    db = data / "companion.sqlite3"
    db.symlink_to(tmp_path / "elsewhere.sqlite3" if link == "dangling" else db)
    argv = [a.replace("{out}", str(tmp_path / "out.json")) for a in argv]
    proc = companion("--data-dir", str(data), *argv)
    assert proc.returncode == 1
    words = "which does not exist" if link == "dangling" else "symbolic link loop"
    if argv == ["doctor"]:
        assert words in proc.stdout and "no journal yet" not in proc.stdout
    else:
        line = one_line(proc)
        assert words in line and "not writable" not in line
    assert os.path.islink(db) and not (tmp_path / "elsewhere.sqlite3").exists()


@pytest.mark.parametrize(
    "argv", [["today"], ["demo", "--loops", "1"], ["schedule", "import", "{ics}"]]
)
def test_a_damaged_journal_moved_aside_is_reported_and_can_be_restored(data, base, tmp_path, argv):
    assert companion("--data-dir", str(data), "today").returncode == 0  # takes the daily backup
    (data / "companion.sqlite3").write_bytes((base / "companion.sqlite3").read_bytes()[:5000])
    ics = tmp_path / "loop.ics"
    ics.write_text(
        "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//t//EN\r\nBEGIN:VEVENT\r\nUID:1\r\n"
        "DTSTART:20261203T090000Z\r\nDTEND:20261203T100000Z\r\nSUMMARY:Acme - Coding\r\n"
        "END:VEVENT\r\nEND:VCALENDAR\r\n"
    )
    argv = [a.replace("{ics}", str(ics)) for a in argv]
    proc = companion("--data-dir", str(data), *argv)
    assert proc.returncode == 1
    line = one_line(proc)
    aside = sorted(
        p.name for p in data.glob("companion.sqlite3.damaged-*") if "-" not in p.name[-4:]
    )
    assert aside and aside[0] in line
    assert "doctor --restore" in line and "did not run" in line
    restored = companion("--data-dir", str(data), "doctor", "--restore")
    assert restored.returncode == 0, restored.stderr
    today = companion("--data-dir", str(data), "today")
    assert today.returncode == 0 and "No interview loop yet" not in today.stdout


def test_running_out_of_memory_is_one_line_and_saves_nothing(tmp_path, base):
    """An import that meets its address-space limit (`prlimit --as`) ended in a
    MemoryError traceback; now it is one line, and the journal keeps what it had. The
    file: 15 MB of short strings, which JSON makes about 200 MB of objects."""
    import resource
    import sqlite3

    big = tmp_path / "strings.json"
    big.write_text("[" + '"aa",' * 3_000_000 + '"aa"]')
    data = tmp_path / "D"
    shutil.copytree(base, data)
    limit = 200 * 1024 * 1024

    def cap():
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    env = dict(os.environ, PYTHONPATH=str(REPO), QT_QPA_PLATFORM="offscreen")
    proc = subprocess.run(
        [sys.executable, "-m", "companion", "--data-dir", str(data), "journal", "import", str(big)],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        preexec_fn=cap,
    )
    assert proc.returncode == 1, proc.stderr[-800:]
    line = one_line(proc)
    assert "ran out of memory" in line and "nothing was saved" in line
    conn = sqlite3.connect(data / "companion.sqlite3")
    assert conn.execute("SELECT COUNT(*) FROM loops").fetchone()[0] == 3
    conn.close()


def _plant(path: Path, kind: str) -> None:
    if kind == "file":
        path.write_text("x")
    elif kind == "folder":
        path.mkdir()
    elif kind == "fifo":
        os.mkfifo(path)
    elif kind == "loop":
        path.symlink_to(path.name)
    elif kind == "dangling":
        path.symlink_to(path.parent / "nowhere")
    elif kind == "device":
        path.symlink_to(os.devnull)
    elif kind == "file-link":  # to a regular file of the user's, elsewhere
        target = path.parent.parent / f"elsewhere{path.suffix}"
        target.write_text("")
        path.symlink_to(target)


@pytest.mark.parametrize(
    "name, kinds",
    [
        ("content", ["file", "fifo", "loop", "dangling", "device"]),
        ("takes", ["file", "fifo", "loop"]),
        ("prefs.json", ["folder", "fifo", "loop", "dangling", "device"]),
        ("dnd-state.json", ["folder", "fifo", "loop", "device"]),
        (".instance.lock", ["folder", "fifo", "loop"]),
    ],
)
def test_doctor_names_an_entry_of_the_folder_that_is_the_wrong_kind(data, name, kinds, capsys):
    """A `content` that was a file, a FIFO, a link loop or a device: doctor said nothing
    and 'healthy'. Every entry the folder owns is checked for what it must be."""
    from companion.cli import main

    words = {
        "file": "is a file, not a folder",
        "folder": "is a folder, not a regular file",
        "fifo": "is a FIFO",
        "loop": "is a symbolic link loop",
        "dangling": "which does not exist",
        "device": "is a device",
    }
    for kind in kinds:
        target = data / name
        _plant(target, kind)
        assert main(["--data-dir", str(data), "doctor"]) == 1, kind
        out = capsys.readouterr().out
        line = next((ln for ln in out.splitlines() if ln.startswith(f"! {target} ")), "")
        assert words[kind] in line and "move it away" in line, (kind, out)
        assert os.path.lexists(target), "doctor only looks"
        if target.is_dir() and not target.is_symlink():
            target.rmdir()
        else:
            target.unlink()


@pytest.mark.parametrize("suffix", ["-wal", "-shm"])
@pytest.mark.parametrize("kind", ["fifo", "folder", "loop", "dangling", "device", "file-link"])
def test_a_side_file_of_the_journal_that_is_not_a_file_is_named(data, tmp_path, suffix, kind):
    """A FIFO `-wal` was opened by SQLite as the journal's log (doctor: 'healthy', the
    FIFO chmod-ed); a folder or link there (a link to a file too) was blamed on an
    unwritable folder."""
    side = data / f"companion.sqlite3{suffix}"
    if side.exists():
        side.unlink()
    _plant(side, kind)
    journal = (data / "companion.sqlite3").read_bytes()
    for argv in (["today"], ["journal", "export", "-o", str(tmp_path / "j.json")]):
        proc = companion("--data-dir", str(data), *argv)
        assert proc.returncode == 1, proc.stderr
        line = one_line(proc)
        assert f"{side} is " in line and "not writable" not in line and "I/O" not in line
    doctor = companion("--data-dir", str(data), "doctor")
    assert doctor.returncode == 1 and f"{side} is " in doctor.stdout
    assert (data / "companion.sqlite3").read_bytes() == journal
    assert os.path.lexists(side) and not (tmp_path / "j.json").exists()


@pytest.mark.parametrize("kind", ["fifo", "folder", "loop", "device"])
def test_doctor_names_a_backup_that_is_not_a_file(data, kind, capsys):
    """A FIFO or folder named like the newest backup was skipped without a word: doctor
    said 'healthy', and a restore would have met it."""
    from companion.cli import main

    assert main(["--data-dir", str(data), "today"]) == 0  # the second open: a backup
    newest = sorted((data / "backups").iterdir())[-1]
    newest.unlink()
    _plant(newest, kind)
    assert main(["--data-dir", str(data), "doctor"]) == 1
    out = capsys.readouterr().out
    assert f"! {newest} is " in out and "not a backup the app takes, lists or restores" in out
    assert os.path.lexists(newest)


def _hold_open(db_file: Path) -> subprocess.Popen:
    """Another process with the journal open (a read done, the connection kept)."""
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sqlite3, sys; c = sqlite3.connect(sys.argv[1], isolation_level=None); "
            "print(c.execute('select count(*) from loops').fetchone()[0], flush=True); "
            "sys.stdin.readline(); "
            "print(c.execute('select count(*) from loops').fetchone()[0], flush=True)",
            str(db_file),
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    return holder


def test_restore_while_another_process_has_the_journal_open_mixes_nothing(data, tmp_path):
    """`doctor --restore` while `demo` ran swapped the file under the demo's connection,
    which went on writing the old journal's pages into the -wal beside the restored one:
    'malformed database schema'. Now the backup is written into the journal through
    SQLite (its locks), the old content copied aside first."""
    import sqlite3

    assert companion("--data-dir", str(data), "today").returncode == 0  # a backup (3 loops)
    assert companion("--data-dir", str(data), "demo", "--loops", "2").returncode == 0
    holder = _hold_open(data / "companion.sqlite3")
    try:
        assert holder.stdout.readline().strip() == "5"
        proc = companion("--data-dir", str(data), "doctor", "--restore")
        assert proc.returncode == 0, proc.stderr
        holder.stdin.write("\n")
        holder.stdin.flush()
        assert holder.stdout.readline().strip() == "3"  # it sees the restored journal
    finally:
        holder.communicate("", timeout=30)
    conn = sqlite3.connect(data / "companion.sqlite3")
    assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    assert conn.execute("select count(*) from loops").fetchone()[0] == 3
    conn.close()
    [aside] = [
        p for p in data.glob("companion.sqlite3.damaged-*") if not p.name.endswith(("-wal", "-shm"))
    ]
    conn = sqlite3.connect(aside)
    assert conn.execute("select count(*) from loops").fetchone()[0] == 5  # kept
    conn.close()


def test_a_damaged_journal_open_elsewhere_is_not_swapped(data, tmp_path):
    """A journal SQLite cannot open is moved aside; not while another process has it."""
    assert companion("--data-dir", str(data), "today").returncode == 0  # a backup
    holder = _hold_open(data / "companion.sqlite3")
    try:
        assert holder.stdout.readline().strip() == "3"
        with open(data / "companion.sqlite3", "r+b") as fh:
            fh.write(b"not a database, not any more")
        names = sorted(p.name for p in data.iterdir())
        proc = companion("--data-dir", str(data), "doctor", "--restore")
        assert proc.returncode == 1
        line = one_line(proc)
        assert "open in another program" in line and "nothing was restored" in line
        lock = {".instance.lock"}  # the restore's own single-instance lock
        assert sorted(p.name for p in data.iterdir() if p.name not in lock) == names
    finally:
        holder.communicate("\n", timeout=30)
