"""A light/dark switch with every page built: the CPU time (user+sys of this thread)
``apply_scheme`` and the repaints it causes take, with the main window's seven pages and
the cue card built and shown (offscreen), on a data folder with a loop of two rounds.

Target: <= 300 ms of CPU per switch. The baseline, measured in the same run on the same
widgets, is a bare palette change (``QApplication.setPalette``) with no style sheet: what
Qt itself costs to tell every widget of a new palette and repaint it.

Usage: ``python benchmarks/bench_scheme.py [--runs 5]``. Exposes ``run()``.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(HERE))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

TARGET_MS = 300


def _settle(app) -> None:
    """Run what the change posted, then wait 30 ms in Qt's loop (asleep: no CPU counted)."""
    from PySide6.QtCore import QEventLoop, QTimer

    for _ in range(5):
        app.processEvents()
    loop = QEventLoop()
    QTimer.singleShot(30, loop.quit)
    loop.exec()


def measure(runs: int = 5) -> tuple[float, float]:
    """(median CPU ms of one scheme switch, median CPU ms of a bare palette change)."""
    from PySide6.QtWidgets import QApplication

    from companion.core.context import AppContext
    from companion.core.day.loops import add_round, create_loop
    from companion.ui.bus import AppBus
    from companion.ui.cue.window import CueCardWindow
    from companion.ui.day.service import day_service
    from companion.ui.mainwindow import MainWindow
    from companion.ui.pages import PAGES
    from companion.ui.theme import apply_scheme, dark_palette, light_palette

    app = QApplication.instance() or QApplication(["bench"])
    apply_scheme(app, "light")
    now = dt.datetime.now().astimezone().replace(second=0, microsecond=0)
    ctx = AppContext(Path(tempfile.mkdtemp(prefix="bench-scheme-")), clock=lambda: now)
    loop = create_loop(ctx.db, "Acme", "SRE", starts_on=now.date().isoformat())
    add_round(ctx.db, loop, "design", scheduled_at=now + dt.timedelta(minutes=10))
    add_round(ctx.db, loop, "coding", scheduled_at=now + dt.timedelta(hours=2))
    bus = AppBus()
    day = day_service(ctx, bus, bus, fallback=lambda _t, _m: None)
    day.start()
    win = MainWindow(ctx, bus, day=lambda: day)
    win.resize(1100, 720)
    win.show()
    for spec in PAGES:
        win.show_page(spec.key)
        _settle(app)
    card = CueCardWindow(ctx, bus, day)
    card.show()
    _settle(app)

    def cpu_ms(action) -> float:
        _settle(app)
        started = time.thread_time()
        action()
        _settle(app)
        return (time.thread_time() - started) * 1000

    switches, bare = [], []
    for n in range(runs):
        scheme = "dark" if n % 2 == 0 else "light"
        switches.append(cpu_ms(lambda s=scheme: apply_scheme(app, s)))
    sheet = app.styleSheet()
    app.setStyleSheet("")
    for n in range(runs):
        palette = dark_palette() if n % 2 == 0 else light_palette()
        bare.append(cpu_ms(lambda p=palette: app.setPalette(p)))
    app.setStyleSheet(sheet)
    card.close()
    win.close()
    day.shutdown()
    ctx.close()
    return statistics.median(switches), statistics.median(bare)


def run(runs: int = 5) -> list[dict]:
    switch_ms, bare_ms = measure(runs)
    return [
        {
            "figure": "light/dark switch, every page and the card built: CPU (user+sys)",
            "app_ms": round(switch_ms, 1),
            "baseline_ms": round(bare_ms, 1),
            "ratio": round(switch_ms / bare_ms, 2) if bare_ms else None,
            "target": f"<= {TARGET_MS} ms",
            "met": switch_ms <= TARGET_MS,
            "note": "baseline: a bare palette change of the same widgets, no style sheet",
        }
    ]


def main() -> int:
    from verdict import verdict

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    for row in run(args.runs):
        print(
            f"{row['figure']}: {row['app_ms']} ms vs {row['baseline_ms']} ms ({row['target']}: {verdict(row['met'])})"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
