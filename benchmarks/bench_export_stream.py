"""Streaming journal export: `companion journal export` as a whole process, at 10,000
and 100,000 demo loops, against a raw ``sqlite3`` JSON dump of the same rows.

Figures (median of the runs; each child's own peak RSS, ``child_usage``):
- whole-process time at 10,000 loops: target < 1 s;
- peak RSS at 10,000 loops: target <= 100 MiB;
- peak RSS at 100,000 loops: target < 100 MiB (memory stays flat as the journal grows);
- whole-process time at 100,000 loops, and CPU time (user+sys) at both sizes:
  reported (CPU time is what to compare on a busy machine).

The baseline is a fresh Python process that opens the same database with ``sqlite3``
and writes every row of the same tables (loops, rounds, asked, flubs, went_well,
weak_topics, thank_yous, study_marks) with ``json.dump(cursor.fetchall())``: the
simplest thing that dumps the same data.

Usage: ``python benchmarks/bench_export_stream.py [--loops 10000 100000] [--runs 3]``.
Exposes ``run()``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

import child_usage  # noqa: E402
from child_usage import APP, PEAK  # noqa: E402
from verdict import verdict  # noqa: E402

SIZES = (10_000, 100_000)
RUNS = 3
TABLES = (
    "loops",
    "rounds",
    "asked",
    "flubs",
    "went_well",
    "weak_topics",
    "thank_yous",
    "study_marks",
)
BASELINE = (
    "import json, sqlite3\n"
    "conn = sqlite3.connect(f'file:{sys.argv[1]}?mode=ro', uri=True)\n"
    "with open(sys.argv[2], 'w', encoding='utf-8') as out:\n"
    "    out.write('{')\n"
    f"    for n, table in enumerate({TABLES!r}):\n"
    "        rows = conn.execute(f'SELECT * FROM {table} ORDER BY id').fetchall()\n"
    "        out.write((',' if n else '') + json.dumps(table) + ':')\n"
    "        json.dump(rows, out, ensure_ascii=False, separators=(',', ':'))\n"
    "    out.write('}\\n')\n"
)


def _measure(argv: list[str]) -> tuple[float, float, float]:
    """(wall seconds, CPU seconds, peak RSS in MiB) of one child process."""
    used = child_usage.run(argv, keep_stdout=False)
    if used.code:
        raise RuntimeError(f"{' '.join(argv[:6])}... exited {used.code}: {used.output}")
    return used.wall, used.cpu, used.peak_mib


def _medians(argv: list[str], runs: int) -> tuple[float, float, float]:
    samples = [_measure(argv) for _ in range(runs)]
    return tuple(statistics.median(s[i] for s in samples) for i in range(3))


def _build(folder: Path, loops: int) -> Path:
    import datetime as dt

    from demo_journal import generate

    from companion.core.storage.store import open_store

    store = open_store(folder / "companion.sqlite3")
    generate(store.db, loops, seed=11, today=dt.date(2026, 12, 1))
    store.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    store.close()
    return folder / "companion.sqlite3"


def run(sizes=SIZES, runs: int = RUNS) -> list[dict]:
    rows: list[dict] = []
    for loops in sizes:
        with tempfile.TemporaryDirectory(prefix="bench-export-") as tmp:
            folder = Path(tmp) / "data"
            folder.mkdir()
            db_file = _build(folder, loops)
            out = Path(tmp) / "journal.json"
            app_s, app_cpu, app_mib = _medians(
                [
                    sys.executable,
                    "-c",
                    APP,
                    "--data-dir",
                    str(folder),
                    "journal",
                    "export",
                    "-o",
                    str(out),
                ],
                runs,
            )
            size = out.stat().st_size
            base_s, base_cpu, base_mib = _medians(
                [sys.executable, "-c", PEAK + BASELINE, str(db_file), str(Path(tmp) / "raw.json")],
                runs,
            )
        label = f"journal export, {loops:,} loops ({size / 2**20:.0f} MiB JSON)"
        time_target = loops <= 10_000
        rows.append(
            {
                "figure": f"{label}: whole process",
                "app_ms": round(app_s * 1000, 1),
                "baseline_ms": round(base_s * 1000, 1),
                "ratio": round(app_s / base_s, 2),
                "target": "< 1 s" if time_target else "(none)",
                "met": app_s < 1.0 if time_target else None,
            }
        )
        rows.append(
            {
                "figure": f"{label}: CPU time (user+sys)",
                "app_ms": round(app_cpu * 1000, 1),
                "baseline_ms": round(base_cpu * 1000, 1),
                "ratio": round(app_cpu / base_cpu, 2),
                "target": "(info: robust to a busy machine)",
                "met": None,
            }
        )
        rows.append(
            {
                "figure": f"{label}: peak RSS",
                "unit": "MiB",
                "app_value": round(app_mib, 1),
                "baseline_value": round(base_mib, 1),
                "ratio": round(app_mib / base_mib, 2),
                "target": "<= 100 MiB" if time_target else "< 100 MiB",
                "met": app_mib <= 100 if time_target else app_mib < 100,
            }
        )
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--loops", type=int, nargs="+", default=list(SIZES))
    parser.add_argument("--runs", type=int, default=RUNS)
    args = parser.parse_args()
    for row in run(args.loops, args.runs):
        unit = row.get("unit", "ms")
        app = row.get("app_ms", row.get("app_value"))
        base = row.get("baseline_ms", row.get("baseline_value"))
        met = verdict(row["met"])
        print(
            f"{row['figure']}: {app} {unit} vs raw sqlite3 {base} {unit} ({row['target']}: {met})"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
