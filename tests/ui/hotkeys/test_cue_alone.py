"""`companion cue` on its own (no main window) has the global hotkeys and the day
service: under Xvfb + openbox the card's keys are grabbed, so Ctrl+Alt+PageDown moves
the card's step instead of typing "7~" into the focused xterm."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from companion.core import hotkeys as hk

pytestmark = pytest.mark.gui

ROOT = Path(__file__).resolve().parents[3]
GRAB = """
import sys
from companion.core.hotkeys import parse_combo
from companion.ui.hotkeys.x11 import XcbGrabber
print(XcbGrabber().grab("other", parse_combo(sys.argv[1])), flush=True)
"""


def _wait(check, what: str, timeout: float = 30.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}")


def _start_card(env, round_type: str) -> subprocess.Popen:
    # -X faulthandler: on a hang, SIGABRT makes it print where each thread was
    return subprocess.Popen(
        [sys.executable, "-X", "faulthandler", "-m", "companion", "cue", "--round", round_type],
        cwd=ROOT, env=env, stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip


def _stop_card(card: subprocess.Popen, failed: bool) -> str:
    """Stop the card; its stderr. After a failed wait, a card still running is aborted
    instead, so that the stderr holds its threads' stacks."""
    running = card.poll() is None
    card.send_signal(signal.SIGABRT if failed and running else signal.SIGTERM)
    _out, err = card.communicate(timeout=20)
    if failed:
        state = "was still running" if running else f"had ended with {card.returncode}"
        print(f"the card {state}; its stderr:\n{err[-6000:]}", file=sys.stderr)
    return err


def _grabbed(env, keys: str) -> bool:
    """Whether another client is refused ``keys`` (the card holds them)."""
    answer = subprocess.run(
        [sys.executable, "-c", GRAB, keys], cwd=ROOT, env=env,
        capture_output=True, text=True, timeout=30, check=False,
    ).stdout.strip()  # fmt: skip
    return "taken" in answer or "another" in answer


def test_companion_cue_alone_grabs_the_hotkeys_and_follows_the_day(xsession, tmp_path):
    from companion.core.context import AppContext
    from companion.core.cue.state import load_state

    data = tmp_path / "data"
    data.mkdir(mode=0o700)
    env = dict(xsession.env, QT_QPA_PLATFORM="xcb", COMPANION_HOME=str(data), PYTHONPATH=str(ROOT))
    card = _start_card(env, "design")
    failed = True
    try:
        _wait(lambda: xsession.run("xdotool", "search", "--name", "^Cue card$"), "the card")
        assert _grabbed(env, hk.DEFAULTS["next-step"]), "the card alone did not grab its keys"
        xsession.focus_xterm()
        xsession.key("ctrl+alt+Next")
        ctx = AppContext(data)
        try:  # the card saves its step 0.4 s after the change
            _wait(lambda: load_state(ctx.settings).step("design") == 1, "the step to move", 15)
        finally:
            ctx.close()
        assert xsession.active() == xsession.xterm, "the hotkey took the focus"
        failed = False
    finally:
        err = _stop_card(card, failed)
    assert "Traceback" not in err, err[-3000:]


def _running_since(data: Path, round_type: str, minutes: int) -> None:
    """A round of ``round_type`` in today's loop, started ``minutes`` ago (past the
    pack's take-over minutes: one End press ends it, no second press, no settle time)."""
    import datetime as dt

    from companion.core.context import AppContext
    from companion.core.day import loops

    ctx = AppContext(data)
    try:
        now = ctx.now()
        loop = loops.create_loop(ctx.db, "Acme", starts_on=now.date().isoformat())
        began = now - dt.timedelta(minutes=minutes)
        rid = loops.add_round(ctx.db, loop, round_type, scheduled_at=began)
        loops.update_round(ctx.db, rid, started_at=loops.get_round(ctx.db, rid).scheduled_at)
    finally:
        ctx.close()


def test_closing_the_capture_leaves_the_card_alone_running(xsession, tmp_path):
    """The card is a tool window Qt does not count: closing the capture (the last
    "real" window) used to quit `companion cue` and take the card with it."""
    from companion.core.context import AppContext
    from companion.core.cue.state import load_state

    data = tmp_path / "data2"
    data.mkdir(mode=0o700)
    _running_since(data, "coding", 10)
    env = dict(xsession.env, QT_QPA_PLATFORM="xcb", COMPANION_HOME=str(data), PYTHONPATH=str(ROOT))
    card = _start_card(env, "coding")
    failed = True
    try:
        _wait(lambda: xsession.run("xdotool", "search", "--name", "^Cue card$"), "the card")
        _wait(lambda: _grabbed(env, hk.DEFAULTS["start-end-round"]), "the hotkeys")
        xsession.focus_xterm()
        xsession.key("ctrl+alt+s")  # End: the capture opens, focused
        capture = _wait(
            lambda: xsession.run("xdotool", "search", "--name", "^Write down what was asked"),
            "the capture",
        )
        _wait(lambda: xsession.active() == capture.split()[0], "the capture to have the focus")
        xsession.key("Escape")
        _wait(
            lambda: not xsession.run("xdotool", "search", "--name", "^Write down what was asked"),
            "the capture to close",
        )
        # an event after the close: a card that quit on it would never move its step
        xsession.key("ctrl+alt+Next")
        ctx = AppContext(data)
        try:  # the card saves its step 0.4 s after the change
            _wait(lambda: load_state(ctx.settings).step("coding") == 1, "the step to move", 15)
        finally:
            ctx.close()
        assert card.poll() is None, "closing the capture quit the card"
        assert xsession.run("xdotool", "search", "--name", "^Cue card$")
        failed = False
    finally:
        err = _stop_card(card, failed)
    assert "Traceback" not in err, err[-3000:]
