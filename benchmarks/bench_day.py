"""A whole day open beside a video call: idle CPU, wake-ups, and memory over a day.

1. The main window idle on the Today page, the next round hours away, against a bare
   PySide6 window (QMainWindow + QTextEdit) in the same run: CPU seconds from
   ``/proc/PID/stat`` over the measuring window, as % of one core, and wake-ups (context
   switches of every thread, ``/proc/PID/task/*/status``) per second.
2. The cue card shown with a running round (its one-second countdown ticking).
3. A simulated 12-hour day on a controllable clock (``benchmarks/day_simulation.py``,
   the same walk the test suite runs for correctness): resident memory growth after the
   first hour, and the Python object kinds whose count grew from the first hour to the
   last.

Usage: ``python benchmarks/bench_day.py [--seconds 60]``. Children run on the display the
start-up benchmark uses (an existing DISPLAY, else Xvfb, else offscreen).
"""

from __future__ import annotations

import argparse
import contextlib
import datetime as dt
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(REPO))

IDLE_TARGET_PCT = 0.1
WAKEUPS_TARGET = 1.0
CARD_TARGET_PCT = 0.5
MEMORY_TARGET_MIB = 2.0
SETTLE_S = 6.0  # after start-up: the database opens and the first view is drawn
CLK_TCK = os.sysconf("SC_CLK_TCK")

BARE = """
import sys
from PySide6.QtWidgets import QApplication, QMainWindow, QTextEdit
app = QApplication(sys.argv)
w = QMainWindow(); w.setCentralWidget(QTextEdit()); w.resize(900, 700); w.show()
sys.exit(app.exec())
"""


def _cpu_ticks(pid: int) -> int:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])  # utime + stime


def _switches(pid: int) -> dict[str, int]:
    """Context switches per thread (a thread that ends takes its count with it, so the
    difference is taken over the threads present at both readings)."""
    counts: dict[str, int] = {}
    for status in Path(f"/proc/{pid}/task").glob("*/status"):
        with contextlib.suppress(OSError):
            total = 0
            for line in status.read_text().splitlines():
                if line.startswith(("voluntary_ctxt_switches", "nonvoluntary_ctxt_switches")):
                    total += int(line.split()[1])
            counts[status.parent.name] = total
    return counts


