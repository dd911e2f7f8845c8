"""Writing over things that are not ours to replace: a device, a FIFO or a folder at the
target is refused; a symlink planted at the old temp-file name is never followed; every
file written is 0600 whatever the umask (the database's -wal and -shm included, even
when the database was first created by someone else with 0644); concurrent backups do
not collide."""

from __future__ import annotations

import datetime as dt
import os
import stat
import threading
from pathlib import Path

import pytest
from demo_journal import companion_with_demo

from companion.core.storage.files import NotARegularFileError, atomic_write_text
from companion.core.storage.store import backup, list_backups, open_store

pytestmark = pytest.mark.skipif(os.name != "posix", reason="POSIX files")


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.fixture(autouse=True)
def permissive_umask():
    old = os.umask(0o022)
    yield
    os.umask(old)


def test_a_fifo_at_the_target_is_refused_not_replaced(tmp_path):
    fifo = tmp_path / "out.md"
    os.mkfifo(fifo)
    with pytest.raises(NotARegularFileError, match="FIFO"):
        atomic_write_text(fifo, "hello")
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    assert [p.name for p in tmp_path.iterdir()] == ["out.md"]  # no temp file left


def test_a_device_at_the_target_is_refused(tmp_path):
    link = tmp_path / "null-link"
    link.symlink_to("/dev/null")
    with pytest.raises(NotARegularFileError, match="device"):
        atomic_write_text(Path("/dev/null"), "x")
    with pytest.raises(NotARegularFileError, match="device"):
        atomic_write_text(link, "x")
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)


def test_a_folder_or_empty_name_is_refused(tmp_path):
    with pytest.raises(NotARegularFileError, match="folder"):
        atomic_write_text(tmp_path, "x")
    with pytest.raises(NotARegularFileError):
        atomic_write_text(Path(""), "x")


def test_a_symlink_planted_at_the_old_temp_name_is_not_followed(tmp_path):
    victim = tmp_path / "victim.txt"
    victim.write_text("precious")
    target = tmp_path / "export.md"
    # the old code wrote to .NAME.tmp-PID with O_CREAT|O_TRUNC, following this link
    (tmp_path / f".{target.name}.tmp-{os.getpid()}").symlink_to(victim)
    atomic_write_text(target, "new export")
    assert victim.read_text() == "precious"
    assert target.read_text() == "new export"
    assert mode(target) == 0o600


def test_export_is_private_under_a_permissive_umask(tmp_path):
    os.umask(0)
    target = tmp_path / "x.csv"
    target.write_text("old")
    os.chmod(target, 0o666)
    atomic_write_text(target, "new")
    assert mode(target) == 0o600


def test_wal_and_shm_are_private_even_when_the_database_was_created_0644(tmp_path):
    db_file = tmp_path / "companion.sqlite3"
    db_file.touch()
    os.chmod(db_file, 0o644)  # created by someone else first (or on a full disk)
    store = open_store(db_file)
    store.db.execute("CREATE TABLE IF NOT EXISTS t(x)")
    store.db.execute("INSERT INTO t VALUES (1)")
    for name in ("companion.sqlite3", "companion.sqlite3-wal", "companion.sqlite3-shm"):
        assert mode(tmp_path / name) == 0o600, name
    store.close()


def test_a_fresh_database_is_0600_from_its_first_byte(tmp_path, monkeypatch):
    import sqlite3

    seen = {}
    real = sqlite3.connect

    def spy(name, *a, **kw):
        p = Path(str(name))
        if p.name == "companion.sqlite3" and p.exists():
            seen.setdefault("mode", mode(p))
        return real(name, *a, **kw)

    monkeypatch.setattr(sqlite3, "connect", spy)
    open_store(tmp_path / "companion.sqlite3").close()
    assert seen["mode"] == 0o600


