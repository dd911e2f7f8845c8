"""Redraws per action: how often each page and the cue card redraws for one user action.

Every page is built and shown (offscreen) on one data folder with a loop of two rounds,
the day service owning the day as in the app. Then each action runs once: Start and End
of the first round (Today's buttons), a capture saved for it, a quiz answer marked, an
About-me edit saved, a hotkey step on the card. Each view counts its redraws (the pages'
``redraws`` counters; the card's ``follow_day`` and ``refresh_data``, the day service's
``refresh``). The target: at most one redraw per view that shows what changed, none for
a view that shows nothing of it.

Usage: ``python benchmarks/bench_redraws.py [--markdown]`` (the matrix for the README).
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(REPO))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

VIEWS = ("today", "checklist", "journal", "study", "quiz", "planner", "about", "card", "day")
ACTIONS = ("Start", "End", "capture save", "quiz mark", "About edit", "hotkey step")
#: the views that show something of each action's change (the rest must not redraw);
#: "day" is the day service computing the day once for all of them
AFFECTED = {
    "Start": {"today", "checklist", "journal", "card", "day"},
    "End": {"today", "checklist", "journal", "card", "day"},
    "capture save": {"today", "checklist", "journal", "study", "card", "day"},
    "quiz mark": {"today", "checklist", "quiz", "study"},
    "About edit": {"about", "card"},
    "hotkey step": set(),
}


class _Counted:
    """Counts calls of a few methods of the card and the day service (they keep no
    counter of their own), by wrapping them on the class before anything is built."""

    def __init__(self):
        self.calls: dict[str, int] = {}
        self._real: list[tuple] = []

    def wrap(self, cls, name: str, key: str) -> None:
        real = getattr(cls, name)
        calls = self.calls

        def counted(this, *args, **kwargs):
            calls[key] = calls.get(key, 0) + 1
            return real(this, *args, **kwargs)

        counted.__name__ = name
        self._real.append((cls, name, real))
        setattr(cls, name, counted)

    def restore(self) -> None:
        for cls, name, real in reversed(self._real):
            setattr(cls, name, real)
        self._real.clear()


def measure(folder: Path | None = None) -> dict[str, dict[str, int]]:
    """action -> view -> redraws, on a fresh data folder (``folder``, else a temporary one)."""
    from PySide6.QtWidgets import QApplication

    from companion.ui.cue.window import CueCardWindow
    from companion.ui.day.service import DayService

    app = QApplication.instance() or QApplication([])
    folder = folder or Path(tempfile.mkdtemp(prefix="bench-redraws-"))
    counted = _Counted()
    counted.wrap(CueCardWindow, "follow_day", "card")
    counted.wrap(CueCardWindow, "refresh_data", "card")
    counted.wrap(DayService, "refresh", "day")
    try:
        return _measure(app, folder, counted)
    finally:
        counted.restore()


def _measure(app, folder: Path, counted: _Counted) -> dict[str, dict[str, int]]:
    from PySide6.QtCore import QTimer

    from companion.core.context import AppContext
    from companion.core.day.loops import add_round, create_loop
    from companion.ui.about.page import AboutPage
    from companion.ui.bus import AppBus
    from companion.ui.checklist.page import ChecklistPage
    from companion.ui.cue.window import CueCardWindow
    from companion.ui.day.service import day_service
    from companion.ui.journal.capture import CaptureDialog
    from companion.ui.journal.page import JournalPage
    from companion.ui.selfcheck.page import SelfCheckPage
    from companion.ui.study.page import StudyPage
    from companion.ui.today.page import TodayPage

    now = dt.datetime.now().astimezone().replace(second=0, microsecond=0)
    ctx = AppContext(folder, clock=lambda: now)
    bus = AppBus()
    loop = create_loop(ctx.db, "Acme", "SRE", starts_on=now.date().isoformat())
    first = add_round(ctx.db, loop, "design", scheduled_at=now + dt.timedelta(minutes=10))
    add_round(ctx.db, loop, "coding", scheduled_at=now + dt.timedelta(hours=2))

    day = day_service(ctx, bus, bus, fallback=lambda t, m: None)
    day.start()

    def settle() -> None:
        for _ in range(5):
            app.processEvents()
        loop_done = []
        QTimer.singleShot(60, lambda: loop_done.append(1))
        while not loop_done:
            app.processEvents()

    today, checklist = TodayPage(ctx, bus, day=day), ChecklistPage(ctx, bus, day=day)
    journal, study = JournalPage(ctx, bus, day=day), StudyPage(ctx, bus)
    selfcheck, about = SelfCheckPage(ctx, bus), AboutPage(ctx, bus)
    for page in (today, checklist, journal, study, selfcheck, about):
        page.resize(900, 700)
        page.show()
        page.on_shown()
    selfcheck.planner.ensure_loaded()  # the planner tab, opened once
    card = CueCardWindow(ctx, bus, day)
    card.show()
    settle()
    pages = {
        "today": today,
        "checklist": checklist,
        "journal": journal,
        "study": study,
        "quiz": selfcheck.quiz,
        "planner": selfcheck.planner,
        "about": about,
    }

    def snapshot() -> dict[str, int]:
        counts = {name: page.redraws for name, page in pages.items()}
        counts.update({key: counted.calls.get(key, 0) for key in ("card", "day")})
        return counts

    def capture() -> None:
        dialog = CaptureDialog(ctx, bus, first)
        dialog.asked.entry.setText("Shard a KV cache #consistent hashing")
        dialog.save()
        dialog.deleteLater()

    def quiz_ready() -> None:  # the answer shown: what a mark follows
        selfcheck.quiz.ensure_started()
        selfcheck.quiz.reveal()

    def about_edit() -> None:
        about.editor.setPlainText(about.editor.toPlainText() + "\nOne more line.")
        about.refresh()  # the typing's own render (its debounce timer, run now)
        about.editing.save_now()

    steps = {
        "Start": lambda: today.start_round(first),
        "End": lambda: day.end_round(first),  # Today asks twice for a round this young
        "capture save": capture,
        "quiz mark": lambda: selfcheck.quiz.mark("missed"),
        "About edit": about_edit,
        "hotkey step": lambda: card.move_step(1),
    }
    table: dict[str, dict[str, int]] = {}
    prepare = {"quiz mark": quiz_ready}
    for action in ACTIONS:
        prepare.get(action, lambda: None)()
        settle()
        before = snapshot()
        steps[action]()
        settle()
        after = snapshot()
        table[action] = {view: after[view] - before[view] for view in VIEWS}
    for widget in (card, today, checklist, journal, study, selfcheck, about):
        widget.close()
        widget.deleteLater()
    day.shutdown()
    # gone now, not whenever the collector gets to them: a later setStyle() in the same
    # process would repolish every widget they hold
    from PySide6.QtCore import QCoreApplication, QEvent

    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    ctx.close()
    return table


def verdict(action: str, counts: dict[str, int]) -> bool:
    return all(n <= (1 if view in AFFECTED[action] else 0) for view, n in counts.items())


def run() -> list[dict]:
    table = measure()
    rows = []
    for action in ACTIONS:
        counts = table[action]
        shown = ", ".join(f"{v} {n}" for v, n in counts.items() if n)
        rows.append(
            {
                "figure": f"redraws on {action} ({shown or 'none'})",
                "app_value": float(max(counts.values())),
                "unit": "",
                "target": "<= 1 per affected view, 0 elsewhere",
                "met": verdict(action, counts),
            }
        )
    return rows


def markdown(table: dict[str, dict[str, int]]) -> str:
    head = "| action | " + " | ".join(VIEWS) + " | met |"
    rule = "|---|" + "---:|" * len(VIEWS) + "---|"
    lines = [head, rule]
    for action in ACTIONS:
        counts = table[action]
        cells = [f"{counts[v]}" + ("" if v in AFFECTED[action] else "·") for v in VIEWS]
        lines.append(
            f"| {action} | "
            + " | ".join(cells)
            + f" | {'yes' if verdict(action, counts) else 'NO'} |"
        )
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--markdown", action="store_true", help="print the README's matrix")
    args = parser.parse_args()
    table = measure()
    if args.markdown:
        print(markdown(table))
    else:
        width = max(map(len, ACTIONS))
        print(" " * width + "  " + " ".join(f"{v:>9}" for v in VIEWS))
        for action in ACTIONS:
            counts = table[action]
            print(
                f"{action:<{width}}  "
                + " ".join(f"{counts[v]:>9}" for v in VIEWS)
                + ("  met" if verdict(action, table[action]) else "  MISSED")
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
