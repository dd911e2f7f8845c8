"""Ghost mode under Xvfb + openbox, with the real app: with an xterm beneath the card and
a second window focused, a click in the card's area focuses the xterm in ghost mode and
does not out of it; the card hotkeys still work while it is a ghost, and leaving ghost
mode gives back the managed card, on top, where it was."""

from __future__ import annotations

import re
import subprocess
import time

import pytest

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
    event = app.read()
    assert event["action"] == action, event
    return event


def _window_info(xsession, winid: int) -> str:
    return xsession.run("xwininfo", "-id", str(winid))


def _rect(info: str) -> tuple[int, int, int, int]:
    def number(name: str) -> int:
        return int(re.search(rf"{name}:\s+(-?\d+)", info).group(1))

    return (
        number("Absolute upper-left X"),
        number("Absolute upper-left Y"),
        number("Width"),
        number("Height"),
    )


def _mapped(xsession, winid: int, override: str) -> str:
    info = _window_info(xsession, winid)
    if "IsViewable" in info and f"Override Redirect State: {override}" in info:
        return info
    return ""


def _inside_both(a, b) -> tuple[int, int]:
    """The middle of the overlap of two (x, y, w, h) rects."""
    left, top = max(a[0], b[0]), max(a[1], b[1])
    right, bottom = min(a[0] + a[2], b[0] + b[2]), min(a[1] + a[3], b[1] + b[3])
    assert right - left > 20 and bottom - top > 20, ("the card does not cover the xterm", a, b)
    return (left + right) // 2, (top + bottom) // 2


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

    yield focus
    proc.terminate()
    proc.wait(10)


def _click(xsession, x: int, y: int) -> None:
    xsession.run("xdotool", "mousemove", str(x), str(y), "click", "1")


def test_a_click_goes_through_the_ghost_card_to_the_xterm_beneath(
    xsession, start_app, second_window
):
    app = start_app()
    ready = app.wait_ready()
    assert ready["backend"] == "X11 key grab", ready
    app.send("show")
    card = app.read()
    winid = card["winid"]
    info = _wait(lambda: _mapped(xsession, winid, "no"), "the card to be mapped")
    where = _rect(info)
    xterm = _rect(_window_info(xsession, int(xsession.xterm)))
    x, y = _inside_both(where, xterm)

    # out of ghost mode the card takes the click: the xterm beneath stays unfocused
    second_window()
    _click(xsession, x, y)
    time.sleep(1.0)  # a focus change would have come by now
    assert xsession.active() != xsession.xterm, "the click went through a normal card"

    ghost = _press(xsession, app, "ctrl+alt+t", "ghost")
    assert ghost["ghost"] is True and ghost["mark"] == "ghost \u00b7 Ctrl+Alt+T", ghost
    assert ghost["opacity"] == 50, ghost  # dims to the ghost opacity
    try:
        info = _wait(lambda: _mapped(xsession, ghost["winid"], "yes"), "the ghost card mapped")
    except AssertionError:
        raise AssertionError(_window_info(xsession, ghost["winid"]) + str(ghost)) from None
    assert _rect(info) == where, "the card moved when it became a ghost"
    second_window()
    _click(xsession, x, y)
    _wait(lambda: xsession.active() == xsession.xterm, "the click to reach the xterm")
    assert _mapped(xsession, ghost["winid"], "yes"), "the ghost card went away"
    assert not ghost["card_active"]

    # the card's hotkeys still work on a ghost card
    assert _press(xsession, app, "ctrl+alt+i", "opacity-down")["opacity"] == 40
    assert _press(xsession, app, "ctrl+alt+Next", "next-step")["step"] == 1

    back = _press(xsession, app, "ctrl+alt+t", "ghost")
    assert back["ghost"] is False and back["mark"] == "" and back["opacity"] == 95, back
    info = _wait(lambda: _mapped(xsession, back["winid"], "no"), "the managed card mapped")
    assert xsession.active() == xsession.xterm, "the card took the focus coming back"
    clients = xsession.run("xprop", "-root", "_NET_CLIENT_LIST")
    assert hex(back["winid"]) in clients, "the card is not managed again"
    state = xsession.run("xprop", "-id", str(back["winid"]), "_NET_WM_STATE")
    assert "_NET_WM_STATE_ABOVE" in state, state
    assert _rect(info) == where, "the card did not come back where it was"
    second_window()
    _click(xsession, x, y)
    time.sleep(1.0)
    assert xsession.active() != xsession.xterm, "the click went through after ghost mode"
    assert app.quit() == 0
    assert "Traceback" not in app.errors, app.errors[-3000:]