def test_concurrent_backups_do_not_collide_or_leave_litter(tmp_path):
    db_file = tmp_path / "companion.sqlite3"
    store = open_store(db_file)
    when = dt.datetime(2026, 12, 1, 9, 0, 0)
    folder = tmp_path / "backups"
    errors = []

    def run():
        s = open_store(db_file)
        try:
            backup(s.conn, folder, when, reason="test")
        except Exception as exc:  # pragma: no cover - the failure we look for
            errors.append(exc)
        finally:
            s.close()

    threads = [threading.Thread(target=run) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    store.close()
    assert errors == []
    names = sorted(p.name for p in folder.iterdir())
    assert names == sorted(p.name for p in list_backups(folder)), names  # no *.tmp* left behind
    assert all(mode(p) == 0o600 for p in folder.iterdir())


def test_failed_backup_leaves_nothing(tmp_path):
    import sqlite3

    db_file = tmp_path / "companion.sqlite3"
    store = open_store(db_file)
    folder = tmp_path / "backups"

    class FailingConn:
        def execute(self, sql):
            return store.conn.execute(sql)

        def backup(self, dest):
            dest.execute("CREATE TABLE half(x)")  # something was written, then the disk failed
            raise sqlite3.OperationalError("disk I/O error")

    from companion.core.storage.store import BackupError

    with pytest.raises(BackupError, match="disk I/O error"):  # a warning, not a crash
        backup(FailingConn(), folder, dt.datetime(2026, 12, 1), reason="x")
    assert list(folder.iterdir()) == []  # the old code left a 0644 temp file
    store.close()


def test_a_read_only_open_leaves_private_side_files_and_the_database_mode(tmp_path):
    db_file = tmp_path / "companion.sqlite3"
    open_store(db_file).close()
    for suffix in ("-wal", "-shm"):
        side = db_file.with_name(db_file.name + suffix)
        if side.exists():
            side.unlink()
    os.chmod(db_file, 0o644)  # someone else's choice: a read does not change it
    store = open_store(db_file, read_only=True)
    store.db.execute("SELECT COUNT(*) FROM loops").fetchone()
    assert mode(db_file) == 0o644
    for suffix in ("-wal", "-shm"):
        side = db_file.with_name(db_file.name + suffix)
        if side.exists():
            assert mode(side) == 0o600, suffix
    store.close()


@pytest.fixture
def filled(tmp_path) -> Path:
    from companion.cli import main

    data = tmp_path / "data"
    assert companion_with_demo(["--data-dir", str(data), "demo", "--loops", "2"]) == 0
    assert main(["--data-dir", str(data), "today"]) == 0  # the daily backup
    (data / "prefs.json").write_text('{"main.page": "study"}')
    return data


@pytest.mark.parametrize(
    "target", ["journal", "link", "hardlink", "prefs", "backup", "backup-hardlink"]
)
@pytest.mark.parametrize(
    "argv",
    [
        ["journal", "export", "-o"],
        ["export", "study-list", "--format", "csv", "-o"],
        ["about", "export", "--input", "{pitch}", "--format", "md", "-o"],
    ],
)
def test_an_export_never_overwrites_the_data_folders_own_files(
    filled, tmp_path, target, argv, capsys
):
    """`journal export -o DATA/companion.sqlite3` replaced the journal with its own JSON
    (exit 0, every loop gone); prefs.json and a backup likewise, and a link to them."""
    from companion.cli import main

    pitch = tmp_path / "pitch.md"
    pitch.write_text("# Me\n\n## Who I am\nAn engineer.\n")
    own = {
        "journal": filled / "companion.sqlite3",
        "prefs": filled / "prefs.json",
        "backup": next((filled / "backups").iterdir()),
        "backup-hardlink": next((filled / "backups").iterdir()),
    }.get(target, filled / "companion.sqlite3")
    out = own
    if target in ("link", "hardlink", "backup-hardlink"):
        out = tmp_path / "out.txt"
        out.symlink_to(own) if target == "link" else os.link(own, out)
    before = own.read_bytes()
    argv = [a.replace("{pitch}", str(pitch)) for a in argv]
    assert main(["--data-dir", str(filled), *argv, str(out)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "one of the app's own files" in err and str(own) in err
    assert own.read_bytes() == before


@pytest.mark.parametrize(
    "name",
    [
        "companion.sqlite3-wal",
        "companion.sqlite3-shm",
        "companion.sqlite3-journal",
        "prefs.json",
    ],
)
def test_a_hard_link_to_any_of_the_data_folders_own_files_is_one_of_them(tmp_path, name):
    """A hard link to the journal's -wal was taken as an ordinary -o target (the journal,
    prefs and the record were refused)."""
    from companion.core.paths import own_file

    data = tmp_path / "data"
    data.mkdir()
    (data / name).write_bytes(b"side file")
    out = tmp_path / "out.json"
    os.link(data / name, out)
    assert own_file(data, out) == Path(os.path.realpath(data)) / name
    assert own_file(data, tmp_path / "other.json") is None