def measure_idle(argv: list[str], env: dict, seconds: float) -> tuple[float, float]:
    """(% of one core, wake-ups per second) of a child left alone for ``seconds``."""
    proc = subprocess.Popen(
        argv, env=env, cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    try:
        time.sleep(SETTLE_S)
        if proc.poll() is not None:
            raise RuntimeError(f"{argv[-1]} exited: {proc.stderr.read().decode()[-300:]}")
        ticks0, sw0, t0 = _cpu_ticks(proc.pid), _switches(proc.pid), time.monotonic()
        time.sleep(seconds)
        ticks1, sw1, t1 = _cpu_ticks(proc.pid), _switches(proc.pid), time.monotonic()
    finally:
        proc.terminate()
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(10)
        if proc.poll() is None:
            proc.kill()
    elapsed = t1 - t0
    wakes = sum(sw1[t] - sw0[t] for t in sw0.keys() & sw1.keys())
    return 100.0 * (ticks1 - ticks0) / CLK_TCK / elapsed, wakes / elapsed


def _data_folder(root: Path, *, running: bool) -> Path:
    """A data folder with one loop: a round three hours ahead, or one running now."""
    from companion.core.context import AppContext
    from companion.core.day.loops import add_round, create_loop, start_round

    folder = root / ("running" if running else "idle")
    ctx = AppContext(folder)
    now = dt.datetime.now().astimezone()
    loop = create_loop(ctx.db, "Acme", "SRE", starts_on=now.date().isoformat())
    if running:
        rid = add_round(ctx.db, loop, "coding", scheduled_at=now - dt.timedelta(minutes=5))
        start_round(ctx.db, "coding", now - dt.timedelta(minutes=5), loop_id=loop, round_id=rid)
    else:
        add_round(ctx.db, loop, "coding", scheduled_at=now + dt.timedelta(hours=3))
    ctx.prefs.save()
    ctx.close()
    return folder


def run(seconds: float | None = None) -> list[dict]:
    from startup import display

    seconds = seconds or float(os.environ.get("BENCH_DAY_SECONDS", "60"))
    rows: list[dict] = []
    python = sys.executable
    with tempfile.TemporaryDirectory(prefix="bench-day-") as tmp, display() as (env, where):
        root = Path(tmp)
        env = dict(env, HOME=str(root), XDG_RUNTIME_DIR=str(root))
        bare_cpu, bare_wake = measure_idle([python, "-c", BARE], env, seconds)
        idle = _data_folder(root, running=False)
        app_cpu, app_wake = measure_idle(
            [python, "-m", "companion", "--data-dir", str(idle), "--page", "today"], env, seconds
        )
        note = f"{seconds:.0f} s each, {where}"
        rows.append(
            {
                "figure": "day: main window idle on Today, round 3 h away (% of one core)",
                "app_value": round(app_cpu, 3),
                "baseline_value": round(bare_cpu, 3),
                "unit": "%",
                "target": f"<= {IDLE_TARGET_PCT}%",
                "met": app_cpu <= IDLE_TARGET_PCT,
                "note": note,
            }
        )
        rows.append(
            {
                "figure": "day: main window idle, wake-ups per second",
                "app_value": round(app_wake, 2),
                "baseline_value": round(bare_wake, 2),
                "unit": "/s",
                "target": f"<= {WAKEUPS_TARGET}/s",
                "met": app_wake <= WAKEUPS_TARGET,
            }
        )
        running = _data_folder(root, running=True)
        card_cpu, card_wake = measure_idle(
            [python, "-m", "companion", "cue", "--data-dir", str(running)], env, seconds
        )
        rows.append(
            {
                "figure": "day: cue card shown, round running (% of one core)",
                "app_value": round(card_cpu, 3),
                "baseline_value": round(bare_cpu, 3),
                "unit": "%",
                "target": f"<= {CARD_TARGET_PCT}%",
                "met": card_cpu <= CARD_TARGET_PCT,
                "note": f"card wake-ups {card_wake:.2f}/s",
            }
        )
    rows += simulated_day_rows()
    return rows


def simulated_day_rows() -> list[dict]:
    """The 12-hour day in a child process (offscreen), so its memory is its own."""
    code = (
        "import json, sys; sys.path.insert(0, 'benchmarks');"
        "from day_simulation import simulate; print(json.dumps(simulate(measure=True)))"
    )
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    started = time.perf_counter()
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO, env=env, capture_output=True, text=True, timeout=600
    )
    wall = time.perf_counter() - started
    if out.returncode != 0:
        raise RuntimeError(f"the simulated day failed: {out.stderr[-500:]}")
    import json

    result = json.loads(out.stdout.strip().splitlines()[-1])
    growth = result["rss_growth_mib"]
    grew = result["growing_types"]
    return [
        {
            "figure": "day: simulated 12 h, resident memory growth after the first hour",
            "app_value": round(growth, 2),
            "unit": "MiB",
            "target": f"<= {MEMORY_TARGET_MIB} MiB, no object kind growing",
            "met": growth <= MEMORY_TARGET_MIB and not grew,
            "note": (
                f"{result['reminders']} reminders, {result['rounds']} rounds, "
                f"{result['ticks']} clock ticks in {wall:.1f} s real time; "
                f"object kinds grown first hour -> last: {grew or 'none'}"
            ),
        }
    ]


def main() -> int:
    import private_bus

    private_bus.reexec([str(Path(__file__).resolve()), *sys.argv[1:]])
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=60.0)
    args = parser.parse_args()
    for row in run(args.seconds):
        print(row)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
