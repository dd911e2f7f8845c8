"""Failures that used to end in a traceback now end in one line on stderr and a
documented exit status: hostile JSON (huge integers, deep nesting, lone surrogates,
duplicate keys), stdout full or closed, database errors at commit, and several
processes writing at once (they wait; one that waits too long says so)."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from demo_journal import companion_with_demo

from companion.cli import main

REPO = Path(__file__).resolve().parents[2]
DEMO = REPO / "benchmarks" / "demo_journal.py"  # the app's command line with `demo` added


def companion(*argv: str, env: dict | None = None, **kw) -> subprocess.CompletedProcess:
    full_env = dict(os.environ, PYTHONPATH=str(REPO), QT_QPA_PLATFORM="offscreen", **(env or {}))
    program = [str(DEMO)] if "demo" in argv else ["-m", "companion"]
    return subprocess.run(
        [sys.executable, *program, *argv],
        cwd=REPO,
        env=full_env,
        text=True,
        timeout=60,
        **kw,
    )


def assert_one_line(err: str) -> None:
    assert "Traceback" not in err, err
    assert err.startswith("companion: ") and err.count("\n") == 1, err


def journal_text(**extra) -> str:
    doc = {"format": "interview-companion-journal", "version": 1, "loops": []}
    doc.update(extra)
    return json.dumps(doc)


@pytest.mark.parametrize(
    "text, words",
    [
        (journal_text().replace('"loops": []', '"loops": [], "x": ' + "9" * 5000), "digits"),
        ('{"a":' * 100_000 + "1" + "}" * 100_000, "nests too deeply"),
        ("[" * 100_000 + "]" * 100_000, "nests too deeply"),
        (
            journal_text(loops=[{"company": "\ud800", "created_at": "2026-01-01T00:00:00"}]),
            "surrogate",
        ),
        (journal_text() + " ", None),  # fine: trailing space
        ('{"format": "interview-companion-journal", "version": 1, "version": 1}', "twice"),
        (journal_text().replace('"version": 1', '"version": NaN'), "NaN"),
    ],
)
def test_hostile_json_is_one_line(tmp_path, text, words, capsys):
    src = tmp_path / "in.json"
    src.write_text(text, encoding="utf-8", errors="surrogatepass")
    code = main(["--data-dir", str(tmp_path / "data"), "journal", "import", str(src)])
    captured = capsys.readouterr()
    if words is None:
        assert code == 0, captured.err
        return
    assert code == 1
    assert_one_line(captured.err)
    assert words in captured.err and "Nothing was imported" in captured.err


def test_stdout_full_is_one_line(tmp_path):
    with open("/dev/full", "w") as full:
        proc = companion("--data-dir", str(tmp_path), "doctor", stdout=full, stderr=subprocess.PIPE)
    assert proc.returncode == 1
    assert_one_line(proc.stderr)
    assert "cannot write the output" in proc.stderr


def test_stdout_closed_is_one_line(tmp_path):
    proc = companion(
        "--data-dir",
        str(tmp_path),
        "doctor",
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env={"PYTHONSTARTUP": ""},
    )
    assert proc.returncode == 0  # /dev/null is a fine stdout
    script = (
        "import os, sys; os.close(1); "
        f"sys.argv = ['companion', '--data-dir', {str(tmp_path)!r}, 'doctor']; "
        "from companion.cli import main; sys.exit(main())"
    )
    proc = subprocess.run(
        [sys.executable, "-c", script],
        cwd=REPO,
        env=dict(os.environ, PYTHONPATH=str(REPO)),
        capture_output=False,
        stderr=subprocess.PIPE,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 1
    assert_one_line(proc.stderr)


@pytest.mark.parametrize(
    "message, words",
    [
        ("database or disk is full", "is full"),
        ("disk I/O error", "I/O error"),
        ("database is locked", "busy for more than"),
    ],
)
def test_database_errors_at_commit_are_one_line(tmp_path, monkeypatch, message, words, capsys):
    import demo_journal as demo  # the command's own name for generate

    def failing(*a, **kw):
        raise sqlite3.OperationalError(message)

    monkeypatch.setattr(demo, "generate", failing)
    assert companion_with_demo(["--data-dir", str(tmp_path), "demo", "--loops", "1"]) == 1
    err = capsys.readouterr().err
    assert_one_line(err)
    assert words in err


def test_a_real_full_database_is_one_line(tmp_path, monkeypatch, capsys):
    from companion.core.storage import store as store_module

    real_connect = store_module._connect

    def small(path):
        db = real_connect(path)
        pages = db.execute("PRAGMA page_count").fetchone()[0]
        db.execute(f"PRAGMA max_page_count = {pages + 2}")
        return db

    companion_with_demo(["--data-dir", str(tmp_path), "demo", "--loops", "0"])
    monkeypatch.setattr(store_module, "_connect", small)
    assert companion_with_demo(["--data-dir", str(tmp_path), "demo", "--loops", "200"]) == 1
    err = capsys.readouterr().err
    assert_one_line(err)
    assert "is full" in err


def test_concurrent_writers_wait_for_each_other(tmp_path):
    files = []
    for n in range(4):
        src = tmp_path / f"src{n}"
        assert (
            companion_with_demo(["--data-dir", str(src), "demo", "--loops", "30", "--seed", str(n)])
            == 0
        )
        out = tmp_path / f"j{n}.json"
        assert main(["--data-dir", str(src), "journal", "export", "-o", str(out)]) == 0
        files.append(out)
    data = tmp_path / "data"
    assert companion_with_demo(["--data-dir", str(data), "demo", "--loops", "0"]) == 0
    procs = [
        subprocess.Popen(
            [
                sys.executable,
                "-m",
                "companion",
                "--data-dir",
                str(data),
                "journal",
                "import",
                str(f),
            ],
            cwd=REPO,
            env=dict(os.environ, PYTHONPATH=str(REPO)),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for f in files
    ]
    results = [p.communicate(timeout=120) for p in procs]
    assert [p.returncode for p in procs] == [0, 0, 0, 0], [r[1] for r in results]


def test_a_short_overlap_simply_waits(tmp_path):
    import threading

    data = tmp_path / "data"
    assert companion_with_demo(["--data-dir", str(data), "demo", "--loops", "0"]) == 0
    holder = sqlite3.connect(
        data / "companion.sqlite3", isolation_level=None, check_same_thread=False
    )
    holder.execute("BEGIN IMMEDIATE")
    release = threading.Timer(1.0, lambda: holder.execute("ROLLBACK"))
    release.start()
    try:
        proc = companion("--data-dir", str(data), "demo", "--loops", "2", capture_output=True)
    finally:
        release.join()
        holder.close()
    assert proc.returncode == 0, proc.stderr


def test_a_writer_that_waits_too_long_says_so(tmp_path):
    data = tmp_path / "data"
    assert companion_with_demo(["--data-dir", str(data), "demo", "--loops", "0"]) == 0
    holder = sqlite3.connect(data / "companion.sqlite3", isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    try:
        proc = companion(
            "--data-dir",
            str(data),
            "demo",
            "--loops",
            "1",
            env={"COMPANION_BUSY_TIMEOUT": "0.5"},
            capture_output=True,
        )
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert proc.returncode == 1
    assert_one_line(proc.stderr)
    assert "busy for more than" in proc.stderr and "Try again" in proc.stderr
