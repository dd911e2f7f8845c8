"""Start-up benchmark: process start to the main window's first pixels, and peak memory.

The app (``python -m companion --data-dir <fresh folder>`` with
COMPANION_EXIT_ON_FIRST_PAINT=1) is compared with two baselines from
``benchmarks/bare_window.py`` that quit on their first paint: a bare shown QWidget (the
floor: Python, PySide6 and one window) and a bare QMainWindow holding a QTextEdit. Runs
rotate between the three (one warm-up round first, discarded). Start is taken just
before ``Popen``; first pixels are the wall-clock time an X DAMAGE observer
(``first_pixels.py``) sees the first drawing into any window the child created (on Qt's
offscreen platform, where there is no X server, the time the child reports from its
paint handler); peak memory is the child's own VmHWM, which it prints at exit (``peak-kib``;
``ru_maxrss`` from ``os.wait4`` where it does not).

Each round also starts the app on a data folder holding a loop today, with
COMPANION_EXIT_ON_PLAN_DRAWN=1: it reports when the frame that shows Today's plan has
been painted and flushed (on a journal that exists that is the first frame itself; a
folder without one shows the bare window first), so the table
gives the time to the plan beside the list window's first pixels, and how long the plan
follows the app's own first pixels.

With ``--instructions`` (and in ``make bench``) the same starts are counted in
instructions under ``valgrind --tool=callgrind``, which a busy machine hardly moves: the
app to its first paint and to Today's plan, against the three-item list window.

Usage: ``python benchmarks/startup.py [--pairs N] [--profile] [--instructions]``.
``--profile`` also runs the app once under ``-X importtime`` and lists the imports that
cost most on the path to the first paint.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime as dt
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from verdict import ratio_text, verdict

REPO = Path(__file__).resolve().parent.parent
BARE = Path(__file__).resolve().parent / "bare_window.py"
TIME_TARGET = 1.1  # against the bare QWidget
MEMORY_TARGET = 1.1
MAIN_WINDOW_TARGET = 1.3  # against the bare QMainWindow + QTextEdit (the older baseline)
BASELINES = {
    "widget": "bare shown QWidget",
    "mainwindow": "bare QMainWindow+QTextEdit",
    # for information: the floor of any window that draws text (fonts, an item view)
    "list": "bare QWidget with a 3-item QListWidget",
}
# Rounds measured (after one warm-up): at 7 the medians of one run swung from 1.07x to
# 1.45x the bare window between runs on this 2-CPU machine; 15 hold them closer.
ROUNDS = 15
XVFB_DISPLAY = ":93"
CHILD_TIMEOUT = 60.0
# A bare QMainWindow paints in 100-200 ms on an ordinary machine. A median above this is
# the machine, not the app (no session bus, so Qt autolaunched a D-Bus daemon per process;
# a stalled X server); a ratio of two such numbers says nothing, so the row fails instead.
BASELINE_LIMIT_MS = 1000.0
PLAN_AFTER_FIRST_PIXELS_MS = 100.0  # #66: the plan at first sight, or within 100 ms of it
PLAN_BASELINE = "list"  # the plan is compared with the window that draws text
CALLGRIND_TIMEOUT = 900.0


@dataclass
class Sample:
    ms: float  # process start to first pixels (first paint on the offscreen platform)
    rss_mib: float  # peak resident memory of the child
    plan_ms: float | None = None  # process start to Today's plan drawn (the plan runs only)


class BenchmarkError(RuntimeError):
    pass


@contextlib.contextmanager
def display() -> Iterator[tuple[dict[str, str], str]]:
    """Environment for the children and a note on the platform used.

    An existing DISPLAY is used as is; without one, ``Xvfb :93`` is started if it is
    installed; otherwise Qt's offscreen platform is used (and the note says so).
    """
    env = dict(os.environ)
    if env.get("DISPLAY") and env.get("QT_QPA_PLATFORM", "") in ("", "xcb"):
        yield env, f"X11 display {env['DISPLAY']}"
        return
    xvfb = shutil.which("Xvfb")
    if xvfb and not env.get("QT_QPA_PLATFORM"):
        proc = subprocess.Popen(
            [xvfb, XVFB_DISPLAY, "-screen", "0", "1280x1024x24", "-nolisten", "tcp"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            socket_file = Path("/tmp/.X11-unix") / f"X{XVFB_DISPLAY[1:]}"
            deadline = time.monotonic() + 10
            while not socket_file.exists() and time.monotonic() < deadline:
                if proc.poll() is not None:
                    raise BenchmarkError(f"Xvfb {XVFB_DISPLAY} exited at once")
                time.sleep(0.05)
            env["DISPLAY"] = XVFB_DISPLAY
            env["QT_QPA_PLATFORM"] = "xcb"
            yield env, f"Xvfb {XVFB_DISPLAY} (started by the benchmark)"
        finally:
            proc.terminate()
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(5)
        return
    env["QT_QPA_PLATFORM"] = "offscreen"
    why = "no DISPLAY and no Xvfb installed" if not xvfb else "QT_QPA_PLATFORM was set"
    yield env, f"Qt offscreen platform ({why}): no real X server in the loop"


def measure(argv: list[str], env: dict[str, str]) -> Sample:
    """Run one child to its first pixels; return the time taken and its own peak memory."""
    display = env.get("DISPLAY") if env.get("QT_QPA_PLATFORM") in (None, "", "xcb") else None
    if not display:
        return _measure(argv, env, None)
    from first_pixels import DamageObserver

    with DamageObserver(display) as seen:
        return _measure(argv, env, seen)


def _measure(argv: list[str], env: dict[str, str], seen) -> Sample:
    with tempfile.TemporaryFile(mode="w+") as err_file:
        started = time.time()
        proc = subprocess.Popen(
            argv, cwd=REPO, env=env, stdout=subprocess.PIPE, stderr=err_file, text=True
        )
        # Read to EOF, then reap with wait4 to get this child's rusage (not all children's).
        deadline = time.monotonic() + CHILD_TIMEOUT
        out = proc.stdout.read() if proc.stdout else ""
        while True:
            pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
            if pid:
                break
            if time.monotonic() > deadline:
                proc.kill()
                raise BenchmarkError(f"{argv[1:]} did not exit within {CHILD_TIMEOUT:.0f} s")
            time.sleep(0.005)
        err_file.seek(0)
        err = err_file.read()
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.stdout:
        proc.stdout.close()
    painted = [line for line in out.splitlines() if line.startswith("first-paint ")]
    if proc.returncode != 0 or not painted:
        tail = (err.strip().splitlines() or ["(no output)"])[-1]
        raise BenchmarkError(f"{' '.join(argv[1:])} exited {proc.returncode}: {tail}")
    epoch = float(painted[0].split()[1])
    if seen is not None:
        pixels = seen.wait(2.0)
        if pixels is None:
            raise BenchmarkError(f"{' '.join(argv[1:])}: the X server saw no pixels drawn")
        epoch = pixels
    plan = [float(line.split()[1]) for line in out.splitlines() if line.startswith("plan-drawn ")]
    # the child's own peak: the rusage keeps the larger of it and this process's size
    peak = [int(line.split()[1]) for line in out.splitlines() if line.startswith("peak-kib ")]
    return Sample(
        ms=(epoch - started) * 1000.0,
        rss_mib=(peak[-1] if peak else usage.ru_maxrss) / 1024.0,
        plan_ms=(plan[0] - started) * 1000.0 if plan else None,
    )


def app_argv(data_dir: Path, *extra: str) -> list[str]:
    """The app as it is started once installed: the ``companion`` script pip writes beside
    the interpreter (the desktop entry's ``Exec=companion``), run by that interpreter;
    ``-m companion`` (runpy and ``__main__``, which no installed launch goes through) when
    there is no such script, or with ``extra`` interpreter options."""
    script = Path(sys.executable).with_name("companion")
    if script.is_file() and not extra:
        return [sys.executable, str(script), "--data-dir", str(data_dir)]
    return [sys.executable, *extra, "-m", "companion", "--data-dir", str(data_dir)]


def bare_argv(*extra: str, kind: str = "mainwindow") -> list[str]:
    return [sys.executable, *extra, str(BARE), *([f"--{kind}"] if kind != "mainwindow" else [])]


def collect(pairs: int = ROUNDS) -> tuple[list[Sample], dict[str, list[Sample]], str]:
    """Rotate app and baseline runs; a warm-up round first is discarded. The app's runs to
    Today's plan (on a folder holding a loop today) come back under ``bare["plan"]``."""
    app: list[Sample] = []
    bare: dict[str, list[Sample]] = {kind: [] for kind in [*BASELINES, "plan"]}
    compile_app()
    with display() as (env, note), tempfile.TemporaryDirectory(prefix="companion-bench-") as tmp:
        env["HOME"] = str(Path(tmp) / "home")  # Qt and platformdirs stay out of the real home
        env.pop("COMPANION_HOME", None)
        plan_env = dict(env, COMPANION_EXIT_ON_PLAN_DRAWN="1")
        env["COMPANION_EXIT_ON_FIRST_PAINT"] = "1"
        template = plan_folder(Path(tmp) / "plan-template")
        if "offscreen" not in note:
            note += "; first pixels seen by an X DAMAGE observer"
        for n in range(pairs + 1):
            data_dir = Path(tmp) / f"data-{n}"  # a fresh folder every run, as on first launch
            plan_dir = Path(tmp) / f"plan-{n}"
            shutil.copytree(template, plan_dir)  # the same loop, a folder of its own
            runs = [("app", lambda d=data_dir: measure(app_argv(d), env))]
            runs += [(k, lambda k=k: measure(bare_argv(kind=k), env)) for k in BASELINES]
            runs += [("plan", lambda d=plan_dir: measure(app_argv(d), plan_env))]
            shift = n % len(runs)
            runs = runs[shift:] + runs[:shift]  # no side always goes first
            results = {name: fn() for name, fn in runs}
            if results["plan"].plan_ms is None:
                raise BenchmarkError("the app never reported Today's plan drawn")
            if n == 0:
                continue  # warm-up: page cache, font cache
            app.append(results["app"])
            for kind in bare:
                bare[kind].append(results[kind])
    return app, bare, note


def plan_folder(folder: Path) -> Path:
    """A data folder whose journal holds a loop today with four rounds, the first in an
    hour, opened once (so no run pays the day's first backup)."""
    from companion.core.day.loops import add_round, create_loop
    from companion.core.storage.store import open_store
    from companion.core.timeutil import local_now

    folder.mkdir(mode=0o700, parents=True)
    store = open_store(folder / "companion.sqlite3")
    try:
        now = local_now().replace(second=0, microsecond=0)
        loop = create_loop(store.db, "Acme", "SRE", starts_on=now.date().isoformat())
        for hours, kind in enumerate(("hiring-manager", "design", "coding", "behavioral"), 1):
            add_round(store.db, loop, kind, scheduled_at=now + dt.timedelta(hours=hours))
    finally:
        store.close()
    return folder


def compile_app() -> None:
    """Byte-compile the app first, as pip and the bundle do when it is installed: under
    PYTHONDONTWRITEBYTECODE (set on some machines, this one included) every child would
    otherwise compile the ~60 modules it imports from source at each start (about 60 ms
    here, and 1.4x instead of 1.26x the bare window), which no installed copy pays.
    Nothing is written where the checkout is read-only; the figures then include it."""
    import compileall

    compileall.compile_dir(REPO / "companion", quiet=2)  # it reports failures, never raises


def implausible_baseline(bare_ms: float, note: str = "") -> str | None:
    """Why the bare-window median cannot be trusted, or None when it is plausible."""
    if bare_ms <= BASELINE_LIMIT_MS:
        return None
    bus = ""
    if not os.environ.get("DBUS_SESSION_BUS_ADDRESS"):
        bus = (
            "; no D-Bus session bus, so Qt may autolaunch a bus daemon per process: "
            "run under dbus-run-session"
        )
    return (
        f"the bare-window baseline itself took {bare_ms:,.0f} ms to first paint (limit "
        f"{BASELINE_LIMIT_MS:,.0f} ms): the machine is measured, not the app{bus}"
        + (f" ({note})" if note else "")
    )


def round_ratios(app: list[float], bare: list[float]) -> tuple[float, float, float]:
    """The median of each round's own ratio (app over the baseline measured beside it in
    that round), with the quartiles of those ratios.

    Not the ratio of the two medians: this machine slows down and speeds up for seconds
    at a time, and a slow spell that caught more app runs than baseline runs (or fewer)
    moved the ratio of the medians. Three 15-round runs in a row gave 1.24x, 1.14x and
    1.08x that way, and 1.24x, 1.21x and 1.24x round by round (2026-12-07)."""
    ratios = sorted(a / b for a, b in zip(app, bare, strict=True))
    if len(ratios) < 4:
        middle = statistics.median(ratios)
        return middle, ratios[0], ratios[-1]
    low, middle, high = statistics.quantiles(ratios, n=4)
    return middle, low, high


def run(pairs: int = ROUNDS, instructions: bool | None = None) -> list[dict]:
    """Rows for benchmarks/run_all: first-pixels time and peak memory, app versus each
    bare window, as the median of the rounds' own ratios (:func:`round_ratios`). A time
    row is an error row (failed, with the reason) when its baseline itself is
    implausibly slow. ``instructions`` (default: when BENCH_LONG=1; run_all's quick table
    asks for them too) adds the callgrind rows (:func:`count_instructions`, about a minute
    per run here); without valgrind they are one error row and the time rows stand."""
    if instructions is None:
        instructions = os.environ.get("BENCH_LONG") == "1"
    app, bare, note = collect(pairs)
    if isinstance(bare, list):  # one baseline (a caller's own collect): the main window
        bare = {"mainwindow": bare}
    bare = dict(bare)
    plan = bare.pop("plan", None)
    app_ms = statistics.median(s.ms for s in app)
    app_mib = statistics.median(s.rss_mib for s in app)
    targets = {
        "widget": (TIME_TARGET, MEMORY_TARGET),
        "mainwindow": (MAIN_WINDOW_TARGET,) * 2,
        "list": (None, None),
    }
    time_rows, memory_rows = [], []
    for kind, samples in bare.items():
        bare_ms = statistics.median(s.ms for s in samples)
        bare_mib = statistics.median(s.rss_mib for s in samples)
        time_target, memory_target = targets[kind]
        ratio, *spread = round_ratios([s.ms for s in app], [s.ms for s in samples])
        row = {
            "figure": f"start-up: process start to first pixels, vs {BASELINES[kind]}",
            "app_ms": app_ms,
            "baseline_ms": bare_ms,
            "ratio": ratio,
            "ratio_range": tuple(spread),
            "target": _target(time_target, kind),
            "met": None if time_target is None else ratio <= time_target,
            "unit": "ms",
            "note": f"{len(app)} alternating rounds; {note}",
        }
        broken = implausible_baseline(bare_ms)
        if broken:
            row["error"] = f"{broken}; app {app_ms:,.0f} ms"
        time_rows.append(row)
        ratio, *spread = round_ratios([s.rss_mib for s in app], [s.rss_mib for s in samples])
        memory_rows.append(
            {
                "figure": f"start-up: peak memory (its own VmHWM), vs {BASELINES[kind]}",
                "app_value": app_mib,
                "baseline_value": bare_mib,
                "ratio": ratio,
                "ratio_range": tuple(spread),
                "target": _target(memory_target, kind),
                "met": None if memory_target is None else ratio <= memory_target,
                "unit": "MiB",
                "note": f"{len(app)} alternating rounds; {note}",
            }
        )
    plan_rows = _plan_rows(plan, bare.get(PLAN_BASELINE), note) if plan else []
    counted = []
    if instructions:
        try:
            counted = count_instructions()
        except BenchmarkError as exc:  # the time rows stand without it
            counted = [{"figure": "start-up in instructions (callgrind)", "error": str(exc)}]
    return time_rows + plan_rows + memory_rows + counted


def _plan_rows(plan: list[Sample], listed: list[Sample] | None, note: str) -> list[dict]:
    """Process start to Today's plan drawn beside the list window's first pixels, and how
    long the plan follows the same run's first pixels (round by round)."""
    plan_ms = [s.plan_ms for s in plan]
    after = [s.plan_ms - s.ms for s in plan]
    rows = []
    if listed:
        list_ms = [s.ms for s in listed]
        ratio, *spread = round_ratios(plan_ms, list_ms)
        rows.append(
            {
                "figure": "start-up: process start to Today's plan drawn (a loop today), "
                f"vs {BASELINES[PLAN_BASELINE]}",
                "app_ms": statistics.median(plan_ms),
                "baseline_ms": statistics.median(list_ms),
                "ratio": ratio,
                "ratio_range": tuple(spread),
                "target": "none (information; the plan's own target is the next row)",
                "met": None,
                "unit": "ms",
                "note": f"{len(plan)} alternating rounds; {note}; the plan: the app's report "
                "once the frame that shows it is flushed",
            }
        )
    middle = statistics.median(after)
    rows.append(
        {
            "figure": "start-up: Today's plan drawn after the app's first pixels (same run)",
            "app_ms": middle,
            "target": f"<= {PLAN_AFTER_FIRST_PIXELS_MS:.0f} ms",
            "met": middle <= PLAN_AFTER_FIRST_PIXELS_MS,
            "unit": "ms",
            "note": f"{len(plan)} alternating rounds; {note}",
        }
    )
    return rows


# instructions (callgrind) --------------------------------------------------------------


def count_instructions() -> list[dict]:
    """The app to its first paint and to Today's plan, and the list window to its first
    paint, each counted by ``valgrind --tool=callgrind`` from process start to its exit;
    instruction counts do not move with the machine's load as times do."""
    valgrind = shutil.which("valgrind")
    if not valgrind:
        raise BenchmarkError("valgrind is not installed (apt-get install valgrind)")
    compile_app()
    with display() as (env, note), tempfile.TemporaryDirectory(prefix="companion-cg-") as tmp:
        env["HOME"] = str(Path(tmp) / "home")
        env.pop("COMPANION_HOME", None)
        grind = [valgrind, "--tool=callgrind", "--callgrind-out-file=/dev/null"]
        first = dict(env, COMPANION_EXIT_ON_FIRST_PAINT="1")
        plan = dict(env, COMPANION_EXIT_ON_PLAN_DRAWN="1")
        counts = {
            "list": _instructions([*grind, *bare_argv(kind="list")], first),
            "app": _instructions([*grind, *app_argv(Path(tmp) / "data")], first),
            "plan": _instructions([*grind, *app_argv(plan_folder(Path(tmp) / "plan"))], plan),
        }
    base = counts["list"]
    return [
        {
            "figure": f"start-up in instructions (callgrind): the app to {what}, "
            f"vs {BASELINES['list']}",
            "app_value": counts[key] / 1e6,
            "baseline_value": base / 1e6,
            "ratio": counts[key] / base,
            "unit": "M",
            "target": "none (information: a busy machine does not move it)",
            "met": None,
            "note": f"valgrind --tool=callgrind, process start to exit; {note}",
        }
        for key, what in (("app", "its first paint"), ("plan", "Today's plan drawn"))
    ]


def _instructions(argv: list[str], env: dict[str, str]) -> int:
    proc = subprocess.run(
        argv, cwd=REPO, env=env, capture_output=True, text=True, timeout=CALLGRIND_TIMEOUT
    )
    found = re.findall(r"Collected\s*:\s*(\d+)", proc.stderr)
    if proc.returncode != 0 or not found:
        tail = (proc.stderr.strip().splitlines() or ["(no output)"])[-1]
        raise BenchmarkError(f"callgrind of {' '.join(argv[3:])} exited {proc.returncode}: {tail}")
    return int(found[-1])


def _target(ratio: float | None, kind: str) -> str:
    if ratio is None:
        return "none (the floor of a window that draws text)"
    return f"<= {ratio}x {BASELINES[kind]}"


# import profile ------------------------------------------------------------------------


def profile_imports(top: int = 25) -> list[tuple[int, int, str]]:
    """Run the app once to its first paint under ``-X importtime``.

    Returns (self_us, cumulative_us, module) for the ``top`` most expensive imports (by
    cumulative time) made before the first paint, i.e. what the start-up path pays for.
    """
    with display() as (env, _note), tempfile.TemporaryDirectory(prefix="companion-prof-") as tmp:
        env["COMPANION_EXIT_ON_FIRST_PAINT"] = "1"
        env["HOME"] = str(Path(tmp) / "home")
        proc = subprocess.run(
            app_argv(Path(tmp) / "data", "-u", "-X", "importtime"),
            cwd=REPO,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,  # one stream, so imports after the paint can be cut off
            text=True,
            timeout=CHILD_TIMEOUT,
        )
    before_paint = proc.stdout.split("first-paint ", 1)[0]
    rows = parse_importtime(before_paint)
    return sorted(rows, key=lambda r: r[1], reverse=True)[:top]


def parse_importtime(stderr: str, *, max_depth: int | None = None) -> list[tuple[int, int, str]]:
    """Parse ``-X importtime`` lines into (self_us, cumulative_us, dotted module name).

    ``max_depth`` keeps only modules nested at most that deep (0 = imported directly).
    """
    rows = []
    for line in stderr.splitlines():
        if not line.startswith("import time:") or "|" not in line:
            continue
        parts = line[len("import time:") :].split("|")
        try:
            self_us, cumulative_us = int(parts[0]), int(parts[1])
        except ValueError:
            continue  # the header line
        name = parts[2].rstrip()
        depth = (len(name) - len(name.lstrip())) // 2 - 1
        if max_depth is not None and depth > max_depth:
            continue
        rows.append((self_us, cumulative_us, name.strip()))
    return rows


def print_table(rows: list[dict]) -> None:
    print(f"{'figure':42} {'app':>10} {'bare':>10} {'ratio (quartiles)':>16}  target / met")
    for row in rows:
        if row.get("error"):
            print(f"{row['figure']:42} FAILED: {row['error']}")
            continue
        unit = row.get("unit", "ms")
        app = row.get("app_ms", row.get("app_value"))
        base = row.get("baseline_ms", row.get("baseline_value"))
        shown_base = f"{base:8.1f}{unit:>2}" if base is not None else f"{'-':>10}"
        print(
            f"{row['figure']:42} {app:8.1f}{unit:>2} {shown_base} {ratio_text(row):>16}"
            f"  {row['target']}: {verdict(row['met'])}"
        )
    notes = {row["note"] for row in rows if row.get("note")}
    for note in notes:
        print(f"note: {note}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--pairs", type=int, default=ROUNDS, help=f"measured rounds (default {ROUNDS})"
    )
    parser.add_argument("--profile", action="store_true", help="also list costly imports")
    parser.add_argument(
        "--instructions", action="store_true", help="also count instructions (callgrind)"
    )
    args = parser.parse_args(argv)
    try:
        rows = run(args.pairs, args.instructions or None)
    except BenchmarkError as exc:
        print(f"startup benchmark failed: {exc}", file=sys.stderr)
        return 1
    print_table(rows)
    if any(row.get("error") for row in rows):
        return 1
    if args.profile:
        print("\nimports on the path to first paint (cumulative, top level first):")
        print(f"{'self ms':>8} {'cum ms':>8}  module")
        for self_us, cum_us, name in profile_imports():
            print(f"{self_us / 1000:8.1f} {cum_us / 1000:8.1f}  {name}")
    return 0


if __name__ == "__main__":
    import private_bus  # benchmarks/, the script's own folder

    private_bus.reexec(sys.argv)  # on a private D-Bus session, like a desktop
    raise SystemExit(main())
