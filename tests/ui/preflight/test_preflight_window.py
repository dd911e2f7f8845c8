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


def test_a_pinger_is_closed_only_after_a_yes(
    qtbot, ctx, bus, day_service, before_round, discord, monkeypatch
):
    from PySide6.QtWidgets import QMessageBox

    win = preflight.PreflightWindow(ctx, bus, day_service.dnd, power_bus="SESSION", listen=False)
    qtbot.addWidget(win)
    ids = [c.id for c in win.checks]
    assert ids == [
        "mic", "camera", "do-not-disturb", "hotkeys", "notification", "pingers", "power",
        "link", "screen-share",
    ]  # fmt: skip
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
    # once it has quit, the check says so (it kept saying "Running: Discord")
    qtbot.waitUntil(lambda: next(c for c in win.checks if c.id == "pingers").ok, timeout=10000)
    assert discord.pid not in win.close_buttons


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
    import companion.ui.cue.window as card_module
    from companion.ui.cue.window import CueCardWindow

    opened = []
    monkeypatch.setattr(card_module, "open_preflight", lambda *a: opened.append(a))
    card = CueCardWindow(ctx, bus, day_service)
    qtbot.addWidget(card)
    action = next(a for a in card.menu.actions() if a.text() == "Pre&flight\u2026")
    action.trigger()
    assert opened and opened[0][2:] == (day_service.dnd, card)  # the session's model


def test_the_mic_check_offers_another_input_from_a_list(
    qtbot, ctx, bus, day_service, before_round, monkeypatch
):
    """'pick another from a list': the window lists the inputs; a pick is named by the check."""
    two = [("mic-a", "Built-in mic", True), ("mic-b", "USB headset", False)]
    monkeypatch.setattr(preflight, "input_devices", lambda: two)  # the audio server's answer
    win = preflight.PreflightWindow(ctx, bus, day_service.dnd, listen=False)
    qtbot.addWidget(win)
    items = [win.inputs.itemText(i) for i in range(win.inputs.count())]
    assert items == ["Built-in mic (default)", "USB headset"] and win.inputs.isEnabled()
    mic = next(c for c in win.checks if c.id == "mic")
    assert mic.say.startswith("Input: Built-in mic; 1 other input to pick from")
    win.pick_input("mic-b")
    mic = next(c for c in win.checks if c.id == "mic")
    assert mic.say.startswith("Input: USB headset;") and win.chosen_input() == "mic-b"


def test_no_empty_band_above_the_round(qtbot, ctx, bus, day_service, before_round):
    """The window's spare height goes below the checks, not around the first line (at
    100 % an empty band stood above "Next round")."""
    win = preflight.PreflightWindow(ctx, bus, day_service.dnd, power_bus="SESSION", listen=False)
    qtbot.addWidget(win)
    win.show()
    qtbot.waitExposed(win)
    win.resize(win.width() + 300, win.height() + 200)  # a tall window: the spare height
    qtbot.waitUntil(lambda: win.height() >= 400)
    label = win.round_label
    need = label.heightForWidth(label.width())
    margin = win.layout().contentsMargins().top()
    assert label.y() <= margin + 2 and label.height() <= need + 2, (label.geometry(), need)
    for say in [*win.grid_host.findChildren(preflight.QLabel), win.dnd_switch.status]:
        assert say.height() <= say.heightForWidth(say.width()) + 4, say.text()


def test_the_level_bar_says_what_it_hears(qtbot, ctx, bus, day_service, before_round, monkeypatch):
    """Muted, quiet, or the level, and whether speech was heard, in the bar itself (a bar
    with no value showed no text)."""
    import math
    from array import array

    from fed_mic import FedMic

    made = []
    monkeypatch.setattr(
        preflight, "MicListener", lambda parent, **kw: made.append(FedMic(parent, **kw)) or made[-1]
    )
    win = preflight.PreflightWindow(ctx, bus, day_service.dnd, power_bus="SESSION")
    qtbot.addWidget(win)
    win.show()
    qtbot.waitUntil(lambda: bool(made))
    assert win.meter.text() == "level: the microphone opens with the window"
    (mic,) = made
    mic.feed(array("h", bytes(3200)))
    assert win.meter.text().startswith("muted: no sound at all")
    mic.feed(array("h", ((i * 7919) % 41 - 20 for i in range(1600))))
    assert win.meter.text().startswith("quiet (peak")
    mic.feed(array("h", (16000 if i % 20 < 10 else -16000 for i in range(1600))))
    assert win.meter.text() == "level: peak -6 dBFS; no speech heard yet"
    tone = array("h", (int(8000 * math.sin(i / 16000 * 2 * math.pi * 220)) for i in range(16000)))
    mic.feed(tone)  # a second of a steady voice: the detector hears speech
    assert win.meter.text().endswith("; speech heard"), win.meter.text()


def test_the_level_bar_says_why_no_mic_opened(qtbot, ctx, bus, day_service, before_round):
    """A listed input gone when the window opens (unplugged): the real listener fails,
    and the bar says so instead of staying blank."""
    win = preflight.PreflightWindow(ctx, bus, day_service.dnd, power_bus="SESSION", listen=False)
    qtbot.addWidget(win)
    win.inputs.addItem("USB headset", "no-such-input")
    win.inputs.setCurrentIndex(win.inputs.count() - 1)
    win._start_listening()
    assert win._meter_listener is None
    assert win.meter.text() == "no level: no input device matches 'no-such-input'", win.meter.text()


def test_the_do_not_disturb_check_follows_its_switch(qtbot, ctx, bus, before_round, clock):
    """The switch in the window pauses notifications, and the check says so at once."""
    from desktop_standins import FakeGsettings

    from companion.core.dnd.adapters import GnomeAdapter
    from companion.core.dnd.controller import DndController
    from companion.core.dnd.record import record_path
    from companion.ui.dnd.switch import DndModel

    desk = FakeGsettings()
    controller = DndController(GnomeAdapter(desk), record_path(ctx.data_dir), clock=clock)
    model = DndModel(ctx, bus, controller=controller)
    win = preflight.PreflightWindow(ctx, bus, model, power_bus="SESSION", listen=False)
    qtbot.addWidget(win)
    check = next(c for c in win.checks if c.id == "do-not-disturb")
    assert check.ok is False and "turn do-not-disturb on" in check.say
    win.dnd_switch.box.click()
    assert desk.banners is False
    check = next(c for c in win.checks if c.id == "do-not-disturb")
    assert check.ok is True and check.say == "Notifications are paused."
    texts = [w.text() for w in win.grid_host.findChildren(preflight.QLabel)]
    assert "Notifications are paused." in texts


def test_it_opens_as_tall_as_its_checks(qtbot, ctx, bus, day_service, before_round):
    """No spare band under the checks when it opens (it kept the height its lines
    needed at the narrower width it had before it was shown)."""
    win = preflight.PreflightWindow(ctx, bus, day_service.dnd, power_bus="SESSION", listen=False)
    qtbot.addWidget(win)
    win.show()
    qtbot.waitExposed(win)
    need = win.layout().totalHeightForWidth(win.width())
    assert win.height() <= need + 2, (win.size(), need)
