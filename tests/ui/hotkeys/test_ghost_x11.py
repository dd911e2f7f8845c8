"""Ghost mode under Xvfb + openbox, with the real app: with a window beneath the card
(xev, counting the presses it gets) and a second window focused, a click in the card's
area reaches the window beneath, and focuses it, in ghost mode and does not out of it;
the card hotkeys still work while it is a ghost, and leaving ghost mode gives back the
managed card, on top, where it was."""

from __future__ import annotations

import subprocess
import time

import pytest
from x_clicks import ButtonCounter, bare_point, window_rect

pytestmark = pytest.mark.gui


def _wait(check, what: str, timeout: float = 15.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


def _press(xsession, app, keys: str, action: str) -> dict:
    xsession.key(keys)
    event = app.answer()
    assert event["action"] == action, event
    return event


def _window_info(xsession, winid: int) -> str:
    return xsession.run("xwininfo", "-id", str(winid))


def _mapped(xsession, winid: int, override: str) -> str:
    info = _window_info(xsession, winid)
    if "IsViewable" in info and f"Override Redirect State: {override}" in info:
        return info
    return ""


@pytest.fixture
def second_window(xsession):
    """A second xterm, away from the card: it has the focus before each click."""
    proc = subprocess.Popen(
        ["xterm", "-T", "ghost-second", "-geometry", "30x5+0+0"],
        env=xsession.env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    wid = _wait(
        lambda: xsession.run("xdotool", "search", "--name", "^ghost-second$").split("\n")[0],
        "the second window",
    )

    def focus() -> None:
        xsession.run("xdotool", "windowactivate", "--sync", wid)
        _wait(lambda: xsession.active() == wid, "the second window to have the focus")

    focus.wid = wid
    yield focus
    proc.terminate()
    proc.wait(10)


def _click(xsession, x: int, y: int) -> None:
    xsession.run("xdotool", "mousemove", str(x), str(y), "click", "1")


def test_a_click_goes_through_the_ghost_card_to_the_window_beneath(
    xsession, start_app, second_window
):
    app = start_app()
    ready = app.wait_ready()
    assert ready["backend"] == "X11 key grab", ready
    app.send("show")
    card = app.answer()
    winid = card["winid"]
    info = _wait(lambda: _mapped(xsession, winid, "no"), "the card to be mapped")
    where = window_rect(info)
    x, y = where[0] + where[2] // 2, where[1] + where[3] // 2
    beneath = ButtonCounter(xsession.env, "1280x800+0+0")
    try:
        xev = _wait(
            lambda: xsession.run("xdotool", "search", "--name", "^ghost-beneath$"), "xev"
        ).split("\n")[0]
        # a marker click where the window beneath is bare: once its press is in, a press
        # from the click on the card before it would be in too (xev gets them in order)
        second = window_rect(_window_info(xsession, int(second_window.wid)))
        marker = bare_point((1280, 800), where, second)

        def went_through() -> list:
            second_window()
            since = len(beneath.presses)
            _click(xsession, x, y)
            _click(xsession, *marker)
            return beneath.before_marker(since, marker)

        # out of ghost mode the card takes the click
        assert went_through() == [], "the click went through a normal card"

        ghost = _press(xsession, app, "ctrl+alt+t", "ghost")
        assert ghost["ghost"] is True and ghost["mark"] == "ghost \u00b7 Ctrl+Alt+T", ghost
        assert ghost["opacity"] == 50, ghost  # dims to the ghost opacity
        try:
            info = _wait(lambda: _mapped(xsession, ghost["winid"], "yes"), "the ghost mapped")
        except AssertionError:
            raise AssertionError(_window_info(xsession, ghost["winid"]) + str(ghost)) from None
        assert window_rect(info) == where, "the card moved when it became a ghost"
        assert went_through() == [(x, y)], "the click missed the window beneath"
        second_window()
        _click(xsession, x, y)
        _wait(lambda: xsession.active() == xev, "the click to focus the window beneath")
        assert _mapped(xsession, ghost["winid"], "yes"), "the ghost card went away"
        assert not ghost["card_active"]

        # the card's hotkeys still work on a ghost card
        assert _press(xsession, app, "ctrl+alt+i", "opacity-down")["opacity"] == 40
        assert _press(xsession, app, "ctrl+alt+Next", "next-step")["step"] == 1

        back = _press(xsession, app, "ctrl+alt+t", "ghost")
        assert back["ghost"] is False and back["mark"] == "" and back["opacity"] == 95, back
        info = _wait(lambda: _mapped(xsession, back["winid"], "no"), "the managed card mapped")
        assert xsession.active() == xev, "the card took the focus coming back"
        clients = xsession.run("xprop", "-root", "_NET_CLIENT_LIST")
        assert hex(back["winid"]) in clients, "the card is not managed again"
        _wait(
            lambda: (
                "_NET_WM_STATE_ABOVE"
                in xsession.run("xprop", "-id", str(back["winid"]), "_NET_WM_STATE")
            ),
            "the managed card's _NET_WM_STATE_ABOVE",
        )
        assert window_rect(info) == where, "the card did not come back where it was"
        assert went_through() == [], "the click went through after ghost mode"
    finally:
        beneath.stop()
    assert app.quit() == 0
    assert "Traceback" not in app.errors, app.errors[-3000:]
