"""Under GNOME's own compositor: mutter --headless on a private D-Bus session, the app
started as a user would with both WAYLAND_DISPLAY and DISPLAY set (no QT_QPA_PLATFORM).
It must pick XWayland by itself, and its card must stay above a focused X window
without taking the focus (_NET_CLIENT_LIST_STACKING, _NET_WM_STATE)."""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.gui


def _x(env, *cmd) -> str:
    result = subprocess.run(
        cmd,
        env=env,
        capture_output=True,
        text=True,
        timeout=10,
        check=False,
        stdin=subprocess.DEVNULL,
    )
    return result.stdout.strip()


@pytest.fixture
def mutter(tmp_path_factory):
    missing = [t for t in ("mutter", "Xwayland", "dbus-run-session") if not shutil.which(t)]
    if missing:
        pytest.skip(
            f"mutter cannot start: {', '.join(missing)} not installed (Debian: mutter, xwayland, dbus)"
        )
    for tool in ("xprop", "xdotool", "xterm"):
        assert shutil.which(tool), f"{tool} is missing (see .ci/run)"
    runtime = Path(tempfile_dir := tmp_path_factory.mktemp("rt"))
    runtime.chmod(0o700)
    log_path = runtime / "mutter.log"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DBUS_", "WAYLAND", "QT_"))}
    env.pop("DISPLAY", None)
    env.pop("XAUTHORITY", None)
    env["XDG_RUNTIME_DIR"] = str(runtime)
    with open(log_path, "w") as log:
        proc = subprocess.Popen(
            [
                "dbus-run-session",
                "--",
                "sh",
                "-c",
                'echo "BUS=$DBUS_SESSION_BUS_ADDRESS"; echo "PID=$$"; '
                "exec mutter --headless --wayland --virtual-monitor 1600x1000",
            ],
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=log,
            start_new_session=True,
        )
    display = bus = None
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and proc.poll() is None:
        text = log_path.read_text(errors="replace")
        found = re.search(r"Using public X11 display (:\d+)", text)
        auth = list(runtime.glob(".mutter-Xwaylandauth.*"))
        if found and auth and (runtime / "wayland-0").exists():
            display = found.group(1)
            bus = re.search(r"^BUS=(.*)$", text, re.M).group(1)
            break
        time.sleep(0.1)
    if display is None:
        text = log_path.read_text(errors="replace")
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(10)
        pytest.skip(f"mutter cannot start here: {text.strip().splitlines()[-3:]}")
    session = dict(
        env,
        WAYLAND_DISPLAY="wayland-0",
        DISPLAY=display,
        XAUTHORITY=str(auth[0]),
        DBUS_SESSION_BUS_ADDRESS=bus,
    )
    # Xwayland starts on demand: wait until an X client gets through
    deadline = time.monotonic() + 30
    while "window id" not in _x(session, "xprop", "-root", "_NET_SUPPORTING_WM_CHECK"):
        assert time.monotonic() < deadline, "Xwayland did not answer"
        time.sleep(0.2)
    yield session
    os.killpg(proc.pid, signal.SIGTERM)
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(5)
    del tempfile_dir


def _stacking(env) -> list[int]:
    text = _x(env, "xprop", "-root", "_NET_CLIENT_LIST_STACKING")
    return [int(w, 16) for w in re.findall(r"0x[0-9a-f]+", text)]


def test_the_card_stays_above_a_focused_x_window_under_mutter(mutter, spawn, tmp_path):
    data = tmp_path / "data"
    data.mkdir(mode=0o700)
    app = spawn(dict(mutter, COMPANION_HOME=str(data)))
    ready = app.wait_ready()
    assert ready["platform"] == "xcb", ready  # chose XWayland by itself
    app.send("show")
    card = app.read()
    assert card["visible"] and card["winid"], card
    winid = card["winid"]
    xterm = subprocess.Popen(
        ["xterm", "-T", "mutter-focus", "-geometry", "100x40+0+0"],
        env=mutter,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 20
        term = ""
        while not term:
            assert time.monotonic() < deadline, "the xterm did not appear"
            term = _x(mutter, "xdotool", "search", "--name", "^mutter-focus$").split("\n")[0]
            time.sleep(0.1)
        _x(mutter, "xdotool", "windowactivate", "--sync", term)
        deadline = time.monotonic() + 10
        while _x(mutter, "xdotool", "getactivewindow") != term:
            assert time.monotonic() < deadline, "the xterm did not get the focus"
            time.sleep(0.1)
        # the compositor restacks after the focus change: give it time on a busy machine
        deadline = time.monotonic() + 5
        while True:
            order = _stacking(mutter)
            above = winid in order and int(term) in order
            if above and order.index(winid) > order.index(int(term)):
                break
            assert time.monotonic() < deadline, ("the card fell behind the xterm", order, term)
            time.sleep(0.1)
        state = _x(mutter, "xprop", "-id", str(winid), "_NET_WM_STATE")
        assert "_NET_WM_STATE_ABOVE" in state and "_NET_WM_STATE_FOCUSED" not in state, state
        assert _x(mutter, "xdotool", "getactivewindow") == term
        # GNOME 43 has no GlobalShortcuts portal: the X grab under XWayland took over
        assert ready["backend"] == "X11 key grab", ready
        _x(mutter, "xdotool", "key", "--clearmodifiers", "ctrl+alt+g")
        glance = app.read()
        assert glance["action"] == "glance" and glance["glance"] is True, glance
        assert _x(mutter, "xdotool", "getactivewindow") == term
    finally:
        xterm.terminate()
        xterm.wait(10)
    assert app.quit() == 0
