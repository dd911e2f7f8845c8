"""The card on top under Xvfb + openbox, with the real app: hidden and shown again before
openbox has handled the hide (held still here), openbox's withdrawal deletes the
_NET_WM_STATE Qt wrote for the new map and it takes the card on again not above; the
card asks for ABOVE again, and the focused window keeps the focus."""

from __future__ import annotations

import pytest
from x_state import hide_and_show_while_the_wm_is_busy

pytestmark = pytest.mark.gui


def test_the_card_is_above_again_after_a_quick_hide_and_show_under_openbox(xsession, start_app):
    app = start_app()
    assert app.wait_ready()["platform"] == "xcb"
    xsession.focus_xterm()
    app.send("show")
    winid = app.answer()["winid"]
    hide_and_show_while_the_wm_is_busy(app, xsession.env, winid, xsession.wm.pid)
    state = xsession.run("xprop", "-id", str(winid), "_NET_WM_STATE")
    assert "_NET_WM_STATE_ABOVE" in state, state
    assert xsession.active() == xsession.xterm  # the card took no focus
    assert app.quit() == 0
