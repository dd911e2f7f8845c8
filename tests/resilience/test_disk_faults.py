"""Disk faults: a read-only data folder, a file-size limit hit mid-write, and a database
replaced by garbage, truncated, or written by a newer version. Each must give a clear
message and lose nothing already saved."""

from __future__ import annotations

import errno
import hashlib
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from companion.core.day import loops
from companion.core.storage.store import (
    NewerSchemaError,
    StorageError,
    list_backups,
    open_store,
)

REPO = Path(__file__).resolve().parents[2]


def _digest(folder: Path) -> dict[str, str]:
    """Every file under ``folder`` and a hash of its bytes."""
    return {
        str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


def _make_journal(db_file: Path, companies=("Acme", "Initech", "Globex")) -> list[int]:
    store = open_store(db_file)
    try:
        ids = [loops.create_loop(store.db, c, "Engineer") for c in companies]
    finally:
        store.close()
    store = open_store(db_file)  # a second open takes the first daily backup
    store.close()
    return ids


def _child(code: str, *args: str, prefix: list[str] | None = None) -> subprocess.CompletedProcess:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(REPO) + os.pathsep + env.get("PYTHONPATH", "")
    return subprocess.run(
        [*(prefix or []), sys.executable, "-c", textwrap.dedent(code), *args],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )


# read-only data folder --------------------------------------------------------------

OPEN_PROBE = """
    import json, sys
    from pathlib import Path
    from companion.core.storage.store import StorageError, open_store
    from companion.core.context import AppContext
    path = Path(sys.argv[1])
    result = {}
    try:
        open_store(path).close()
        result["opened"] = True
    except StorageError as exc:
        result["error"] = str(exc)
    ctx = AppContext(path.parent)
    ctx.store
    result["ctx_problem"] = ctx.storage_problem
    result["ctx_read_only"] = ctx.store.read_only
    print(json.dumps(result))
"""


def _chmod_has_effect(folder: Path) -> bool:
    probe = folder / ".probe"
    os.chmod(folder, 0o500)
    try:
        probe.write_text("x")
    except PermissionError:
        return True
    finally:
        os.chmod(folder, 0o700)
    probe.unlink()
    return False


def _unshare_works() -> bool:
    if not shutil.which("unshare") or os.geteuid() != 0:
        return False
    done = subprocess.run(["unshare", "-m", "true"], capture_output=True)
    return done.returncode == 0


def _run_read_only(folder: Path, code: str, *args: str) -> subprocess.CompletedProcess | None:
    """Run ``code`` in a child that sees ``folder`` read-only; None if that is impossible."""
    if _chmod_has_effect(folder):
        modes = {p: p.stat().st_mode for p in [folder, *folder.rglob("*")]}
        for p in modes:
            os.chmod(p, 0o500 if p.is_dir() else 0o400)
        try:
            return _child(code, *args)
        finally:
            for p, mode in modes.items():
                os.chmod(p, mode)
    if _unshare_works():  # root: a read-only bind mount in a private mount namespace
        mount = (
            f"mount --bind '{folder}' '{folder}' && "
            f'mount -o remount,bind,ro \'{folder}\' && exec "$0" "$@"'
        )
        return _child(code, *args, prefix=["unshare", "-m", "sh", "-c", mount])
    return None


def _simulate_read_only(monkeypatch, folder: Path) -> None:
    """In-process stand-in for a read-only folder when neither chmod nor a bind mount works."""
    import companion.core.storage.store as storage

    real_connect = sqlite3.connect
    real_replace = os.replace

    def connect(target, *a, **kw):
        if str(folder) in str(target) and "mode=ro" not in str(target):
            raise sqlite3.OperationalError("unable to open database file")
        if "mode=ro" in str(target):
            raise sqlite3.OperationalError("unable to open database file")  # no -shm allowed
        return real_connect(target, *a, **kw)

    def replace(src, dst, *a, **kw):
        if str(folder) in str(src):
            raise OSError(errno.EROFS, "Read-only file system", str(src))
        return real_replace(src, dst, *a, **kw)

    monkeypatch.setattr(storage.sqlite3, "connect", connect)
    monkeypatch.setattr(storage.os, "replace", replace)


def _open_read_only(monkeypatch, folder: Path, db_file: Path) -> dict:
    done = _run_read_only(folder, OPEN_PROBE, str(db_file))
    if done is None:
        with monkeypatch.context() as patched:
            _simulate_read_only(patched, folder)
            from companion.core.context import AppContext

            result: dict = {}
            try:
                open_store(db_file).close()
                result["opened"] = True
            except StorageError as exc:
                result["error"] = str(exc)
            ctx = AppContext(folder)
            ctx.store  # noqa: B018
            result["ctx_problem"] = ctx.storage_problem
            result["ctx_read_only"] = ctx.store.read_only
        return result
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_read_only_empty_folder_gives_a_clear_message(tmp_path, monkeypatch):
    folder = tmp_path / "data"
    folder.mkdir()
    result = _open_read_only(monkeypatch, folder, folder / "companion.sqlite3")
    assert "error" in result, result
    assert str(folder) in result["error"]
    assert any(w in result["error"] for w in ("not writable", "Read-only", "read-only file system"))
    assert result["ctx_read_only"] and str(folder) in result["ctx_problem"]
    assert not (folder / "companion.sqlite3").exists()


def test_read_only_folder_with_data_gives_a_clear_message(tmp_path, monkeypatch):
    folder = tmp_path / "data"
    db_file = folder / "companion.sqlite3"
    ids = _make_journal(db_file)
    before = _digest(folder)
    result = _open_read_only(monkeypatch, folder, db_file)
    assert _digest(folder) == before  # nothing moved, nothing rewritten
    assert "error" in result, result
    assert str(folder) in result["error"]
    assert "damaged" not in result["error"] and "moved aside" not in result["error"]
    store = open_store(db_file)  # writable again: everything is still there
    try:
        assert [lp.id for lp in loops.list_loops(store.db)] == sorted(ids, reverse=True)
        assert store.notices == []
    finally:
        store.close()


# file-size limit --------------------------------------------------------------------

FSIZE_PRELUDE = """
    import resource, signal, sys
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # get EFBIG instead of being killed
    def limit(nbytes):
        resource.setrlimit(resource.RLIMIT_FSIZE, (nbytes, resource.RLIM_INFINITY))
"""


def test_file_size_limit_during_atomic_write_keeps_the_old_file(tmp_path):
    target = tmp_path / "prefs.json"
    old = b'{"main.page": "journal"}'
    target.write_bytes(old)
    code = (
        FSIZE_PRELUDE
        + """
    from pathlib import Path
    from companion.core.storage.files import atomic_write_bytes
    limit(64 * 1024)
    try:
        atomic_write_bytes(Path(sys.argv[1]), b"x" * (1024 * 1024))
    except OSError as exc:
        print("failed", exc.errno)
    else:
        print("written")
    """
    )
    done = _child(code, str(target))
    assert "Traceback" not in done.stderr, done.stderr
    assert done.stdout.split() == ["failed", str(errno.EFBIG)]
    assert target.read_bytes() == old
    assert [p.name for p in tmp_path.iterdir()] == ["prefs.json"]  # no temp file left behind


def test_file_size_limit_during_a_transaction_keeps_the_database(tmp_path):
    db_file = tmp_path / "data" / "companion.sqlite3"
    ids = _make_journal(db_file)
    code = (
        FSIZE_PRELUDE
        + """
    import sqlite3
    from pathlib import Path
    from companion.core.day import loops
    from companion.core.storage.store import open_store
    path = Path(sys.argv[1])
    store = open_store(path)
    limit(path.stat().st_size + 32 * 1024)
    try:
        with store.db.atomic():  # 2 MiB in one transaction, each note within the text limit
            for n in range(16):
                loops.create_loop(store.db, f"Huge {n}", notes="n" * (128 * 1024))
    except sqlite3.Error as exc:
        print("failed", type(exc).__name__)
    else:
        print("written")
    # the connection is still usable for small writes after the failure
    try:
        store.db.execute("SELECT count(*) FROM loops").fetchone()
        print("usable")
    except sqlite3.Error as exc:
        print("unusable", exc)
    store.close()
    """
    )
    done = _child(code, str(db_file))
    assert "Traceback" not in done.stderr, done.stderr
    lines = done.stdout.split("\n")
    assert lines[0].startswith("failed"), done.stdout
    assert "usable" in lines[1]
    conn = sqlite3.connect(db_file)
    try:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        rows = {r[0] for r in conn.execute("SELECT company FROM loops")}
    finally:
        conn.close()
    assert rows == {"Acme", "Initech", "Globex"}
    store = open_store(db_file)
    try:
        assert {lp.id for lp in loops.list_loops(store.db)} == set(ids)
        assert store.notices == []
    finally:
        store.close()


# damaged or newer database ----------------------------------------------------------


def _ctx(folder: Path):
    from companion.core.context import AppContext

    return AppContext(folder)


def test_garbage_database_is_moved_aside_byte_identical(tmp_path):
    folder = tmp_path / "data"
    db_file = folder / "companion.sqlite3"
    _make_journal(db_file)
    garbage = os.urandom(64 * 1024)
    db_file.write_bytes(garbage)
    ctx = _ctx(folder)
    try:
        store = ctx.store
        assert ctx.storage_problem is None
        assert len(store.notices) == 1 and "is not an SQLite database" in store.notices[0]
        assert str(db_file) in store.notices[0] and store.moved_aside.name in store.notices[0]
        assert store.moved_aside.read_bytes() == garbage
        assert list_backups(folder / "backups"), "the backup that can restore the data is kept"
    finally:
        ctx.close()


def test_truncated_database_is_moved_aside_and_backup_restores_it(tmp_path):
    from companion.core.storage.store import restore_backup

    folder = tmp_path / "data"
    db_file = folder / "companion.sqlite3"
    ids = _make_journal(db_file, companies=[f"Company {n}" for n in range(400)])
    data = db_file.read_bytes()
    truncated = data[: len(data) // 2]
    db_file.write_bytes(truncated)
    ctx = _ctx(folder)
    try:
        store = ctx.store
        assert len(store.notices) == 1, store.notices
        notice = store.notices[0]
        assert "moved aside" in notice and str(db_file) in notice
        assert store.moved_aside.read_bytes() == truncated
    finally:
        ctx.close()
    restore_backup(list_backups(folder / "backups")[0], db_file)
    store = open_store(db_file)
    try:
        assert {lp.id for lp in loops.list_loops(store.db)} == set(ids)
    finally:
        store.close()


@pytest.mark.parametrize("how", ["user_version", "migration_row"])
def test_newer_database_is_refused_and_left_untouched(tmp_path, how):
    folder = tmp_path / "data"
    db_file = folder / "companion.sqlite3"
    _make_journal(db_file)
    conn = sqlite3.connect(db_file)
    if how == "user_version":
        conn.execute("PRAGMA user_version = 999")
    else:
        conn.execute(
            "INSERT INTO _sqlite_migrations (migration_set, name, applied_at) "
            "VALUES ('companion.journal', 'm999_from_the_future', '2031-01-01')"
        )
        conn.commit()
    conn.close()
    before = _digest(folder)
    with pytest.raises(NewerSchemaError) as info:
        open_store(db_file)
    message = str(info.value)
    assert str(db_file) in message and "newer version" in message and "untouched" in message
    ctx = _ctx(folder)
    try:
        assert ctx.store.read_only
        assert "newer version" in ctx.storage_problem
    finally:
        ctx.close()
    assert _digest(folder) == before
