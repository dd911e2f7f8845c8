"""What the app writes by default is private to the user: the data folder 0700, the
database (with its -wal and -shm), backups, prefs and exports 0600, even under a
permissive umask."""

from __future__ import annotations

import datetime as dt
import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from demo_journal import companion_with_demo

from companion.core.day import loops
from companion.core.storage.files import atomic_write_bytes, atomic_write_text
from companion.core.storage.store import list_backups, restore_backup

pytestmark = pytest.mark.skipif(os.name != "posix", reason="POSIX permission bits")


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.fixture(autouse=True)
def permissive_umask():
    old = os.umask(0o022)  # a typical desktop default: new files 0644, folders 0755
    yield
    os.umask(old)


@pytest.fixture
def fresh_folder(tmp_path, monkeypatch) -> Path:
    folder = tmp_path / "data"  # not created: the app makes it
    monkeypatch.setenv("COMPANION_HOME", str(folder))
    return folder


def test_normal_use_leaves_everything_private(fresh_folder):
    from companion.core.context import AppContext

    ctx = AppContext(fresh_folder)
    loops.create_loop(ctx.db, "Acme")
    ctx.prefs.set("main.page", "journal")
    assert ctx.prefs.save() is None
    db_file = ctx.db_path
    wal, shm = (db_file.with_name(db_file.name + s) for s in ("-wal", "-shm"))
    assert wal.exists() and shm.exists(), "WAL mode keeps both beside the open database"
    assert mode(fresh_folder) == 0o700
    assert mode(db_file) == 0o600
    assert mode(wal) == 0o600
    assert mode(shm) == 0o600
    assert mode(fresh_folder / "prefs.json") == 0o600
    ctx.close()

    ctx = AppContext(fresh_folder)  # the second start takes the daily backup
    ctx.store  # noqa: B018
    ctx.close()
    backups = list_backups(fresh_folder / "backups")
    assert backups
    assert mode(fresh_folder / "backups") == 0o700
    for backup in backups:
        assert mode(backup) == 0o600, backup.name


def test_an_existing_loose_database_is_tightened_but_the_folder_keeps_its_mode(fresh_folder):
    """The app sets modes only on folders it created: a folder the user made (or shares)
    keeps its mode; doctor warns about it instead."""
    from companion.cli import main
    from companion.core.storage.store import open_store

    fresh_folder.mkdir(mode=0o755)
    os.chmod(fresh_folder, 0o755)
    open_store(fresh_folder / "companion.sqlite3").close()
    os.chmod(fresh_folder / "companion.sqlite3", 0o644)
    store = open_store(fresh_folder / "companion.sqlite3")
    store.close()
    assert mode(fresh_folder) == 0o755
    assert mode(fresh_folder / "companion.sqlite3") == 0o600
    assert main(["--data-dir", str(fresh_folder), "doctor"]) == 0


def test_restored_backup_is_private(fresh_folder):
    from companion.core.storage.store import open_store

    db_file = fresh_folder / "companion.sqlite3"
    open_store(db_file).close()
    open_store(db_file).close()
    restore_backup(list_backups(fresh_folder / "backups")[0], db_file)
    assert mode(db_file) == 0o600


@pytest.mark.parametrize("existing", [False, True])
def test_atomic_writes_are_private(tmp_path, existing):
    text_file = tmp_path / "export.md"
    bytes_file = tmp_path / "export.bin"
    if existing:
        for path in (text_file, bytes_file):
            path.write_text("old")
            os.chmod(path, 0o644)
    atomic_write_text(text_file, "# study list\n")
    atomic_write_bytes(bytes_file, b"\x00\x01")
    assert mode(text_file) == 0o600
    assert mode(bytes_file) == 0o600


NOW = dt.datetime(2026, 12, 1, 9, tzinfo=dt.UTC)


def test_journal_and_study_list_exports_are_private(tmp_path, db):
    from companion.core.journal.files import export_journal
    from companion.core.study.exports import export_study_list

    written = [tmp_path / "journal.json"]
    export_journal(db, written[0], NOW)
    for fmt in ("md", "csv", "anki", "json"):
        export_study_list(db, fmt, tmp_path / f"study.{fmt}", NOW)
        written.append(tmp_path / f"study.{fmt}")
    for path in written:
        assert mode(path) == 0o600, path.name


