"""Folders that are not ours: a shared 1777 folder, a user's 0500 folder, a path that is
a file, an empty or too-long name. The app sets modes only on folders it created, says
in one line why it cannot use a folder, and a check (doctor) or a read (export) leaves
the database's bytes alone."""

from __future__ import annotations

import os
import sqlite3
import stat
from pathlib import Path

import pytest
from demo_journal import companion_with_demo

from companion.cli import main

pytestmark = pytest.mark.skipif(os.name != "posix", reason="POSIX permission bits")


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.mark.parametrize("folder_mode", [0o1777, 0o755, 0o500])
def test_an_existing_folder_keeps_its_mode(tmp_path, folder_mode, capsys):
    shared = tmp_path / "shared"
    shared.mkdir()
    os.chmod(shared, folder_mode)
    try:
        code = companion_with_demo(["--data-dir", str(shared), "demo", "--loops", "1"])
        err = capsys.readouterr().err
        if os.access(shared, os.W_OK):
            assert code == 0, err
        else:
            assert code == 1 and err.count("\n") == 1 and "Traceback" not in err
        assert mode(shared) == folder_mode
        if folder_mode & 0o077 and code == 0:
            main(["--data-dir", str(shared), "doctor"])
            out = capsys.readouterr().out
            assert "readable by others" in out and "left as it is" in out
            assert mode(shared) == folder_mode
    finally:
        os.chmod(shared, 0o700)


@pytest.mark.parametrize("how", ["file", "below-a-file", "too-long", "device"])
@pytest.mark.parametrize(
    "argv",
    [
        ["demo", "--loops", "1"],
        ["doctor"],
        ["today"],
        ["dnd", "status"],
        ["journal", "export", "-o", "{out}"],
        ["export", "study-list", "-o", "{out}"],
        ["about", "analyze"],
    ],
)
def test_a_data_folder_that_can_never_be_one_is_a_usage_error(tmp_path, how, argv, capsys):
    """`--data-dir /dev/null` (or a file, or below one) exited 1 ("Cannot use the data
    folder"), dnd status even 0; it is a bad argument: exit 2 before anything runs."""
    afile = tmp_path / "afile"
    afile.write_text("x")
    folder = {
        "file": afile,
        "below-a-file": afile / "data",
        "too-long": tmp_path / ("d" * 300),
        "device": Path(os.devnull),
    }[how]
    argv = [a.replace("{out}", str(tmp_path / "out")) for a in argv]
    assert companion_with_demo(["--data-dir", str(folder), *argv]) == 2
    err = capsys.readouterr().err
    # the usage error's one line: companion: <command>: <what>; see companion <command> --help
    assert err.startswith("companion: ") and ": --data-dir " in err, err
    command = err[len("companion: ") : err.index(": --data-dir ")]  # e.g. "journal export"
    assert " ".join(argv).startswith(command), err
    assert err.count("\n") == 1 and err.rstrip().endswith(f"see companion {command} --help"), err
    assert "not a folder" in err or "too long" in err or "cannot be created" in err
    assert afile.read_text() == "x" and not (tmp_path / "out").exists()


def test_empty_data_dir_is_refused(capsys, monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    before = mode(tmp_path)
    assert companion_with_demo(["--data-dir", "", "demo"]) == 2
    monkeypatch.setenv("COMPANION_HOME", " ")
    assert companion_with_demo(["demo"]) == 2
    assert "is empty" in capsys.readouterr().err
    assert mode(tmp_path) == before and not list(tmp_path.iterdir())


def test_reads_and_checks_leave_the_database_bytes_alone(tmp_path, capsys):
    data = tmp_path / "data"
    assert companion_with_demo(["--data-dir", str(data), "demo", "--loops", "3"]) == 0
    db_file = data / "companion.sqlite3"
    conn = sqlite3.connect(db_file)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    before = db_file.read_bytes()
    names = sorted(p.name for p in data.rglob("*"))
    for argv in (
        ["doctor"],
        ["journal", "export", "-o", str(tmp_path / "j.json")],
        ["export", "study-list", "-o", str(tmp_path / "s.md")],
        ["about", "analyze"],  # no one-pager yet: an error, still no write
    ):
        main(["--data-dir", str(data), *argv])
    capsys.readouterr()
    assert db_file.read_bytes() == before
    added = set(p.name for p in data.rglob("*")) - set(names)
    assert added <= {"companion.sqlite3-wal", "companion.sqlite3-shm"}  # SQLite's own scratch
    assert all(mode(data / name) == 0o600 for name in added)


def test_a_read_only_database_leaves_nothing_that_blocks_later_commands(tmp_path, capsys):
    data = tmp_path / "data"
    assert companion_with_demo(["--data-dir", str(data), "demo", "--loops", "1"]) == 0
    db_file = data / "companion.sqlite3"
    for suffix in ("-wal", "-shm"):
        side = db_file.with_name(db_file.name + suffix)
        if side.exists():
            side.unlink()
    os.chmod(db_file, 0o400)
    main(["--data-dir", str(data), "doctor"])
    main(["--data-dir", str(data), "journal", "export", "-o", str(tmp_path / "j.json")])
    os.chmod(db_file, 0o600)
    capsys.readouterr()
    assert companion_with_demo(["--data-dir", str(data), "demo", "--loops", "1"]) == 0, (
        capsys.readouterr().err
    )
