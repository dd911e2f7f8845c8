"""The start-up benchmark's exit mode to the plan (COMPANION_EXIT_ON_PLAN_DRAWN): the app
reports its first paint, then "plan-drawn" once a frame of Today that shows the day's plan
has been painted, never a frame of Today without it (a loading line or an empty page)."""

from __future__ import annotations

import textwrap

CHILD = textwrap.dedent(
    """
    import sys
    from PySide6.QtWidgets import QLabel
    from companion.cli import main
    from companion.ui import app as app_module

    said = app_module.PlanDrawn._report

    def report(self):  # what the page shows at the moment the plan is reported drawn
        texts = [label.text() for label in self._page.findChildren(QLabel)]
        print("countdown", self._page.countdown.text(), flush=True)
        print("company shown", any("Acme" in text for text in texts), flush=True)
        said(self)

    app_module.PlanDrawn._report = report
    sys.exit(main(["--data-dir", sys.argv[1]]))
    """
)


def test_the_plan_exit_mode_reports_the_frame_that_shows_the_plan(tmp_path):
    from app_child import journal_with_a_loop_today, run_child

    data = journal_with_a_loop_today(tmp_path)
    done = run_child(CHILD, str(data), home=tmp_path / "home", COMPANION_EXIT_ON_PLAN_DRAWN="1")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    said = [line.split()[0] for line in lines if line.startswith(("first-paint", "plan-drawn"))]
    assert said == ["first-paint", "plan-drawn"], done.stdout + done.stderr
    assert "company shown True" in lines, done.stdout
    countdown = next(line for line in lines if line.startswith("countdown "))
    assert "Loading" not in countdown, countdown
