"""Cue card benchmark: switch the card to another round type and repaint it, against
repainting the same card without a switch, in the same run.

Each sample is timed from just before the change (or, for the plain case, a request
to repaint the whole card) until the event loop has run the layouts and painted the
card; every sample is checked to paint the card exactly once. Switch and plain samples
alternate over every round type (one warm-up cycle first, discarded); medians are
compared. Targets: a switch within one frame (16 ms) and within 3x of a plain repaint.
A second figure times the first, uncached switch to each round type (the card builds
the pages ahead of time after it shows, so users normally never pay this).

Usage: ``python benchmarks/bench_cuecard.py [--cycles N]``. Uses the display in
``DISPLAY`` if set, else Qt's offscreen platform, and a throwaway data folder.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from verdict import verdict  # noqa: E402

FRAME_MS = 16.0
RATIO_TARGET = 3.0


def _app():
    if not os.environ.get("DISPLAY") and not os.environ.get("WAYLAND_DISPLAY"):
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    # deliver update requests at once instead of on Qt's 5 ms idle timer, so that
    # processEvents() in a sample includes the paint it asked for on every platform
    os.environ.setdefault("QT_QPA_UPDATE_IDLE_TIME", "0")
    from PySide6.QtWidgets import QApplication

    return QApplication.instance() or QApplication(sys.argv[:1])


class _PaintCounter:
    """Counts the card's own paint events, to prove each sample painted exactly once."""

    def __init__(self, card):
        from PySide6.QtCore import QEvent, QObject

        class Filter(QObject):
            count = 0

            def eventFilter(self, obj, event):  # noqa: N802 (Qt API)
                if obj is card and event.type() == QEvent.Type.Paint:
                    Filter.count += 1
                return False

        self._filter = Filter()
        card.installEventFilter(self._filter)

    @property
    def count(self) -> int:
        return self._filter.count


def _timed(app, card, action, paints: _PaintCounter) -> float:
    """One sample: the change (or, for the plain case, a request to repaint everything),
    then the event loop runs the layouts and paints the card once, as it does when a
    user presses a key. A synchronous repaint() after processEvents() would paint the
    switched card twice (its own update request, then repaint()) against once."""
    before = paints.count
    started = time.perf_counter()
    if action is not None:
        action()
    else:
        card.update()
    app.processEvents()
    elapsed = (time.perf_counter() - started) * 1000
    if paints.count - before != 1:
        raise RuntimeError(f"expected one paint per sample, saw {paints.count - before}")
    return elapsed


def run(cycles: int = 8) -> list[dict]:
    app = _app()
    from companion.core.context import AppContext
    from companion.ui.bus import AppBus
    from companion.ui.cue.window import CueCardWindow

    with tempfile.TemporaryDirectory(prefix="cue-bench-") as folder:
        ctx = AppContext(Path(folder))
        bus = AppBus()
        from companion.ui.session import Session

        session = Session(ctx, bus)  # the day service the card follows, as the app makes it
        card = CueCardWindow(ctx, bus, session.day)
        card.state.reminder_shown_on = ctx.now().date().isoformat()
        card.restore_geometry()
        card.show()
        app.processEvents()
        paints = _PaintCounter(card)
        ids = [info.id for info in card.infos]

        cold = []
        for rid in ids[1:] + ids[:1]:  # first visit to each page: built on demand
            cold.append(_timed(app, card, lambda r=rid: card.set_round(r), paints))

        switch, plain = [], []
        for cycle in range(cycles + 1):
            for n, rid in enumerate(ids):
                target = ids[(n + 1) % len(ids)]
                card.set_round(rid)
                app.processEvents()
                a = _timed(app, card, lambda t=target: card.set_round(t), paints)
                b = _timed(app, card, None, paints)
                if cycle:  # the first cycle warms caches
                    switch.append(a)
                    plain.append(b)
        card.close()
        ctx.close()
        card.deleteLater()
        app.processEvents()

    switch_ms, plain_ms = statistics.median(switch), statistics.median(plain)
    cold_ms = statistics.median(cold)
    ratio = switch_ms / plain_ms if plain_ms else float("inf")
    platform = app.platformName()
    note = f"Qt platform {platform}; {len(switch)} samples each, {len(ids)} round types"
    return [
        {
            "figure": "cue card: switch round type + repaint",
            "app_ms": switch_ms,
            "baseline_ms": plain_ms,
            "ratio": ratio,
            "target": f"< {FRAME_MS:.0f} ms and <= {RATIO_TARGET:g}x",
            "met": switch_ms < FRAME_MS and ratio <= RATIO_TARGET,
            "note": note,
        },
        {
            "figure": "cue card: first (uncached) switch + repaint",
            "app_ms": cold_ms,
            "baseline_ms": plain_ms,
            "ratio": cold_ms / plain_ms if plain_ms else float("inf"),
            # no target: the card builds every round's page right after it shows, so a
            # user switching never waits for this; reported so a regression is visible
            "target": "none (pages are built ahead, after the card shows)",
            "met": None,
            "note": note,
        },
    ]


def print_table(rows: list[dict]) -> None:
    print(f"{'figure':46} {'app ms':>8} {'plain ms':>9} {'ratio':>6}  target / met")
    for row in rows:
        print(
            f"{row['figure']:46} {row['app_ms']:8.2f} {row['baseline_ms']:9.2f} "
            f"{row['ratio']:6.2f}  {row['target']}: "
            f"{verdict(row['met'])}"
        )
    for note in sorted({row["note"] for row in rows if row.get("note")}):
        print(f"note: {note}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cycles", type=int, default=8, help="measured cycles (default 8)")
    args = parser.parse_args()
    rows = run(args.cycles)
    print_table(rows)
    return 0 if rows[0]["met"] else 1


if __name__ == "__main__":
    import private_bus  # benchmarks/, the script's own folder

    private_bus.reexec(sys.argv)  # on a private D-Bus session, like a desktop
    raise SystemExit(main())