@pytest.mark.gui
def test_about_exports_are_private(qapp, tmp_path):
    import companion.core.about.export as about_export
    import companion.ui.about.export as ui_export
    from companion.core.about.render import SafeRenderer

    about_export.export_html("# Me\n\nHello", tmp_path / "about.html")
    about_export.export_markdown("# Me\n\nHello", tmp_path / "about.md")
    ui_export.export_pdf(SafeRenderer().render("# Me\n\nHello"), tmp_path / "about.pdf")
    for name in ("about.html", "about.md", "about.pdf"):
        assert mode(tmp_path / name) == 0o600, name


REPO = Path(__file__).resolve().parents[2]
DEMO = REPO / "benchmarks" / "demo_journal.py"  # the app's command line with `demo` added
# root reads and writes through any mode: drop the capabilities that let it, so the
# permission bits apply as they do to a user (issue 28's 'read-only folder' case)
NO_DAC = (
    "setpriv",
    "--inh-caps=-all",
    "--bounding-set=-dac_override,-dac_read_search,-fowner",
    "--",
)


def as_user(*argv: str, data: Path) -> subprocess.CompletedProcess:
    prefix: tuple[str, ...] = ()
    if os.geteuid() == 0:
        if not shutil.which("setpriv"):
            pytest.skip("root without setpriv: permission bits do not apply")
        prefix = NO_DAC
    env = dict(os.environ, PYTHONPATH=str(REPO), QT_QPA_PLATFORM="offscreen")
    program = [str(DEMO)] if "demo" in argv else ["-m", "companion"]
    return subprocess.run(
        [*prefix, sys.executable, *program, "--data-dir", str(data), *argv],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.fixture
def read_only_journal(tmp_path):

    data = tmp_path / "data"
    assert (
        companion_with_demo(["--data-dir", str(data), "demo", "--loops", "3", "--seed", "11"]) == 0
    )
    os.chmod(data / "companion.sqlite3", 0o400)
    os.chmod(data, 0o500)
    before = (data / "companion.sqlite3").read_bytes()
    yield data
    os.chmod(data, 0o700)
    assert (data / "companion.sqlite3").read_bytes() == before
    assert sorted(p.name for p in data.iterdir()) == ["companion.sqlite3"]


@pytest.mark.parametrize(
    "argv, out",
    [
        (["journal", "export", "-o", "{out}"], "journal.json"),
        (["export", "study-list", "--format", "md", "-o", "{out}"], "study.md"),
        (["doctor"], None),
    ],
)
def test_a_journal_in_a_read_only_folder_can_still_be_read(read_only_journal, tmp_path, argv, out):
    """The db 0400 in a 0500 folder: the old code said 'is not writable' to all three."""
    target = tmp_path / (out or "none")
    argv = [a.replace("{out}", str(target)) for a in argv]
    proc = as_user(*argv, data=read_only_journal)
    assert "not writable (" not in proc.stderr + proc.stdout
    if argv == ["doctor"]:  # it reads it, and says the app will not write it
        assert proc.returncode == 1 and "Traceback" not in proc.stderr, proc.stderr
        assert "is not writable: the app will not open this journal" in proc.stdout
        assert "`companion journal export`" in proc.stdout
        return
    assert proc.returncode == 0, proc.stderr + proc.stdout
    if out == "journal.json":
        import json

        assert len(json.loads(target.read_text())["loops"]) == 3
    elif out:
        assert target.read_text().strip()


def test_doctor_says_a_read_only_journal_in_a_writable_folder_cannot_be_saved_to(tmp_path):
    """A 0400 journal: the app opens it and every save fails; doctor said 'healthy'."""

    data = tmp_path / "data"
    assert companion_with_demo(["--data-dir", str(data), "demo", "--loops", "2"]) == 0
    os.chmod(data / "companion.sqlite3", 0o400)
    proc = as_user("doctor", data=data)
    assert proc.returncode == 1, proc.stdout
    assert "is read-only (mode 400): the app opens it but every save fails" in proc.stdout
    assert "UNHEALTHY" in proc.stdout
    assert as_user("journal", "export", "-o", str(tmp_path / "j.json"), data=data).returncode == 0


def _in_a_read_only_mount(src: Path, mount: Path, *argv: str) -> subprocess.CompletedProcess:
    """``companion --data-dir MOUNT ...`` where MOUNT is SRC bound read-only (a private
    mount namespace: root's `unshare -m`, or a user namespace's `unshare -rm`)."""
    if not shutil.which("unshare"):
        pytest.skip("no unshare: cannot make a read-only mount here")
    ns = ["unshare", "-m"] if os.geteuid() == 0 else ["unshare", "-rm"]
    script = (
        'mount --bind "$1" "$2" && mount -o remount,bind,ro "$2" || exit 97; shift 2; exec "$@"'
    )
    env = dict(os.environ, PYTHONPATH=str(REPO), QT_QPA_PLATFORM="offscreen")
    proc = subprocess.run(
        [
            *ns,
            "sh",
            "-c",
            script,
            "sh",
            str(src),
            str(mount),
            sys.executable,
            "-m",
            "companion",
            "--data-dir",
            str(mount / "data"),
            *argv,
        ],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    if proc.returncode == 97 or "unshare failed" in proc.stderr:
        pytest.skip(f"cannot make a read-only bind mount here: {proc.stderr.strip()[:200]}")
    return proc


def test_doctor_on_a_read_only_mount_says_what_the_app_will_do(tmp_path):
    """A journal on a read-only bind mount: doctor said 'healthy' (exit 0) while the app
    refused to open it for writing. Now it is unhealthy, and says what still works."""

    src = tmp_path / "src"
    assert companion_with_demo(["--data-dir", str(src / "data"), "demo", "--loops", "3"]) == 0
    mount = tmp_path / "ro"
    mount.mkdir()
    before = {p.name: p.read_bytes() for p in (src / "data").iterdir() if p.is_file()}
    doctor = _in_a_read_only_mount(src, mount, "doctor")
    assert doctor.returncode == 1, doctor.stdout + doctor.stderr
    assert "is on a read-only file system: the app will not open this journal" in doctor.stdout
    assert "`companion journal export`" in doctor.stdout and "integrity: ok" in doctor.stdout
    out = tmp_path / "j.json"
    export = _in_a_read_only_mount(src, mount, "journal", "export", "-o", str(out))
    assert export.returncode == 0, export.stderr
    today = _in_a_read_only_mount(src, mount, "today")
    assert today.returncode == 1 and "read-only file system" in today.stderr
    assert "Traceback" not in today.stderr and today.stderr.count("\n") == 1
    after = {p.name: p.read_bytes() for p in (src / "data").iterdir() if p.is_file()}
    assert after == before


def test_a_journal_planted_by_another_user_is_refused(tmp_path):
    """A 0666 journal owned by someone else in a 1777 folder was written into and left
    world-writable; now every open refuses it, naming the owner, and leaves it alone."""
    import pwd

    try:
        nobody = pwd.getpwnam("nobody").pw_uid
    except KeyError:
        pytest.skip("no user 'nobody'")
    src = tmp_path / "src"
    assert companion_with_demo(["--data-dir", str(src), "demo", "--loops", "2"]) == 0
    shared = tmp_path / "shared"
    shared.mkdir()
    os.chmod(shared, 0o1777)
    planted = shared / "companion.sqlite3"
    planted.write_bytes((src / "companion.sqlite3").read_bytes())
    os.chmod(planted, 0o666)
    if os.geteuid() == 0:
        os.chown(planted, nobody, -1)
    before = planted.read_bytes()
    for argv in (["today"], ["demo", "--loops", "1"], ["journal", "export", "-o", "{out}"]):
        argv = [a.replace("{out}", str(tmp_path / "out.json")) for a in argv]
        proc = as_user(*argv, data=shared)
        assert proc.returncode == 1, proc.stderr
        assert "Traceback" not in proc.stderr and proc.stderr.count("\n") == 1, proc.stderr
        words = "another user (nobody)" if os.geteuid() == 0 else "written by others"
        assert words in proc.stderr
    doctor = as_user("doctor", data=shared)
    assert doctor.returncode == 1 and "was not used" in doctor.stdout
    assert planted.read_bytes() == before
    assert mode(planted) == 0o666
    assert sorted(p.name for p in shared.iterdir()) == ["companion.sqlite3"]


def test_a_journal_others_can_write_is_refused_even_when_ours(tmp_path):
    from companion.core.storage.store import StorageError, open_store

    db_file = tmp_path / "companion.sqlite3"
    open_store(db_file).close()
    os.chmod(db_file, 0o622)
    with pytest.raises(StorageError, match="written by others .mode 622"):
        open_store(db_file)
    assert mode(db_file) == 0o622


def test_preferences_and_a_dnd_record_planted_by_another_user_are_not_taken(tmp_path):
    """The journal was refused when planted; the preferences and the do-not-disturb
    record beside it were still read (a shared folder: anyone could have put them)."""
    import json
    import pwd

    from companion.core.dnd import record
    from companion.core.prefs import Prefs

    folder = tmp_path / "data"
    folder.mkdir()
    prefs_file = folder / "prefs.json"
    prefs_file.write_text(json.dumps({"main.page": "study"}))
    dnd_file = record.record_path(folder)
    dnd_file.write_text(json.dumps({"adapter": "gnome", "prior": {"show_banners": False}}))
    assert Prefs(prefs_file).get("main.page") == "study"  # ours: read
    assert not record.load(dnd_file).damaged
    for path in (prefs_file, dnd_file):
        os.chmod(path, 0o666)  # anyone may write it
    prefs = Prefs(prefs_file)
    assert prefs.get("main.page") is None and "written by others" in prefs.problem
    assert record.load(dnd_file).damaged  # not trusted: notifications are turned back on
    if os.geteuid() == 0:
        try:
            nobody = pwd.getpwnam("nobody").pw_uid
        except KeyError:
            return
        for path in (prefs_file, dnd_file):
            os.chmod(path, 0o600)
            os.chown(path, nobody, -1)
        prefs = Prefs(prefs_file)
        assert prefs.get("main.page") is None and "another user (nobody)" in prefs.problem
        assert record.load(dnd_file).damaged
    assert json.loads(prefs_file.read_text()) == {"main.page": "study"}  # left as it was


@pytest.mark.parametrize("how", ["others-write", "another-owner"])
def test_a_backups_folder_not_ours_is_neither_written_nor_restored_from(tmp_path, how, capsys):
    """`backups/` writable by others (or owned by another user) was written into, and its
    newest file (anyone's) was what `doctor --restore` put in place of the journal."""
    import pwd

    from companion.cli import main
    from companion.core.storage.store import open_store

    data = tmp_path / "data"
    db_file = data / "companion.sqlite3"
    open_store(db_file).close()
    open_store(db_file).close()  # the second open takes the daily backup
    folder = data / "backups"
    [first] = list_backups(folder)
    planted = folder / "companion-29991231-000000-daily.sqlite3"  # 'newer' than any
    planted.write_bytes(first.read_bytes())
    if how == "others-write":
        os.chmod(folder, 0o777)
        words = "can be written by others (mode 777)"
    else:
        if os.geteuid() != 0:
            pytest.skip("only root can give a folder to another user")
        os.chown(folder, pwd.getpwnam("nobody").pw_uid, -1)
        words = "belongs to another user (nobody)"
    journal = db_file.read_bytes()
    later = dt.datetime.now() + dt.timedelta(days=3)  # the daily backup is due
    store = open_store(db_file, now=lambda: later)
    store.close()
    assert any(words in n and "neither writes" in n for n in store.notices), store.notices
    assert sorted(p.name for p in folder.iterdir()) == sorted([first.name, planted.name])
    assert list_backups(folder) == []
    assert main(["--data-dir", str(data), "doctor"]) == 1
    out = capsys.readouterr().out
    assert f"! the backups folder {folder} {words}" in out
    assert main(["--data-dir", str(data), "doctor", "--restore"]) == 1
    assert words in capsys.readouterr().err
    assert main(["--data-dir", str(data), "doctor", "--restore", str(planted)]) == 1
    assert "was not restored" in capsys.readouterr().err
    assert db_file.read_bytes() == journal


def test_a_backup_file_planted_by_another_user_is_not_listed(tmp_path):
    import pwd

    from companion.core.storage.store import open_store

    if os.geteuid() != 0:
        pytest.skip("only root can give a file to another user")
    db_file = tmp_path / "data" / "companion.sqlite3"
    open_store(db_file).close()
    open_store(db_file).close()
    folder = db_file.parent / "backups"
    [first] = list_backups(folder)
    planted = folder / "companion-29991231-000000-daily.sqlite3"
    planted.write_bytes(first.read_bytes())
    os.chown(planted, pwd.getpwnam("nobody").pw_uid, -1)
    assert list_backups(folder) == [first]


def test_restore_leaves_a_journal_planted_by_another_user_where_it_is(tmp_path, capsys):
    """`doctor --restore` moved a journal another user owns (or others may write) aside
    and put a backup in its place: every other open leaves such a file as it is."""
    from companion.cli import main
    from companion.core.storage.store import open_store

    data = tmp_path / "data"
    db_file = data / "companion.sqlite3"
    open_store(db_file).close()
    open_store(db_file).close()  # a backup to restore
    os.chmod(db_file, 0o666)
    before = sorted(p.name for p in data.iterdir())
    assert main(["--data-dir", str(data), "doctor", "--restore"]) == 1
    err = capsys.readouterr().err
    assert "nothing was restored" in err and "written by others (mode 666)" in err
    assert sorted(p.name for p in data.iterdir()) == before and mode(db_file) == 0o666


def test_doctor_repair_on_a_read_only_mount_is_as_unhealthy_as_doctor(tmp_path):
    """`doctor --repair` said 'healthy' (exit 0) where `doctor` said unhealthy: the repair
    path now makes the same write check."""

    src = tmp_path / "src"
    assert companion_with_demo(["--data-dir", str(src / "data"), "demo", "--loops", "2"]) == 0
    mount = tmp_path / "ro"
    mount.mkdir()
    repair = _in_a_read_only_mount(src, mount, "doctor", "--repair")
    assert repair.returncode == 1, repair.stdout + repair.stderr
    assert "is on a read-only file system" in repair.stdout and "UNHEALTHY" in repair.stdout


def test_today_at_an_empty_moment_is_a_usage_error(tmp_path, capsys):
    from companion.cli import main

    assert main(["--data-dir", str(tmp_path / "d"), "today", "--at", ""]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--at ''" in err


def test_an_older_journal_in_a_folder_you_cannot_write_exports(tmp_path):
    """It could not be exported at all (the upgrade needed to write), while doctor said
    the exports work there: now the upgrade happens in a copy in memory."""
    from sqlite_utils import Database

    from companion.core.storage.schema import MIGRATION_SETS

    data = tmp_path / "data"
    data.mkdir(mode=0o700)
    db = Database(data / "companion.sqlite3")
    for migration_set in MIGRATION_SETS[:2]:
        migration_set.apply(db)
    db.execute("PRAGMA user_version = 3")
    db.conn.commit()
    db.close()
    os.chmod(data / "companion.sqlite3", 0o400)
    os.chmod(data, 0o500)
    try:
        out = tmp_path / "j.json"
        proc = as_user("journal", "export", "-o", str(out), data=data)
        assert proc.returncode == 0, proc.stderr
        assert out.exists()
    finally:
        os.chmod(data, 0o700)


@pytest.mark.parametrize(
    "argv", [["demo", "--loops", "1"], ["journal", "import", "{file}"], ["today"]]
)
def test_a_read_only_folder_is_not_written_with_side_files_left_behind(tmp_path, argv):
    """-wal and -shm left by an earlier reader (writable, in a 0500 folder): SQLite could
    write through them; the read-only rule refuses, as doctor says it does."""
    from companion.cli import main

    data = tmp_path / "data"
    assert (
        companion_with_demo(["--data-dir", str(data), "demo", "--loops", "2", "--seed", "3"]) == 0
    )
    exported = tmp_path / "j.json"
    assert main(["--data-dir", str(data), "journal", "export", "-o", str(exported)]) == 0
    leave = (
        "import os, sqlite3, sys; c = sqlite3.connect(sys.argv[1]); "
        "c.execute('CREATE TABLE IF NOT EXISTS t (x)'); c.commit(); os._exit(0)"
    )
    subprocess.run([sys.executable, "-c", leave, str(data / "companion.sqlite3")], check=True)
    sides = sorted(p.name for p in data.iterdir())
    assert "companion.sqlite3-wal" in sides

    def kept() -> dict:  # the journal and its -wal (the -shm is SQLite's index of it)
        return {p.name: p.read_bytes() for p in data.iterdir() if not p.name.endswith("-shm")}

    before = kept()
    os.chmod(data, 0o500)
    try:
        proc = as_user(*[a.replace("{file}", str(exported)) for a in argv], data=data)
        doctor = as_user("doctor", data=data)
    finally:
        os.chmod(data, 0o700)
    assert proc.returncode == 1 and proc.stderr.count("\n") == 1, proc.stderr
    assert "is not writable" in proc.stderr and "nothing was changed" in proc.stderr
    assert "every command but doctor and the exports refuses" in doctor.stdout
    assert kept() == before
