"""The plan at first sight (#66): on a journal with a loop booked today, the main window's
first painted frame is Today showing the plan (the loop in the headline, the next round
in the countdown), not an empty page nor "Loading today's plan…"; a new folder's first
frame still waits for nothing of the day (tests/ui/test_first_paint_exit.py)."""

from __future__ import annotations

import textwrap

CHILD = textwrap.dedent(
    """
    import sys
    from companion.cli import main
    from companion.ui import mainwindow

    paint = mainwindow.MainWindow.paintEvent

    def first_frame(self, event):  # the window's first paint: its pages paint in this frame
        if not self._painted:
            page = self.stack.currentWidget()
            shown = page is not None and page.isVisible()
            print("page", page.objectName() if shown else "-", flush=True)
            if shown:
                print("headline", page.headline.text(), flush=True)
                print("countdown", page.countdown.text(), flush=True)
        paint(self, event)

    mainwindow.MainWindow.paintEvent = first_frame
    sys.exit(main(["--data-dir", *sys.argv[1:]]))
    """
)


def test_the_first_frame_shows_todays_plan(tmp_path):
    from app_child import journal_with_a_loop_today, run_child

    data = journal_with_a_loop_today(tmp_path)
    done = run_child(CHILD, str(data), home=tmp_path / "home", COMPANION_EXIT_ON_FIRST_PAINT="1")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert "page page-today" in lines, done.stdout + done.stderr
    assert "headline Today · Acme · SRE" in lines, done.stdout
    countdown = next(line for line in lines if line.startswith("countdown "))
    assert countdown.startswith("countdown Next: Coding"), countdown


def test_a_window_asked_to_open_elsewhere_draws_no_plan_first(tmp_path):
    """``--page journal``: the first frame never shows Today beside a rail on Journal."""
    from app_child import journal_with_a_loop_today, run_child

    data = journal_with_a_loop_today(tmp_path)
    done = run_child(
        CHILD,
        str(data),
        "--page",
        "journal",
        home=tmp_path / "home",
        COMPANION_EXIT_ON_FIRST_PAINT="1",
    )
    assert done.returncode == 0, done.stderr
    assert "page -" in done.stdout.splitlines(), done.stdout + done.stderr
