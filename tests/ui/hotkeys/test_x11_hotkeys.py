"""Global hotkeys under Xvfb + openbox: an xterm has the focus, `xdotool key` sends each
hotkey, the card changes as asked and the xterm keeps the focus."""

from __future__ import annotations

import subprocess
import sys
import time

import pytest

from companion.core import hotkeys as hk

pytestmark = pytest.mark.gui


def _xdotool(keys: str) -> str:
    # xdotool names: PageDown is Next, PageUp is Prior; letters in lower case (no shift)
    combo = hk.parse_combo(keys)
    key = (
        combo.key.lower()
        if len(combo.key) == 1
        else {"PageDown": "Next", "PageUp": "Prior"}.get(combo.key, combo.key)
    )
    return "+".join([*(m for m in hk.MODIFIERS if m in combo.modifiers), key])


def press(xsession, app, keys: str) -> dict:
    xsession.key(_xdotool(keys))
    event = app.answer()
    assert xsession.active() == xsession.xterm, f"{keys} took the focus from the xterm"
    assert not event.get("card_active"), f"{keys} activated the card"
    return event


def test_each_default_hotkey_drives_the_card_while_the_xterm_keeps_the_focus(xsession, start_app):
    app = start_app()
    ready = app.wait_ready()
    assert ready["platform"] == "xcb" and ready["backend"] == "X11 key grab", ready
    assert ready["problems"] == []
    xsession.focus_xterm()
    keys = hk.DEFAULTS

    shown = press(xsession, app, keys["show-card"])
    assert shown["visible"] and shown["round"] == "design" and shown["step"] == 0
    assert not shown["recovery_open"]
    assert press(xsession, app, keys["next-step"])["step"] == 1
    assert press(xsession, app, keys["next-step"])["step"] == 2
    assert press(xsession, app, keys["previous-step"])["step"] == 1
    assert press(xsession, app, keys["glance"])["glance"] is True
    recovery = press(xsession, app, keys["recovery"])
    assert recovery["recovery_open"] and recovery["glance"] is False
    assert press(xsession, app, keys["glance"])["glance"] is True
    assert press(xsession, app, keys["glance"])["glance"] is False
    assert press(xsession, app, keys["start-end-round"])["running"] is True
    hidden = press(xsession, app, keys["show-card"])
    assert hidden["visible"] is False and hidden["running"] is True
    # NumLock on: the grab's lock variants still match
    xsession.key("Num_Lock")
    try:
        assert press(xsession, app, keys["show-card"])["visible"] is True
    finally:
        xsession.key("Num_Lock")
    assert app.quit() == 0


def test_rebinding_takes_the_new_keys_and_drops_the_old(xsession, start_app, tmp_path):
    from companion.core.prefs import Prefs

    data = tmp_path / "data"
    data.mkdir(mode=0o700)
    prefs = Prefs(data / "prefs.json")
    hk.rebind(prefs, "glance", "ctrl+alt+shift+J")
    hk.rebind(prefs, "show-card", "super+F9")
    assert prefs.save() is None
    app = start_app(data_dir=data)
    assert app.wait_ready()["problems"] == []
    xsession.focus_xterm()
    assert press(xsession, app, "super+F9")["visible"] is True
    xsession.key("ctrl+alt+g")  # the old glance key: nothing happens
    assert press(xsession, app, "ctrl+alt+shift+J")["glance"] is True  # the next event is J's
    assert app.quit() == 0


GRABBER = """
import sys
from companion.core.hotkeys import parse_combo
from companion.ui.hotkeys.x11 import XcbGrabber
grabber = XcbGrabber()
print(grabber.grab("other", parse_combo(sys.argv[1])), flush=True)
sys.stdin.read()
"""


