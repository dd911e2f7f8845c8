"""The preflight window: the checks on one screen, a Close button for a real process
named like a program that pings (closed only after a yes), opened from Today before a
round and by its hotkey."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from named_process import named_process, record_signals

from companion.core.day.loops import add_round, create_loop
from companion.ui.preflight import window as preflight

pytestmark = [
    pytest.mark.gui,
    pytest.mark.qt_log_ignore("PulseAudioService", "This plugin does not support"),
]
TZ = dt.timezone(dt.timedelta(hours=1))


@pytest.fixture(autouse=True)
def _audio_server(session_server, monkeypatch):
    """The window lists the mics: Qt's audio backend connects once per process, so a
    first use with no server would leave every later voice test in this worker without
    its virtual microphone (tests/ui/conftest.py session_server)."""
    monkeypatch.setenv("PULSE_SERVER", f"unix:{session_server.runtime}/pulse/native")


@pytest.fixture
def discord(tmp_path):
    """A real process whose name is `discord`."""
    with named_process(tmp_path, "discord") as proc:
        yield proc


@pytest.fixture
def before_round(ctx, clock):
    clock.set(dt.datetime(2026, 12, 2, 9, 50, tzinfo=TZ))
    loop = create_loop(ctx.db, "Acme", "SRE", starts_on="2026-12-02")
    add_round(ctx.db, loop, "coding", scheduled_at=dt.datetime(2026, 12, 2, 10, 0, tzinfo=TZ))


def _answer(qtbot, win, button, reply):
    """Click ``button`` and answer the question it opens (a real, window-modal box)."""
    from PySide6.QtWidgets import QMessageBox

    button.click()
    qtbot.waitUntil(lambda: bool(win.findChildren(QMessageBox)), timeout=10000)
    (box,) = [b for b in win.findChildren(QMessageBox) if b.isVisible()]
    box.button(reply).click()
    qtbot.waitUntil(lambda: not box.isVisible(), timeout=10000)


def test_a_pinger_is_closed_only_after_a_yes(qtbot, ctx, bus, before_round, discord, monkeypatch):
    from PySide6.QtWidgets import QMessageBox

    win = preflight.PreflightWindow(ctx, bus, power_bus="SESSION", listen=False)
    qtbot.addWidget(win)
    ids = [c.id for c in win.checks]
    assert ids == ["mic", "camera", "do-not-disturb", "pingers", "power", "link", "screen-share"]
    assert "coding" in win.round_label.text() and "10:00" in win.round_label.text()
    button = win.close_buttons[discord.pid]
    assert button.text() == "Close Discord…"
    sent = record_signals(monkeypatch)
    _answer(qtbot, win, button, QMessageBox.StandardButton.No)
    assert sent == [] and discord.poll() is None and button.isEnabled()
    _answer(qtbot, win, button, QMessageBox.StandardButton.Yes)
    assert sent == [(discord.pid, 15)]
    assert discord.wait(5) == -15
    assert not button.isEnabled() and "asked to quit" in button.text()


def test_today_before_the_round_and_the_hotkey_open_it(
    qtbot, main_window, open_page, ctx, bus, before_round, monkeypatch
):
    opened = []
    real = preflight.open_preflight
    monkeypatch.setattr(
        preflight, "open_preflight", lambda *a: opened.append(real(*a)) or opened[-1]
    )
    win = main_window()
    today = open_page(win, "today")
    from PySide6.QtWidgets import QPushButton

    button = next(b for b in today.findChildren(QPushButton) if b.text() == "Pre&flight")
    button.click()
    qtbot.waitUntil(lambda: bool(opened) and opened[-1].isVisible())
    first = opened[-1]
    _screenshot(first, "preflight.png")
    from companion.ui.session import Session

    session = next(iter(bus.findChildren(Session)), None) or Session(ctx, bus, window=win)
    session.on_hotkey("preflight")
    assert opened[-1] is first  # the one window, raised again
    first.close()
    session.on_hotkey("preflight")
    assert opened[-1] is not first and opened[-1].isVisible()
    opened[-1].close()


def _screenshot(widget, name: str) -> None:
    import os

    folder = os.environ.get("COMPANION_SHOTS")
    if folder:
        widget.grab().save(str(Path(folder) / name))


def test_the_cards_menu_opens_it(qtbot, ctx, bus, day_service, before_round, monkeypatch):
    from companion.ui.cue.window import CueCardWindow

    opened = []
    monkeypatch.setattr(preflight, "open_preflight", lambda *a: opened.append(a))
    card = CueCardWindow(ctx, bus, day_service)
    qtbot.addWidget(card)
    action = next(a for a in card.menu.actions() if a.text() == "Pre&flight\u2026")
    action.trigger()
    assert opened and opened[0][2] is card


def test_the_mic_check_offers_another_input_from_a_list(qtbot, ctx, bus, before_round, monkeypatch):
    """'pick another from a list': the window lists the inputs; a pick is named by the check."""
    from companion.ui.voice import listener

    two = [("mic-a", "Built-in mic", True), ("mic-b", "USB headset", False)]
    monkeypatch.setattr(listener, "input_devices", lambda: two)  # the audio server's answer
    win = preflight.PreflightWindow(ctx, bus, listen=False)
    qtbot.addWidget(win)
    items = [win.inputs.itemText(i) for i in range(win.inputs.count())]
    assert items == ["Built-in mic (default)", "USB headset"] and win.inputs.isEnabled()
    mic = next(c for c in win.checks if c.id == "mic")
    assert mic.say.startswith("Input: Built-in mic; 1 other input(s) to pick from")
    win.pick_input("mic-b")
    mic = next(c for c in win.checks if c.id == "mic")
    assert mic.say.startswith("Input: USB headset;") and win.chosen_input() == "mic-b"
