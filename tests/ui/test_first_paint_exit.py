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
    late = sorted(name for name in sys.modules if name.startswith(tuple(sys.argv[2:])))
    print("late", " ".join(late) or "-")
    sys.exit(code)
    """
)


def test_the_exit_mode_leaves_before_the_first_page_and_the_session(tmp_path):
    done = _first_frame(
        tmp_path, "companion.ui.session", "companion.ui.today", "companion.core.day"
    )
    assert "late -" in done.stdout.splitlines(), done.stdout


def test_the_first_frame_reads_the_preferences_not_the_journal_or_the_content(tmp_path):
    """The first frame gets the folder and its preferences (a LaunchContext); the whole
    context, and the store and content loader it imports, is built after it in ui/
    (Application.ctx), so none of them is loaded when the frame is on screen."""
    done = _first_frame(
        tmp_path,
        "companion.core.context",
        "companion.core.storage.store",
        "companion.core.content.loader",
        "sqlite_utils",
    )
    assert "late -" in done.stdout.splitlines(), done.stdout


def _first_frame(tmp_path, *late):
    """The app run to its first frame; it prints which of the ``late`` modules it loaded."""
    from app_child import run_child

    done = run_child(
        CHILD,
        str(tmp_path / "data"),
        *late,
        home=tmp_path / "home",
        COMPANION_EXIT_ON_FIRST_PAINT="1",
    )
    assert done.returncode == 0, done.stderr
    assert "first-paint " in done.stdout, done.stdout + done.stderr
    return done


def test_the_exit_mode_says_the_process_own_peak_memory(tmp_path):
    """benchmarks/startup.py reads the peak the app prints: the rusage its parent gets
    keeps the larger of the app's peak and the parent's own size (Linux)."""
    import sys

    import pytest

    if sys.platform != "linux":
        pytest.skip("VmHWM is read from /proc")
    done = _first_frame(tmp_path, "-")
    peaks = [int(line.split()[1]) for line in done.stdout.splitlines() if "peak-kib" in line]
    assert len(peaks) == 1 and 20 * 1024 < peaks[0] < 1024 * 1024, done.stdout
