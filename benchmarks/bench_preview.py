"""The Markdown preview and exports: any text up to the size limit renders (or is refused
in one line) within a second, and the short texts the preview renders on the GUI thread
stay inside a frame.

Figures, CPU time (user+sys of this process, best of ``--runs``), for each worst-case
shape at the guard's limit (``guard.MAX_CHARS``, the exports) and at the live preview's
(``LIVE_LIMIT_CHARS``):
- ``SafeRenderer.render_sections`` plus the About me timing (``analyze``): the ratio to
  1 s (target: at most 1.0);
- the slowest shape cut to what the preview renders on the GUI thread (under
  ``SYNC_CHARS``, within ``SYNC_LINK_COST``), measured at that length: the ratio to a
  16 ms frame (target: at most 1.0);
- showing the slowest results in the real preview (``SafePreview``, offscreen): the most
  GUI-thread CPU between two ticks of a 5 ms timer while it is shown in slices, against a
  16 ms frame, with what showing it in one go costs as the baseline.

Usage: ``python benchmarks/bench_preview.py [--runs 3] [--quick] [--no-display]``.
Exposes ``run()``.
"""

from __future__ import annotations

import argparse
import resource
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from companion.core.about.guard import (  # noqa: E402
    MAX_CHARS,
    SYNC_LINK_COST,
    RenderRefused,
    link_cost,
)
from companion.core.about.importing import LIVE_LIMIT_CHARS  # noqa: E402
from companion.core.about.pitch import analyze  # noqa: E402
from companion.core.about.render import SafeRenderer  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from verdict import verdict  # noqa: E402

FRAME = 0.016
SYNC_CHARS = 2_000  # companion/ui/widgets/preview_render.py (no Qt imported here)

SHAPES = {
    "prose": "word ",
    "headings+paragraphs": "# h\n\nword word\n\n",
    "open-brackets": "[",
    "unclosed-links": "[a](",
    "emphasis": "*a* ",
    "nested-lists": None,  # built below: indented items cycling through 30 levels
    "table": "|x|y|z|\n",
    "links": "[a](https://e.x/) ",
    "images": "![a](x.png) ",
    "quotes": "> a\n",
    "code-spans": "`a` ",
}

NEAR_LIMIT = {  # just under the guard's element and mark limits
    "headings+paragraphs x1,500": "# h\n\nword word\n\n" * 1_500,
    "list items x4,500": "- a [b](c) *d*\n" * 4_500,
    "emphasis paragraphs": ("*a* " * 100 + "\n\n") * 90,
    "links paragraphs": ("[a](https://e.x/) " * 50 + "\n\n") * 35,  # guard.LINK_BUDGET
    "links, one paragraph": "[a](https://e.x/) " * 280,
    "images, one paragraph": "![a](x.png) " * 320,
    "links in long paragraphs": (("[a](https://e.x/) " + "word " * 300) * 6 + "\n\n") * 6,
}
# both budgets spent in one text: the inline passes' and the links' (they add up)
NEAR_LIMIT["emphasis and links paragraphs"] = (
    NEAR_LIMIT["emphasis paragraphs"] + NEAR_LIMIT["links, one paragraph"]
)


