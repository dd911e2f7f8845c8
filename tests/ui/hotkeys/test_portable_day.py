"""The portable path, what a Mac or Windows build meets first, run on Linux: the real app
under Xvfb + openbox with no session bus (no ``DBUS_SESSION_BUS_ADDRESS``) and the
portable services forced (``COMPANION_PORTABLE=1``: no X11 key grab, no portal, no
notification daemon, no do-not-disturb command). The day still works: its reminders are
sent through the window and recorded, the hotkeys work inside the app (and only there),
the card stays on top with Qt's own flag, End opens the capture; no traceback, and no Qt
warning (``QT_FATAL_WARNINGS=1`` would abort the app at the first)."""

from __future__ import annotations

import datetime as dt
import sys
from pathlib import Path

import pytest

from companion.core import hotkeys as hk
from companion.core.context import AppContext
from companion.core.preflight import proofs

# the default keys in xdotool's names
SHOW, NEXT, END = "ctrl+alt+c", "ctrl+alt+Next", "ctrl+alt+s"
pytestmark = pytest.mark.gui

INSIDE = (
    "Global hotkeys are off: the portable services were asked for; the keys work inside "
    "the app, while one of its windows has the focus."
)


def _day(data: Path) -> None:
    """Today's loop: a coding round running for 10 minutes (past the take-over minutes:
    one End press ends it) and a design round in 4 minutes (its reminders are due)."""
    from companion.core.context import AppContext
    from companion.core.day import loops

    ctx = AppContext(data)
    try:
        now = ctx.now()
        loop = loops.create_loop(ctx.db, "Acme", starts_on=now.date().isoformat())
        rid = loops.add_round(ctx.db, loop, "coding", scheduled_at=now - dt.timedelta(minutes=10))
        loops.update_round(ctx.db, rid, started_at=loops.get_round(ctx.db, rid).scheduled_at)
        loops.add_round(ctx.db, loop, "design", scheduled_at=now + dt.timedelta(minutes=4))
    finally:
        ctx.close()


def test_the_keys_pressed_are_the_defaults():
    assert (hk.DEFAULTS["show-card"], hk.DEFAULTS["start-end-round"]) == (
        "ctrl+alt+C",
        "ctrl+alt+S",
    )
    assert hk.DEFAULTS["next-step"] == "ctrl+alt+PageDown"


def test_the_day_runs_on_the_portable_services(xsession, spawn, harness_dir, tmp_path):
    data = tmp_path / "data"
    data.mkdir(mode=0o700)
    _day(data)
    env = dict(
        xsession.env,
        QT_QPA_PLATFORM="xcb",
        COMPANION_HOME=str(data),
        COMPANION_PORTABLE="1",
        QT_FATAL_WARNINGS="1",
    )
    env.pop("DBUS_SESSION_BUS_ADDRESS", None)
    app = spawn(
        env, [sys.executable, "-X", "faulthandler", str(harness_dir / "app_harness.py"), "coding"]
    )
    ready = app.wait_ready()
    assert ready["backend"] == "keys inside the app" and ready["unavailable"] == INSIDE, ready
    assert ready["problems"] == []

    # inside the app: the main window has the focus, the show-card key shows the card
    main = xsession.wait(
        lambda: xsession.run(
            "xdotool", "search", "--onlyvisible", "--name", "Interview Companion$"
        ),
        "the window",
    )
    xsession.run("xdotool", "windowactivate", "--sync", main.split()[0])
    xsession.key(SHOW)
    shown = app.answer()
    assert shown["action"] == "show-card" and shown["visible"] and shown["on_top_flag"], shown
    assert shown["round"] == "coding" and shown["running"], shown
    card = hex(shown["winid"])
    above = xsession.wait(
        lambda: "_NET_WM_STATE_ABOVE" in xsession.run("xprop", "-id", card, "_NET_WM_STATE"),
        "openbox to keep the card above",
    )
    assert above

    # outside the app the keys are the other program's: the card does not move
    xsession.focus_xterm()
    xsession.key(NEXT)
    app.send("state")
    assert app.answer()["step"] == shown["step"], "a key pressed in another program moved the card"

    # End, from inside the app: the capture opens
    xsession.run("xdotool", "windowactivate", "--sync", main.split()[0])
    xsession.key(END)
    ended = app.answer()
    assert ended["action"] == "start-end-round" and not ended["running"], ended
    xsession.wait(
        lambda: xsession.run("xdotool", "search", "--name", "^Write down what was asked"),
        "the capture",
    )

    app.send("reminders")
    sent = app.answer()["reminders"]
    channels = {channel for channel, _title, _body in sent}
    assert sent and channels <= {"tray", "window"}, sent  # never the session bus
    assert any("design round in" in title for _c, title, _b in sent), sent  # the next round

    assert app.quit() == 0, app.errors[-3000:]
    assert "Traceback" not in app.errors, app.errors[-3000:]
    # what preflight will say the next time: the keys and the reminders worked, and how
    saved = AppContext(data)  # in the journal
    assert saved.settings.get(proofs.HOTKEY)["through"] == "keys inside the app"
    assert saved.settings.get(proofs.NOTIFICATION)["channel"] == "window"
    saved.close()
