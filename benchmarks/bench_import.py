"""Imports that must grow no faster than the data: `companion journal import` at 1,000,
10,000 and 20,000 demo loops, a 200 MB journal file, and a 1.3 MB calendar invitation
with one big VTIMEZONE at 10 and 800 events.

Figures:
- journal import, whole process, at each size; the time per loop at 10,000 and 20,000
  against the time per loop at 1,000 in the same run (target: at most 1.5x, i.e.
  linear), and 20,000 loops in at most 10 s;
- the 200 MB file (three copies of the 20,000-loop export's loops in one file, 60,000
  loops): peak RSS at most 5x the file, or refused before reading (the import reads a
  file whole: its text and its parsed document are held at once);
- .ics: ``read_ics`` of the invitation (a custom zone with a block per transition, 1.3
  MB at 800 events) against the same events with a zone name the system knows and no
  VTIMEZONE; 800 events in at most 2 s.

Each journal import is its own process (`python -m companion journal import`) into a
fresh data folder; peak RSS is the child's own VmHWM, CPU time its rusage.

Usage: ``python benchmarks/bench_import.py [--loops 1000 10000 20000] [--no-big]``.
Exposes ``run()``.
"""

from __future__ import annotations

import argparse
import datetime as dt
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import child_usage  # noqa: E402
from child_usage import APP  # noqa: E402
from verdict import verdict  # noqa: E402

SIZES = (1_000, 10_000, 20_000)
LINEAR_TARGET = 1.5  # time per loop at N over time per loop at the smallest size
IMPORT_20K_TARGET_S = 10.0
MEMORY_TARGET = 5.0  # peak RSS over the file's size
ICS_TARGET_S = 2.0
ICS_EVENTS = (10, 800)


def _measure(argv: list[str]) -> tuple[float, float, float, str]:
    """(wall seconds, CPU seconds, peak RSS in MiB, stdout+stderr) of one child."""
    used = child_usage.run(argv)
    if used.code:
        raise RuntimeError(
            f"{' '.join(argv[2:8])}... exited {used.code}: {used.output.strip()[-300:]}"
        )
    return used.wall, used.cpu, used.peak_mib, used.output


def _export(folder: Path, loops: int, out: Path) -> None:
    from demo_journal import generate

    from companion.core.journal.files import export_journal
    from companion.core.storage.store import open_store

    store = open_store(folder / "companion.sqlite3")
    generate(store.db, loops, seed=11, today=dt.date(2026, 12, 1))
    export_journal(store.db, out, dt.datetime(2026, 12, 1, 9, tzinfo=dt.UTC))
    store.close()


def _import(src: Path, data: Path, runs: int) -> tuple[float, float, float]:
    samples = []
    for n in range(runs):
        target = data.with_name(f"{data.name}-{n}")
        argv = [sys.executable, "-c", APP, "--data-dir", str(target), "journal", "import"]
        wall, cpu, mib, text = _measure([*argv, str(src)])
        if "Imported" not in text:
            raise RuntimeError(f"the import said: {text.strip()[-200:]}")
        samples.append((wall, cpu, mib))
    return tuple(statistics.median(s[i] for s in samples) for i in range(3))


def _tripled(src: Path, dest: Path) -> int:
    """A journal file with the loops of ``src`` three times over (each imports: loops of
    one file are not matched against each other). Returns its size in bytes."""
    text = src.read_text(encoding="utf-8")
    head, _, rest = text.partition('"loops":[')
    # a bare quote never occurs inside a JSON string, so this is the top-level key
    end = rest.rfind('],"unfiled":')
    loops, tail = rest[:end], rest[end:]
    dest.write_text(head + '"loops":[' + ",".join([loops] * 3) + tail, encoding="utf-8")
    return dest.stat().st_size