def _text(shape: str, size: int) -> str:
    unit = SHAPES[shape]
    if unit is None:
        lines, total, level = [], 0, 0
        while total < size:
            line = "  " * (level % 30) + "- x"
            lines.append(line)
            total += len(line) + 1
            level += 1
        return "\n".join(lines)[:size]
    if shape == "table":
        return ("|a|b|c|\n|-|-|-|\n" + unit * size)[:size]
    return (unit * (size // len(unit) + 1))[:size]


def _synchronous(shape: str) -> str:
    """The longest text of ``shape`` the preview renders on the GUI thread: under
    ``SYNC_CHARS`` and within ``SYNC_LINK_COST`` (preview_render.py's rule)."""
    size = SYNC_CHARS - 1
    while size > 0 and link_cost(_text(shape, size)) > SYNC_LINK_COST:
        size = size * 9 // 10
    return _text(shape, size)


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def _cost(text: str, runs: int) -> tuple[float, str]:
    best, outcome = float("inf"), ""
    for _ in range(runs):
        renderer = SafeRenderer()  # no cached sections from the previous run
        started = _cpu()
        analyze(text, 140.0)
        try:
            renderer.render_sections(text)
            outcome = "rendered"
        except RenderRefused:
            outcome = "refused"
        best = min(best, _cpu() - started)
    return best, outcome


def _row(name: str, seconds: float, limit: float, target: str) -> dict:
    return {"figure": name, "app_ms": round(seconds * 1000, 1),
            "baseline_ms": round(limit * 1000, 1), "ratio": round(seconds / limit, 2),
            "target": target, "met": seconds <= limit}  # fmt: skip


DISPLAYED = {  # the results that cost Qt the most to show (the render itself is above)
    "1,500 sections": "# h\n\nword word\n\n" * 1_500,
    "36 KB of emphasis, one section": ("*a* " * 100 + "\n\n") * 90,
    "links paragraphs, one section": NEAR_LIMIT["links paragraphs"],
    "490 long paragraphs": ("word " * 80 + "\n\n") * 490,
}


def display_rows(runs: int) -> list[dict]:
    """The longest GUI-thread stretch while each of DISPLAYED is shown (best of runs)."""
    import os
    import time

    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import QTimer
    from PySide6.QtGui import QTextDocument
    from PySide6.QtWidgets import QApplication

    from companion.core.about.render import PAGE_CSS
    from companion.ui.about.editor import SafePreview

    app = QApplication.instance() or QApplication(["bench_preview"])
    rows = []
    for name, text in DISPLAYED.items():
        sections = SafeRenderer().render_sections(text)
        best, whole = float("inf"), float("inf")
        for _ in range(runs):
            preview = SafePreview()
            preview.resize(600, 700)
            preview.show()
            app.processEvents()
            stamps = [time.thread_time()]
            timer = QTimer()
            timer.setInterval(5)
            timer.timeout.connect(lambda stamps=stamps: stamps.append(time.thread_time()))
            timer.start()
            preview.show_sections(sections)
            while preview.displaying:
                app.processEvents()
            app.processEvents()
            timer.stop()
            stamps.append(time.thread_time())
            best = min(best, max(b - a for a, b in zip(stamps, stamps[1:])))
            started = time.thread_time()  # the baseline: the same result in one go
            document = QTextDocument(preview)
            document.setDefaultStyleSheet(PAGE_CSS)
            document.setHtml("\n".join(sections))
            preview.setDocument(document)
            app.processEvents()
            whole = min(whole, time.thread_time() - started)
            preview.deleteLater()
            app.processEvents()
        row = _row(f"preview shown in slices: {name}, longest GUI-thread stretch", best,
                   FRAME, "<= 16 ms (a frame)")  # fmt: skip
        row["baseline_ms"] = round(whole * 1000, 1)  # in one go, for comparison
        row["ratio"] = round(best / FRAME, 2)
        rows.append(row)
    return rows


def run(runs: int = 3, quick: bool = False, display: bool = True) -> list[dict]:
    rows = []
    sizes = (LIVE_LIMIT_CHARS,) if quick else (LIVE_LIMIT_CHARS, MAX_CHARS)
    texts = [(shape, _text(shape, size)) for size in sizes for shape in SHAPES]
    texts += list(NEAR_LIMIT.items())  # the slowest texts the guard still lets through
    for name, text in texts:
        seconds, outcome = _cost(text, runs)
        rows.append(_row(f"{name} {len(text):,} chars ({outcome})", seconds, 1.0, "<= 1 s"))
    # measured at that length, not scaled from the long texts: links cost links x length
    sync = max(_cost(_synchronous(shape), runs)[0] for shape in SHAPES)
    name = f"GUI-thread render, up to {SYNC_CHARS:,} chars of the slowest shape"
    rows.append(_row(name, sync, FRAME, "<= 16 ms (a frame)"))
    if display:
        rows += display_rows(runs)
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--quick", action="store_true", help="the live preview's limit only")
    parser.add_argument("--no-display", action="store_true", help="no Qt: renders only")
    args = parser.parse_args()
    failed = False
    for row in run(args.runs, args.quick, not args.no_display):
        failed |= not row["met"]
        print(
            f"{row['figure']:<60} {row['app_ms']:8.1f} ms  ratio {row['ratio']:5.2f}"
            f"  (baseline {row['baseline_ms']} ms)  {verdict(row['met'])}"
        )
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
