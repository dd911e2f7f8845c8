"""Journal benchmark: 10,000 loops (about 100,000 journal rows) built with the demo
generator in a temporary folder; each figure against a baseline in the same run.

Figures (medians):
- study list: ``studylist.study_list`` (aggregate, rank, guide links, quiz topics)
  vs the same aggregate SQL through a raw ``sqlite3`` connection. Target < 30 ms and
  within 3x.
- search: ``search.search`` for a two-word query (snippets, companies) vs a raw FTS5
  MATCH returning rowids. Target < 10 ms.
- open: ``storage.open_store`` (health check, migrations check) vs ``sqlite3.connect``
  plus one query. Target < 1 s (no target is given by the issue; one second keeps
  start-up snappy). The first open (it may take the daily backup) is a warm-up.
- each export (study list as md, csv, anki, json; whole journal as JSON) vs the
  ``csv`` module writing the same rows. Target < 1 s each.

Usage: ``python benchmarks/bench_journal.py [--loops N]``. Exposes ``run()``.
"""

from __future__ import annotations

import argparse
import csv
import datetime as dt
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

LOOPS = 10_000
QUERY = "consistent hashing"


def _median_ms(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def _row(figure, app, base, target_text, met, note=""):
    return {
        "figure": figure,
        "app_ms": round(app, 2),
        "baseline_ms": round(base, 2),
        "ratio": round(app / base, 2) if base else None,
        "target": target_text,
        "met": bool(met),
        **({"note": note} if note else {}),
    }


def run(loops: int = LOOPS) -> list[dict]:
    from companion.core.content import default_folders, load_content
    from companion.core.journal import files as journal_io
    from companion.core.journal import search
    from companion.core.journal.demo import generate
    from companion.core.storage.store import open_store
    from companion.core.study import exports
    from companion.core.study import ranking as studylist

    rows: list[dict] = []
    with tempfile.TemporaryDirectory(prefix="bench-journal-") as tmp:
        folder = Path(tmp)
        path = folder / "companion.sqlite3"
        today = dt.date(2026, 12, 1)
        now = dt.datetime(2026, 12, 1, 9, 0, tzinfo=dt.UTC)
        store = open_store(path)
        summary = generate(store.db, loops, seed=11, today=today)
        store.close()

        # opening the database
        open_store(path).close()  # warm-up: takes the daily backup, fills the OS cache

        def app_open():
            open_store(path).close()

        def raw_open():
            conn = sqlite3.connect(str(path))
            conn.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()
            conn.close()

        a, b = _median_ms(app_open, 7), _median_ms(raw_open, 7)
        rows.append(_row("open database", a, b, "< 1000 ms", a < 1000))

        store = open_store(path)
        db = store.db
        content, _errors = load_content(default_folders(folder / "content"))
        guide = studylist.GuideIndex(content)
        raw = sqlite3.connect(str(path))

        # study list
        items = studylist.study_list(db, now, guide=guide)  # warm-up
        a = _median_ms(lambda: studylist.study_list(db, now, guide=guide), 21)
        b = _median_ms(lambda: raw.execute(studylist.STUDY_LIST_SQL).fetchall(), 21)
        rows.append(
            _row(
                f"study list ({len(items)} topics)",
                a,
                b,
                "< 30 ms, <= 3x",
                a < 30 and a <= 3 * b,
            )
        )

        # search
        fts = search.fts_query(QUERY)
        hits = search.search(db, QUERY)
        a = _median_ms(lambda: search.search(db, QUERY), 21)
        b = _median_ms(
            lambda: raw.execute(
                "SELECT rowid FROM journal_fts WHERE journal_fts MATCH ? ORDER BY rank LIMIT 50",
                [fts],
            ).fetchall(),
            21,
        )
        rows.append(_row(f"search '{QUERY}' ({len(hits)} hits)", a, b, "< 10 ms", a < 10))

        # study-list exports vs the csv module writing the same rows
        study_rows = exports.study_rows(db, now, guide)
        records = [exports._csv_record(r) for r in study_rows]

        def csv_baseline(target: Path, data):
            with open(target, "w", newline="", encoding="utf-8") as fh:
                csv.writer(fh).writerows(data)

        base = _median_ms(lambda: csv_baseline(folder / "base.csv", records), 5)
        for fmt in exports.FORMATS:
            out = folder / f"study{exports.SUFFIXES[fmt]}"
            a = _median_ms(
                lambda fmt=fmt, out=out: exports.export_study_list(db, fmt, out, now, guide=guide),
                5,
            )
            rows.append(_row(f"export study list {fmt}", a, base, "< 1000 ms", a < 1000))

        # whole-journal export vs the csv module writing every journal row
        def all_rows():
            out = []
            for table in (
                "loops",
                "rounds",
                "asked",
                "flubs",
                "went_well",
                "weak_topics",
                "thank_yous",
            ):
                out.extend(raw.execute(f"SELECT * FROM {table}").fetchall())
            return out

        base = _median_ms(lambda: csv_baseline(folder / "all.csv", all_rows()), 3)
        a = _median_ms(lambda: journal_io.export_journal(db, folder / "journal.json", now), 3)
        rows.append(
            _row(
                f"export whole journal json ({summary.loops} loops, {summary.journal_rows} rows)",
                a,
                base,
                "< 1000 ms",
                a < 1000,
            )
        )
        raw.close()
        store.close()
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--loops", type=int, default=LOOPS)
    args = parser.parse_args()
    rows = run(args.loops)
    width = max(len(r["figure"]) for r in rows)
    print(f"{'figure':<{width}}  {'app ms':>9}  {'base ms':>9}  {'ratio':>6}  {'target':<16} met")
    for r in rows:
        ratio = "" if r["ratio"] is None else f"{r['ratio']:.2f}"
        print(
            f"{r['figure']:<{width}}  {r['app_ms']:>9.2f}  {r['baseline_ms']:>9.2f}  {ratio:>6}  "
            f"{r['target']:<16} {'met' if r['met'] else 'MISSED'}"
        )
    return 0 if all(r["met"] for r in rows) else 1


if __name__ == "__main__":
    raise SystemExit(main())
