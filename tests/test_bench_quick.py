"""`make bench` within 5 minutes, the long runs behind `make bench-long`, and the start-up
rows for Today's plan: the harness's choices, on made-up samples (no timing here)."""

from __future__ import annotations

import os
import sys

import pytest
from test_benchmarks import BENCH, _load


@pytest.fixture
def run_all(monkeypatch):
    # run_all re-executes itself on import unless told it already did
    monkeypatch.setenv("COMPANION_RUN_ALL_REEXEC", "1")
    monkeypatch.setenv("COMPANION_BENCH_BUS", "missing")
    monkeypatch.setattr(sys, "path", list(sys.path))
    monkeypatch.setattr(os, "execv", lambda *a: pytest.fail("must not re-execute"))
    monkeypatch.delenv("BENCH_LONG", raising=False)
    return _load("run_all", BENCH / "run_all")


def test_a_quick_run_passes_the_smaller_sizes_a_module_takes(run_all, monkeypatch):
    journal = _load("bench_journal")
    assert run_all.quick_arguments(journal, "bench_journal") == {"sizes": (2_000,)}
    startup = _load("startup")
    assert run_all.quick_arguments(startup, "startup") == {"pairs": 5, "instructions": True}

    class NoSizes:
        @staticmethod
        def run():
            return []

    assert run_all.quick_arguments(NoSizes, "bench_journal") == {}  # never an unknown argument
    monkeypatch.setenv("BENCH_LONG", "1")
    assert run_all.quick_arguments(journal, "bench_journal") == {}  # full size


def test_the_long_modules_run_only_in_the_long_table(run_all, monkeypatch, capsys):
    ran = []
    monkeypatch.setattr(run_all, "run_module", lambda path: (ran.append(path.stem), ([], 0.0))[1])
    run_all.main([])
    assert ran and not set(ran) & run_all.LONG_ONLY
    assert "left out, in make bench-long: bench_day, bench_voice" in capsys.readouterr().out
    ran.clear()
    monkeypatch.setenv("BENCH_LONG", "0")  # so that the long run's own setting is undone
    run_all.main(["--long"])
    assert set(ran) >= run_all.LONG_ONLY


def test_the_plan_rows_say_how_long_the_plan_follows_the_first_pixels(monkeypatch):
    startup = _load("startup")
    app = [startup.Sample(170.0, 72.0)] * 3
    bare = {kind: [startup.Sample(150.0, 66.0)] * 3 for kind in startup.BASELINES}
    plan = [startup.Sample(180.0, 80.0, plan_ms=ms) for ms in (250.0, 300.0, 900.0)]
    monkeypatch.setattr(startup, "collect", lambda pairs: (app, {**bare, "plan": plan}, "X"))
    rows = {row["figure"]: row for row in startup.run(3, instructions=False)}
    beside = next(r for f, r in rows.items() if "to Today's plan drawn" in f)
    assert beside["app_ms"] == 300.0 and beside["baseline_ms"] == 150.0
    assert beside["ratio"] == pytest.approx(2.0)  # round by round against the list window
    after = next(r for f, r in rows.items() if "plan drawn after the app's first pixels" in f)
    assert after["app_ms"] == 120.0 and after["met"] is False  # median of 70, 120, 720 ms
    assert not any("instructions" in f for f in rows)
    plan = [startup.Sample(180.0, 80.0, plan_ms=ms) for ms in (250.0, 260.0, 270.0)]
    monkeypatch.setattr(startup, "collect", lambda pairs: (app, {**bare, "plan": plan}, "X"))
    rows = startup.run(3, instructions=False)
    assert next(r for r in rows if "after the app's first pixels" in r["figure"])["met"]


def test_instructions_are_read_from_callgrind_s_summary(monkeypatch):
    startup = _load("startup")

    class Done:
        returncode = 0
        stderr = "==12== Events    : Ir\n==12== Collected : 765912345\n==12==\n"

    monkeypatch.setattr(startup.subprocess, "run", lambda *a, **kw: Done())
    assert startup._instructions(["valgrind", "--tool=callgrind", "x", "app"], {}) == 765912345
    Done.stderr = "valgrind: no such tool\n"
    with pytest.raises(startup.BenchmarkError, match="no such tool"):
        startup._instructions(["valgrind", "--tool=callgrind", "x", "app"], {})


def test_without_valgrind_the_time_rows_stand_beside_one_error_row(monkeypatch):
    startup = _load("startup")
    app = [startup.Sample(170.0, 72.0)] * 3
    bare = {kind: [startup.Sample(150.0, 66.0)] * 3 for kind in startup.BASELINES}
    plan = [startup.Sample(180.0, 80.0, plan_ms=250.0)] * 3
    monkeypatch.setattr(startup, "collect", lambda pairs: (app, {**bare, "plan": plan}, "X"))
    monkeypatch.setattr(startup.shutil, "which", lambda name: None)
    rows = startup.run(3, instructions=True)
    failed = [row for row in rows if row.get("error")]
    assert len(failed) == 1 and "valgrind is not installed" in failed[0]["error"]
    assert any("to Today's plan drawn" in row["figure"] and "error" not in row for row in rows)
