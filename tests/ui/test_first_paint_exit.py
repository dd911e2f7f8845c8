"""The start-up benchmark's exit mode (COMPANION_EXIT_ON_FIRST_PAINT) measures the first
frame and nothing after it: the window's own post-paint timers fired in the same turn as
the exit and built the first page and the session, 81 modules and 7.5 MiB of the peak
memory that benchmarks/startup.py reported as start-up."""

from __future__ import annotations

import textwrap

CHILD = textwrap.dedent(
    """
    import sys
    from companion.cli import main

    code = main(["--data-dir", sys.argv[1]])
    late = sorted(
        name for name in sys.modules
        if name.startswith(("companion.ui.session", "companion.ui.today", "companion.core.day"))
    )
    print("late", " ".join(late) or "-")
    sys.exit(code)
    """
)


def test_the_exit_mode_leaves_before_the_first_page_and_the_session(tmp_path):
    from app_child import run_child

    done = run_child(
        CHILD, str(tmp_path / "data"), home=tmp_path / "home", COMPANION_EXIT_ON_FIRST_PAINT="1"
    )
    assert done.returncode == 0, done.stderr
    assert "first-paint " in done.stdout, done.stdout + done.stderr
    assert "late -" in done.stdout.splitlines(), done.stdout