def journal_rows(sizes=SIZES, runs: int = 1, big: bool = True) -> list[dict]:
    rows: list[dict] = []
    per_loop: dict[int, float] = {}
    with tempfile.TemporaryDirectory(prefix="bench-import-") as tmp:
        tmp = Path(tmp)
        exports: dict[int, Path] = {}
        for loops in sizes:
            folder = tmp / f"src-{loops}"
            folder.mkdir()
            exports[loops] = tmp / f"journal-{loops}.json"
            _export(folder, loops, exports[loops])
            wall, cpu, mib = _import(exports[loops], tmp / f"data-{loops}", runs)
            per_loop[loops] = wall / loops
            size_mib = exports[loops].stat().st_size / 2**20
            target = f"<= {IMPORT_20K_TARGET_S:.0f} s" if loops == 20_000 else "(none)"
            rows.append(
                {
                    "figure": f"journal import, {loops:,} loops ({size_mib:.0f} MiB): whole process",
                    "app_ms": round(wall * 1000, 1),
                    "baseline_ms": round(cpu * 1000, 1),
                    "ratio": round(wall / cpu, 2) if cpu else None,
                    "target": f"{target} (baseline column: its CPU time)",
                    "met": wall <= IMPORT_20K_TARGET_S if loops == 20_000 else None,
                    "note": "journal import: baseline of the whole-process rows is the same "
                    "import's CPU time (user+sys); a ratio well over 1 is a busy machine",
                }
            )
        smallest = min(sizes)
        for loops in sizes:
            if loops == smallest:
                continue
            ratio = per_loop[loops] / per_loop[smallest]
            rows.append(
                {
                    "figure": f"journal import: time per loop at {loops:,} vs {smallest:,} loops",
                    "unit": "ms",
                    "app_value": round(per_loop[loops] * 1000, 3),
                    "baseline_value": round(per_loop[smallest] * 1000, 3),
                    "ratio": round(ratio, 2),
                    "target": f"<= {LINEAR_TARGET}x (linear)",
                    "met": ratio <= LINEAR_TARGET,
                }
            )
        if big and max(sizes) >= 20_000:
            src = tmp / "journal-big.json"
            size = _tripled(exports[max(sizes)], src)
            wall, _cpu, mib = _import(src, tmp / "data-big", 1)
            file_mib = size / 2**20
            rows.append(
                {
                    "figure": f"journal import, a {file_mib:.0f} MiB file "
                    f"({3 * max(sizes):,} loops): peak RSS",
                    "unit": "MiB",
                    "app_value": round(mib, 1),
                    "baseline_value": round(file_mib, 1),
                    "ratio": round(mib / file_mib, 2),
                    "target": f"<= {MEMORY_TARGET:.0f}x the file (baseline: the file)",
                    "met": mib <= MEMORY_TARGET * file_mib,
                    "note": f"journal import of the {file_mib:.0f} MiB file took {wall:.1f} s",
                }
            )
    return rows


def _time_ics(path: Path, runs: int) -> float:
    from companion.core.day.ics import read_ics

    samples = []
    for _ in range(runs):
        started = time.perf_counter()
        events, problems = read_ics(path, local_tz=dt.UTC)
        samples.append(time.perf_counter() - started)
        if problems or not events:
            raise RuntimeError(f"{path.name}: {len(events)} events, problems {problems[:2]}")
    return statistics.median(samples)


def ics_rows(counts=ICS_EVENTS, runs: int = 3) -> list[dict]:
    import invitations

    rows = []
    with tempfile.TemporaryDirectory(prefix="bench-ics-") as tmp:
        for count in counts:
            big = Path(tmp) / f"big-{count}.ics"
            big.write_text(invitations.invitation(count), encoding="utf-8")
            known = Path(tmp) / f"known-{count}.ics"
            known.write_text(invitations.invitation(count, zone_years=0), encoding="utf-8")
            app_s = _time_ics(big, runs)
            base_s = _time_ics(known, runs)
            rows.append(
                {
                    "figure": f".ics import: {count} events and one big VTIMEZONE "
                    f"({big.stat().st_size / 1e6:.2f} MB)",
                    "app_ms": round(app_s * 1000, 1),
                    "baseline_ms": round(base_s * 1000, 1),
                    "ratio": round(app_s / base_s, 2),
                    "target": f"<= {ICS_TARGET_S:.0f} s",
                    "met": app_s <= ICS_TARGET_S,
                    "note": ".ics baseline: the same events with a zone name the system "
                    "knows (Europe/Berlin) and no VTIMEZONE",
                }
            )
    return rows


def run(sizes=SIZES, runs: int = 1, big: bool = True) -> list[dict]:
    return ics_rows() + journal_rows(sizes, runs, big)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--loops", type=int, nargs="+", default=list(SIZES))
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--no-big", action="store_true", help="skip the 200 MB file")
    args = parser.parse_args()
    for row in run(args.loops, args.runs, not args.no_big):
        unit = row.get("unit", "ms")
        app = row.get("app_ms", row.get("app_value"))
        base = row.get("baseline_ms", row.get("baseline_value"))
        met = verdict(row["met"])
        print(f"{row['figure']}: {app} {unit} vs {base} {unit} ({row['target']}: {met})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
