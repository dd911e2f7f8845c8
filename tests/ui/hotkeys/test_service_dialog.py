"""The hotkey service's card actions, its backend choice, and the Hotkeys dialog
(offscreen: the grabs themselves are tested under Xvfb in test_x11_hotkeys.py)."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QKeySequence

from companion.core import hotkeys as hk
from companion.ui.hotkeys import service as service_module
from companion.ui.hotkeys.dialog import HotkeysDialog, from_qt, to_qt
from companion.ui.hotkeys.service import HotkeyService, drive_card

pytestmark = pytest.mark.gui


class StubBackend(QObject):
    """Stands in for the X server: records the binds, refuses ``taken`` keys."""

    activated = Signal(str)
    name = "stub"

    def __init__(self, parent=None, taken=()):
        super().__init__(parent)
        self.taken = set(taken)
        self.bound: dict[str, str] = {}
        self.released = False

    def bind(self, combos):
        self.bound = {a: str(c) for a, c in combos.items() if str(c) not in self.taken}
        return [
            f"{c} ({a}) is already taken by another program"
            for a, c in combos.items()
            if str(c) in self.taken
        ]

    def release(self):
        self.released = True


@pytest.fixture
def stub(monkeypatch):
    made: list[StubBackend] = []

    def factory(parent, taken=()):
        made.append(StubBackend(parent, taken))
        return made[-1]

    monkeypatch.setitem(service_module.BACKENDS, "stubplatform", factory)
    return made


@pytest.mark.qt_log_ignore("This plugin does not support")  # offscreen: no stacking, opacity
def test_drive_card_opens_steps_glances_recovers_and_hides(ctx, bus, day_service, qtbot):
    from companion.ui.cue.window import open_cue_card

    opened = []

    def open_card():
        opened.append(
            open_cue_card(ctx, bus, day_service, "design", opened[-1] if opened else None)
        )
        qtbot.addWidget(opened[-1])
        return opened[-1]

    card = drive_card("next-step", None, open_card)  # any hotkey brings the card up
    assert card.isVisible() and card.state.step("design") == 1
    assert drive_card("previous-step", card, open_card).state.step("design") == 0
    drive_card("glance", card, open_card)
    assert card.state.glance
    drive_card("recovery", card, open_card)
    block = card.pages.current().blocks["recovery"]
    assert not card.state.glance and not block.collapsed and block.body.isVisibleTo(card)
    drive_card("start-end-round", card, open_card)
    assert card.running
    drive_card("show-card", card, open_card)
    assert not card.isVisible() and len(opened) == 1
    drive_card("show-card", card, open_card)
    assert card.isVisible() and not card.isActiveWindow()


def test_service_binds_the_keys_in_force_and_forwards_activations(ctx, stub, qtbot):
    service = HotkeyService(ctx.prefs, platform="stubplatform")
    service.start()
    assert stub[0].bound == hk.DEFAULTS and service.problems == []
    with qtbot.waitSignal(service.activated) as got:
        stub[0].activated.emit("glance")
    assert got.args == ["glance"]
    hk.set_enabled(ctx.prefs, False)
    service.start()
    assert stub[0].released and service.backend is None
    service.stop()


def test_service_without_a_backend_says_why(ctx, monkeypatch):
    monkeypatch.delenv("COMPANION_HOTKEYS", raising=False)
    service = HotkeyService(ctx.prefs, platform="offscreen")
    service.start()
    assert "not available on this platform (offscreen)" in service.unavailable
    assert service.problems == []  # no notice at every start


def test_dialog_rebinds_turns_off_and_shows_conflicts(ctx, stub, qtbot, monkeypatch):
    monkeypatch.setitem(
        service_module.BACKENDS,
        "stubplatform",
        lambda parent: stub.append(StubBackend(parent, taken={"ctrl+alt+shift+J"})) or stub[-1],
    )
    service = HotkeyService(ctx.prefs, platform="stubplatform")
    service.start()
    dialog = HotkeysDialog(ctx.prefs, service)
    qtbot.addWidget(dialog)
    assert "stub" in dialog.status.text()
    assert from_qt(dialog.edits["next-step"].keySequence()) == "ctrl+alt+PageDown"
    dialog.edits["glance"].setKeySequence(QKeySequence("Ctrl+Alt+Shift+J"))
    assert dialog.save() is False  # stays open: the key is taken
    assert "already taken by another program" in dialog.notes["glance"].text()
    assert ctx.prefs.get("hotkeys")["bindings"] == {"glance": "ctrl+alt+shift+J"}
    dialog.edits["glance"].setKeySequence(QKeySequence("Ctrl+Alt+Shift+K"))
    dialog.edits["recovery"].clear()
    assert dialog.save() is True
    assert stub[-1].bound["glance"] == "ctrl+alt+shift+K" and "recovery" not in stub[-1].bound
    dialog = HotkeysDialog(ctx.prefs, service)
    qtbot.addWidget(dialog)
    dialog.edits["recovery"].setKeySequence(QKeySequence("Ctrl+Alt+C"))
    assert dialog.save() is False
    assert dialog.notes["recovery"].text() == "ctrl+alt+C is already bound to show-card"
    dialog.restore_defaults()
    dialog.enabled.setChecked(False)
    assert dialog.save() is True
    assert hk.bindings_in_force(ctx.prefs).in_force() == {}
    assert hk.bindings_in_force(ctx.prefs).keys == hk.DEFAULTS


@pytest.mark.parametrize("keys", [*hk.DEFAULTS.values(), "shift+super+F9", "alt+Space"])
def test_qt_key_sequences_round_trip(keys):
    assert from_qt(to_qt(keys)) == keys


@pytest.mark.qt_log_ignore("This plugin does not support")
def test_a_native_wayland_card_explains_the_window_rule(ctx, bus, day_service, qtbot, monkeypatch):
    from PySide6.QtGui import QGuiApplication

    from companion.ui.cue.window import CueCardWindow

    monkeypatch.setenv("XDG_CURRENT_DESKTOP", "KDE")
    monkeypatch.setattr(QGuiApplication, "platformName", staticmethod(lambda: "wayland"))
    card = CueCardWindow(ctx, bus, day_service)
    qtbot.addWidget(card)
    assert "KWin" in card.banner_text.text() and card.banner.isVisibleTo(card)


def test_the_portal_comes_first_in_a_wayland_session_even_under_xwayland(ctx):
    xcb = HotkeyService(ctx.prefs, platform="xcb")
    assert xcb.candidates({"DISPLAY": ":0"}) == ["xcb"]
    assert xcb.candidates({"WAYLAND_DISPLAY": "wayland-0", "DISPLAY": ":0"}) == ["wayland", "xcb"]
    assert xcb.candidates({"WAYLAND_DISPLAY": "w", "COMPANION_HOTKEYS": "x11"}) == ["xcb"]
    native = HotkeyService(ctx.prefs, platform="wayland")
    assert native.candidates({"WAYLAND_DISPLAY": "wayland-0"}) == ["wayland"]


def test_without_the_portal_xwayland_falls_back_to_the_x_grab_with_a_note(ctx, stub, monkeypatch):
    def no_portal(parent):
        raise RuntimeError("the desktop portal has no GlobalShortcuts")

    monkeypatch.setitem(service_module.BACKENDS, "wayland", no_portal)
    monkeypatch.setitem(service_module.BACKENDS, "xcb", lambda parent: StubBackend(parent))
    monkeypatch.setenv("WAYLAND_DISPLAY", "wayland-0")
    monkeypatch.delenv("COMPANION_HOTKEYS", raising=False)
    service = HotkeyService(ctx.prefs, platform="xcb")
    service.start()
    assert service.backend_name == "stub" and service.problems == []
    assert "no GlobalShortcuts" in service.note and "X11 window has the focus" in service.note
