"""The portal path against a stand-in GlobalShortcuts service (portal_standin.py, a
GDBus service like the real portal) on a private session bus from dbus-run-session:
the app creates a session, binds its shortcuts, and acts on Activated."""

from __future__ import annotations

import os
import shutil
import subprocess

import pytest

from companion import APP_ID
from companion.core import hotkeys as hk

pytestmark = pytest.mark.gui
SYSTEM_PYTHON = "/usr/bin/python3"


def _has_gi() -> bool:
    if not os.path.exists(SYSTEM_PYTHON):
        return False
    probe = subprocess.run(
        [SYSTEM_PYTHON, "-c", "from gi.repository import Gio"],
        capture_output=True,
        check=False,
        stdin=subprocess.DEVNULL,
    )
    return probe.returncode == 0


@pytest.fixture
def portal(spawn, harness_dir):
    if shutil.which("dbus-run-session") is None:
        pytest.skip("dbus-run-session is not installed (Debian: dbus)")
    assert _has_gi(), "the stand-in portal needs PyGObject (Debian: python3-gi, see .ci/run)"
    env = {k: v for k, v in os.environ.items() if not k.startswith("DBUS_")}
    standin = spawn(
        env, ["dbus-run-session", "--", SYSTEM_PYTHON, str(harness_dir / "portal_standin.py")]
    )
    ready = standin.read(20)
    assert ready.get("ready") and ready["address"], ready
    standin.address = ready["address"]
    return standin


@pytest.fixture
def portal_app(portal, spawn, tmp_path):
    def start():
        data = tmp_path / "data"
        data.mkdir(mode=0o700, exist_ok=True)
        env = dict(
            os.environ,
            DBUS_SESSION_BUS_ADDRESS=portal.address,
            QT_QPA_PLATFORM="offscreen",
            COMPANION_HOTKEYS="portal",
            COMPANION_HOME=str(data),
        )
        return spawn(env)

    return start


def _next(proc, key):
    while True:
        event = proc.read()
        if key in event:
            return event


def test_the_app_binds_its_shortcuts_and_acts_on_activated(portal, portal_app):
    app = portal_app()
    ready = app.wait_ready()
    assert ready["backend"] == "desktop portal (GlobalShortcuts)", ready
    assert ready["problems"] == []
    assert _next(portal, "registered")["registered"] == APP_ID  # before the session
    session = _next(portal, "session")["session"]
    bound = _next(portal, "bound")["bound"]
    assert [b[0] for b in bound] == list(hk.ACTION_NAMES)
    assert ["glance", "Glance mode on or off", "CTRL+ALT+g"] in bound
    assert ["next-step", "Next design step", "CTRL+ALT+Next"] in bound

    def activate(action: str) -> dict:
        portal.send(f"activate {action}")
        return _next(app, "action")

    shown = activate("show-card")
    assert shown["action"] == "show-card" and shown["visible"] and shown["round"] == "design"
    assert not shown["recovery_open"]
    assert activate("next-step")["step"] == 1
    assert activate("previous-step")["step"] == 0
    assert activate("glance")["glance"] is True
    assert activate("recovery")["recovery_open"] is True
    assert activate("start-end-round")["running"] is True
    assert activate("show-card")["visible"] is False
    assert app.quit() == 0, app.errors[-2000:]
    try:
        closed = _next(portal, "closed")["closed"]
    except AssertionError:
        pytest.fail(
            f"the app did not close its portal session: {app.errors[-3000:]} {portal.errors}"
        )
    assert closed == session  # the session ends with the app


def test_a_refusal_in_the_approval_dialog_is_reported(portal, portal_app):
    portal.send("deny")
    app = portal_app()
    app.wait_ready()
    _next(portal, "denied")
    while True:
        status = app.wait_ready()
        if status["problems"]:
            break
    assert status["problems"] == [
        "You did not approve the hotkeys in the desktop's dialog; open Global hotkeys to ask again."
    ]
