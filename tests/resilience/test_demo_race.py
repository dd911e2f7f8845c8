"""`companion demo` beside other writers: two demos at once both land (ids are taken
inside the write transaction, not from a MAX(id) read before it), and a writer arriving
right after demo's commit cannot make demo say it saved nothing when it saved all."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

from demo_journal import companion_with_demo

REPO = Path(__file__).resolve().parents[2]
DEMO = REPO / "benchmarks" / "demo_journal.py"  # the app's command line with `demo` added


def test_two_demos_at_once_both_land(tmp_path):
    data = tmp_path / "data"
    assert companion_with_demo(["--data-dir", str(data), "demo", "--loops", "0"]) == 0
    env = dict(os.environ, PYTHONPATH=str(REPO), QT_QPA_PLATFORM="offscreen")
    procs = [
        subprocess.Popen(
            [sys.executable, str(DEMO), "--data-dir", str(data), "demo"]
            + ["--loops", "400", "--seed", str(seed)],
            cwd=REPO,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for seed in (1, 2)
    ]
    results = [p.communicate(timeout=120) for p in procs]
    assert [p.returncode for p in procs] == [0, 0], [err for _out, err in results]
    conn = sqlite3.connect(data / "companion.sqlite3")
    try:
        assert conn.execute("SELECT COUNT(*) FROM loops").fetchone()[0] == 800
        orphans = conn.execute(
            "SELECT COUNT(*) FROM rounds r LEFT JOIN loops l ON l.id = r.loop_id WHERE l.id IS NULL"
        ).fetchone()[0]
        assert orphans == 0
    finally:
        conn.close()


def test_a_writer_right_after_the_commit_does_not_unsay_the_save(tmp_path, monkeypatch, capsys):
    """The old demo ran ANALYZE after its commit; a writer taking the lock in between
    made it report 'this command did not save anything' with every loop saved."""
    from companion.core.storage import store as store_module

    data = tmp_path / "data"
    assert companion_with_demo(["--data-dir", str(data), "demo", "--loops", "0"]) == 0
    monkeypatch.setenv("COMPANION_BUSY_TIMEOUT", "0.3")
    real_connect = store_module._connect
    other: list[sqlite3.Connection] = []

    def connect(path):
        conn = real_connect(path)
        seen = {"committed": False}

        def trace(statement: str) -> None:
            if seen["committed"] and not other:  # the first statement after the commit
                holder = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
                holder.execute("BEGIN IMMEDIATE")
                other.append(holder)
            if statement.strip().upper() == "COMMIT":
                seen["committed"] = True

        conn.set_trace_callback(trace)
        return conn

    monkeypatch.setattr(store_module, "_connect", connect)
    try:
        code = companion_with_demo(["--data-dir", str(data), "demo", "--loops", "5"])
        err = capsys.readouterr().err
    finally:
        for holder in other:
            holder.execute("ROLLBACK")
            holder.close()
    conn = sqlite3.connect(data / "companion.sqlite3")
    saved = conn.execute("SELECT COUNT(*) FROM loops").fetchone()[0]
    conn.close()
    assert saved == 5
    assert code == 0, err
    assert "did not save" not in err


def test_an_error_after_a_commit_says_what_stays_saved(tmp_path, monkeypatch, capsys):
    """Any command: a database error after one of its own commits names what was saved."""
    import demo_journal

    data = tmp_path / "data"
    assert companion_with_demo(["--data-dir", str(data), "demo", "--loops", "0"]) == 0
    real = demo_journal.generate

    def then_fail(db, *a, **kw):
        summary = real(db, *a, **kw)
        raise sqlite3.OperationalError("database is locked")
        return summary

    monkeypatch.setattr(demo_journal, "generate", then_fail)
    assert companion_with_demo(["--data-dir", str(data), "demo", "--loops", "2"]) == 1
    err = capsys.readouterr().err
    assert "did not save" not in err and "stay saved" in err


def test_the_same_invitation_imported_by_processes_at_once_makes_one_loop(tmp_path):
    """Two `schedule import` of one .ics at once made the loop twice (2 runs in 3): each
    looked for it before either wrote. Four at once, three times over, make one each."""
    ics = tmp_path / "loop.ics"
    ics.write_text(
        "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//t//EN\r\nBEGIN:VEVENT\r\nUID:1\r\n"
        "DTSTART:20261203T090000Z\r\nDTEND:20261203T100000Z\r\nSUMMARY:Acme - Coding\r\n"
        "END:VEVENT\r\nEND:VCALENDAR\r\n"
    )
    env = dict(os.environ, PYTHONPATH=str(REPO), QT_QPA_PLATFORM="offscreen")
    for run in range(3):
        data = tmp_path / f"data{run}"
        assert companion_with_demo(["--data-dir", str(data), "demo", "--loops", "0"]) == 0
        procs = [
            subprocess.Popen(
                [sys.executable, "-m", "companion", "--data-dir", str(data)]
                + ["schedule", "import", str(ics)],
                cwd=REPO,
                env=env,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )
            for _ in range(4)
        ]
        results = [p.communicate(timeout=120) for p in procs]
        assert [p.returncode for p in procs] == [0] * 4, [err for _out, err in results]
        conn = sqlite3.connect(data / "companion.sqlite3")
        try:
            assert conn.execute("SELECT COUNT(*) FROM loops").fetchone()[0] == 1
            assert conn.execute("SELECT COUNT(*) FROM rounds").fetchone()[0] == 1
        finally:
            conn.close()