def other_client(xsession, keys: str, root) -> subprocess.Popen:
    proc = subprocess.Popen(
        [sys.executable, "-c", GRABBER, keys],
        cwd=root,
        env=dict(xsession.env, PYTHONPATH=str(root)),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout.readline().strip() == "None", "the other client could not grab"
    return proc


def test_a_key_another_program_holds_is_reported_by_name_and_the_rest_work(xsession, start_app):
    from pathlib import Path

    root = Path(__file__).resolve().parents[3]
    other = other_client(xsession, hk.DEFAULTS["glance"], root)
    try:
        app = start_app()
        ready = app.wait_ready()
        assert ready["problems"] == ["ctrl+alt+G (glance) is already taken by another program"]
        xsession.focus_xterm()
        assert press(xsession, app, hk.DEFAULTS["show-card"])["visible"] is True
        assert app.quit() == 0
    finally:
        other.stdin.close()
        other.stdout.close()
        other.wait(5)


def test_quitting_releases_the_grabs(xsession, start_app):
    from pathlib import Path

    root = Path(__file__).resolve().parents[3]
    app = start_app()
    app.wait_ready()
    assert app.quit() == 0
    # the X server reads the app's ungrabs in its own turn: ask until another client gets
    # the key (a grab the app kept would hold it until this wait fails)
    deadline = time.monotonic() + 30
    while True:
        answer = subprocess.run(
            [sys.executable, "-c", GRABBER, hk.DEFAULTS["recovery"]], cwd=root,
            env=dict(xsession.env, PYTHONPATH=str(root)), stdin=subprocess.DEVNULL,
            capture_output=True, text=True, timeout=30, check=False,
        ).stdout.strip()  # fmt: skip
        if answer == "None":
            break
        assert time.monotonic() < deadline, f"the keys are still held after quitting: {answer}"


def _settled(app) -> None:
    """Wait until the app has handled every X event sent before now. setxkbmap returns
    after XCloseDisplay's sync, so its MappingNotify is already in the app's socket; one
    "state" answer proves a turn of the app's event loop began after that, a second that
    the turn (which read the X socket too) has ended. An event, not a sleep."""
    for _ in range(2):
        app.send("state")
        assert app.answer()["action"] == "state"


def _answer(app) -> dict:
    while True:
        event = app.answer()
        if "rebound" in event:
            return event


def test_rebinding_in_the_dialog_while_running_regrabs_and_reports_a_taken_key(xsession, start_app):
    from pathlib import Path

    root = Path(__file__).resolve().parents[3]
    app = start_app()
    assert app.wait_ready()["problems"] == []
    app.send("rebind glance ctrl+alt+shift+J")
    answer = _answer(app)
    assert answer["rebound"] is True and answer["note"] == "", answer
    assert answer["status"] == "Working through: X11 key grab."
    xsession.focus_xterm()
    xsession.key("ctrl+alt+g")  # released: the next event must come from the new key
    event = press(xsession, app, "ctrl+alt+shift+J")
    assert event["action"] == "glance" and event["glance"] is True, event
    other = other_client(xsession, "ctrl+alt+shift+K", root)
    try:
        app.send("rebind glance ctrl+alt+shift+K")
        answer = _answer(app)
        assert answer["rebound"] is False
        assert answer["note"] == "ctrl+alt+shift+K (glance) is already taken by another program"
        # the other keys still work (the card is up since the glance key: this hides it)
        assert press(xsession, app, hk.DEFAULTS["show-card"])["visible"] is False
    finally:
        other.stdin.close()
        other.stdout.close()
        other.wait(5)
    assert app.quit() == 0


def test_a_keyboard_layout_change_moves_the_grabs(xsession, start_app, tmp_path):
    import shutil

    from companion.core.prefs import Prefs

    assert shutil.which("setxkbmap"), "setxkbmap is missing (Debian: x11-xkb-utils)"
    data = tmp_path / "data"
    data.mkdir(mode=0o700)
    prefs = Prefs(data / "prefs.json")
    hk.rebind(prefs, "show-card", "ctrl+alt+Z")  # Z and Y trade places on a German keyboard
    assert prefs.save() is None
    app = start_app(data_dir=data)
    assert app.wait_ready()["problems"] == []
    xsession.focus_xterm()
    try:
        xsession.run("setxkbmap", "de")
        _settled(app)  # the app has read the MappingNotify and grabbed the new keycode
        event = press(xsession, app, "ctrl+alt+Z")
        assert event["action"] == "show-card" and event["visible"] is True
        # the stories key (ctrl+alt+Y) took Z's old keycode and Z took Y's: both still work
        assert press(xsession, app, hk.DEFAULTS["stories"])["action"] == "stories"
    finally:
        xsession.run("setxkbmap", "us")
    _settled(app)
    assert press(xsession, app, "ctrl+alt+Z")["visible"] is False  # back on the US keys
    assert press(xsession, app, hk.DEFAULTS["stories"])["action"] == "stories"
    assert app.quit() == 0


CONTENDER_LOOP = """
import select, sys
from companion.core.hotkeys import parse_combo
from companion.ui.hotkeys.x11 import XcbGrabber
grabber, combo, tries, won = XcbGrabber(), parse_combo(sys.argv[1]), 0, "never"
print("trying", flush=True)
while not select.select([sys.stdin], [], [], 0)[0]:  # until the test writes a line
    tries += 1
    if grabber.grab("contender", combo) is None:
        won = "once"
        break
print(tries, won, flush=True)
"""


def test_a_keymap_change_that_moves_none_of_our_keys_leaves_no_gap_in_the_grabs(
    xsession, start_app
):
    """Under XWayland each key an XTEST client presses comes with two mapping changes. A
    client trying to take ctrl+alt+G in a tight loop while the keymap changes 80 times
    must never get it: the app keeps its grabs while it looks the keys up again."""
    from pathlib import Path

    root = Path(__file__).resolve().parents[3]
    app = start_app()
    assert app.wait_ready()["problems"] == []
    contender = subprocess.Popen(
        [sys.executable, "-c", CONTENDER_LOOP, hk.DEFAULTS["glance"]],
        cwd=root,
        env=dict(xsession.env, PYTHONPATH=str(root)),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert contender.stdout.readline().strip() == "trying"
        xsession.focus_xterm()
        # a keysym the layout lacks: xdotool maps it onto a spare keycode and back
        xsession.run("xdotool", "key", "--delay", "0", *["U2603"] * 40, timeout=30)
        contender.stdin.write("stop\n")
        contender.stdin.flush()
        result = contender.stdout.readline().strip()
    finally:
        contender.stdin.close()
        contender.stdout.close()
        contender.wait(10)
    tries, won = result.split()
    assert won == "never", f"another client took ctrl+alt+G after {tries} tries"
    assert int(tries) > 100, result  # it did try throughout
    event = press(xsession, app, hk.DEFAULTS["glance"])
    assert event["action"] == "glance" and event["glance"] is True, event
    assert app.quit() == 0
