"""Global hotkeys on Windows and macOS, run here against stand-ins of the OS libraries
(a ``user32`` and a Carbon that record the calls and answer as the documented API does,
with WM_HOTKEY messages and Carbon events built in memory), and the portable keys inside
the app with real key presses. The stand-ins are of the OS, never of our modules."""

from __future__ import annotations

import ctypes

import pytest
from PySide6.QtCore import QByteArray, Qt
from PySide6.QtWidgets import QLineEdit

from companion.core import hotkeys as hk
from companion.core.platform import keycodes
from companion.core.preflight import proofs
from companion.ui.hotkeys.service import HotkeyService
from companion.ui.platform import mac_hotkeys, windows_hotkeys
from companion.ui.platform.inapp_hotkeys import InAppHotkeys

pytestmark = pytest.mark.gui

COMBOS = {action: hk.parse_combo(keys) for action, keys in hk.DEFAULTS.items()}


class User32:
    """RegisterHotKey/UnregisterHotKey as winuser.h documents them: nonzero on success,
    0 when another program registered the combination."""

    def __init__(self, taken=()):
        self.taken = set(taken)  # (modifiers without MOD_NOREPEAT, vk)
        self.registered: dict[int, tuple[int, int]] = {}
        self.unregistered: list[int] = []

    def RegisterHotKey(self, hwnd, number, mods, vk):  # noqa: N802 (the Win32 name)
        assert hwnd is None  # the thread's queue: WM_HOTKEY arrives with hwnd NULL
        if (mods & ~keycodes.MOD_NOREPEAT, vk) in self.taken or number in self.registered:
            return 0
        self.registered[number] = (mods, vk)
        return 1

    def UnregisterHotKey(self, hwnd, number):  # noqa: N802
        self.unregistered.append(number)
        return int(self.registered.pop(number, None) is not None)


def wm(message: int, wparam: int) -> windows_hotkeys.MSG:
    return windows_hotkeys.MSG(None, message, wparam, 0, 0, 0, 0)


def test_windows_registers_each_combination_and_reads_wm_hotkey(qapp, qtbot):
    ctrl_alt = keycodes.MOD_CONTROL | keycodes.MOD_ALT
    user32 = User32(taken={(ctrl_alt, ord("G"))})  # another program has Ctrl+Alt+G
    backend = windows_hotkeys.WindowsHotkeys(user32=user32)
    problems = backend.bind(COMBOS)
    assert problems == ["ctrl+alt+G (glance) is already taken by another program"]
    by_code = {code: n for n, code in user32.registered.items()}
    show = by_code[(keycodes.MOD_NOREPEAT | ctrl_alt, ord("C"))]
    assert (keycodes.MOD_NOREPEAT | ctrl_alt, 0x22) in by_code  # PageDown: VK_NEXT
    event_type = QByteArray(windows_hotkeys.NATIVE_MSG)
    pressed = wm(windows_hotkeys.WM_HOTKEY, show)
    with qtbot.waitSignal(backend.activated) as got:
        handled = backend._filter.nativeEventFilter(event_type, ctypes.addressof(pressed))
    assert got.args == ["show-card"] and handled == (True, 0)
    other = wm(0x0100, show)  # WM_KEYDOWN: not ours
    assert backend._filter.nativeEventFilter(event_type, ctypes.addressof(other)) == (False, 0)
    stranger = wm(windows_hotkeys.WM_HOTKEY, 999)  # an id this backend never registered
    assert backend._filter.nativeEventFilter(event_type, ctypes.addressof(stranger))[0] is False
    xcb = QByteArray(b"xcb_generic_event_t")
    assert backend._filter.nativeEventFilter(xcb, ctypes.addressof(pressed)) == (False, 0)
    backend.release()
    assert user32.registered == {} and sorted(user32.unregistered) == sorted(by_code.values())


@pytest.mark.parametrize(
    ("platform", "why"),
    [("windows", "RegisterHotKey is Windows's"), ("cocoa", "RegisterEventHotKey is macOS's")],
)
def test_a_desktops_own_hotkeys_are_off_elsewhere_and_the_keys_work_inside_the_app(
    ctx, qapp, monkeypatch, platform, why
):
    monkeypatch.delenv("COMPANION_HOTKEYS", raising=False)
    monkeypatch.delenv("COMPANION_PORTABLE", raising=False)
    service = HotkeyService(ctx.prefs, platform=platform)
    service.start()
    assert service.unavailable == (
        f"Global hotkeys are off: {why}; the keys work inside the "
        "app, while one of its windows has the focus."
    )
    assert service.backend_name == InAppHotkeys.name
    service.stop()


class Carbon:
    """The Carbon Event Manager calls the hotkeys need, as Events.h documents them."""

    TARGET = 0x7A

    def __init__(self, taken=()):
        self.taken = set(taken)  # (modifiers, key code) another program registered
        self.handler = None
        self.registered: dict[int, tuple[int, int, int, int]] = {}  # ref -> codes and id
        self.events: dict[int, tuple[int, int]] = {}  # EventRef -> (signature, id)
        self.removed: list[int] = []

    def GetApplicationEventTarget(self):  # noqa: N802 (the Carbon names)
        return self.TARGET

    def InstallEventHandler(self, target, handler, count, spec, data, out):  # noqa: N802
        kinds = ctypes.cast(spec, ctypes.POINTER(mac_hotkeys.EventTypeSpec))
        assert (target, count) == (self.TARGET, 1)
        assert (kinds[0].eventClass, kinds[0].eventKind) == (mac_hotkeys.fourcc("keyb"), 5)
        self.handler = handler
        out._obj.value = 0x51
        return 0

    def RemoveEventHandler(self, ref):  # noqa: N802
        self.removed.append(ref.value)
        return 0

    def RegisterEventHotKey(self, key, mods, hotkey_id, target, options, out):  # noqa: N802
        if (mods, key) in self.taken:
            return mac_hotkeys.HOTKEY_EXISTS
        ref = 0x1000 + len(self.registered)
        self.registered[ref] = (mods, key, hotkey_id.signature, hotkey_id.id)
        out._obj.value = ref
        return 0

    def UnregisterEventHotKey(self, ref):  # noqa: N802
        del self.registered[ref.value]
        return 0

    def GetEventParameter(self, event, name, kind, actual, size, out_size, out):  # noqa: N802
        if (name, kind) != (mac_hotkeys.fourcc("----"), mac_hotkeys.fourcc("hkid")):
            return -9870  # eventParameterNotFoundErr
        assert size == ctypes.sizeof(mac_hotkeys.EventHotKeyID)
        out._obj.signature, out._obj.id = self.events[event]
        return 0

    def press(self, event: int, signature: int, number: int) -> int:
        """Carbon dispatching a hotkey event to the handler, through its C pointer."""
        self.events[event] = (signature, number)
        return self.handler(None, event, None)


def test_macos_registers_each_combination_and_answers_the_hotkey_event(qapp, qtbot):
    cmd_option = keycodes.CMD_KEY | keycodes.OPTION_KEY  # "ctrl" is Command, as in Qt
    carbon = Carbon(taken={(cmd_option, 0x05)})  # kVK_ANSI_G
    backend = mac_hotkeys.MacHotkeys(carbon=carbon)
    problems = backend.bind(COMBOS)
    assert problems == ["ctrl+alt+G (glance) is already taken by another program"]
    by_code = {(m, k): n for m, k, sig, n in carbon.registered.values()}
    assert {sig for _m, _k, sig, _n in carbon.registered.values()} == {mac_hotkeys.SIGNATURE}
    assert (cmd_option, 0x79) in by_code  # PageDown: kVK_PageDown
    with qtbot.waitSignal(backend.activated) as got:
        status = carbon.press(0xE1, mac_hotkeys.SIGNATURE, by_code[(cmd_option, 0x08)])
    assert got.args == ["show-card"] and status == 0  # kVK_ANSI_C
    assert carbon.press(0xE2, mac_hotkeys.fourcc("othr"), 1) == mac_hotkeys.EVENT_NOT_HANDLED
    backend.release()
    assert carbon.registered == {} and carbon.removed == [0x51]


def test_inside_the_app_the_keys_drive_actions_and_the_rest_is_typed(qapp, qtbot):
    edit = QLineEdit()
    qtbot.addWidget(edit)
    edit.show()
    qtbot.waitExposed(edit)
    backend = InAppHotkeys()
    assert backend.bind(COMBOS) == []
    seen: list[str] = []
    backend.activated.connect(seen.append)
    mods = Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.AltModifier
    qtbot.keyClick(edit, Qt.Key.Key_C, mods)
    qtbot.keyClick(edit, Qt.Key.Key_PageDown, mods)
    qtbot.keyClick(edit, Qt.Key.Key_A)
    assert seen == ["show-card", "next-step"]  # once each, not once per parent widget
    assert edit.text() == "a"  # a key not bound is typed as ever
    backend.release()
    qtbot.keyClick(edit, Qt.Key.Key_C, mods)
    assert seen == ["show-card", "next-step"]


def test_the_portable_services_mean_keys_inside_the_app_with_one_line_why(
    ctx, qapp, qtbot, monkeypatch
):
    monkeypatch.setenv("COMPANION_PORTABLE", "1")
    monkeypatch.delenv("COMPANION_HOTKEYS", raising=False)
    service = HotkeyService(ctx.prefs, platform="xcb", proofs_to=lambda: ctx.settings)
    service.start()
    assert service.backend_name == InAppHotkeys.name
    assert service.unavailable.startswith("Global hotkeys are off: the portable services")
    assert ctx.settings.get(proofs.HOTKEY) is None
    window = QLineEdit()
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    mods = Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.AltModifier
    with qtbot.waitSignal(service.activated):
        qtbot.keyClick(window, Qt.Key.Key_C, mods)
    proof = ctx.settings.get(proofs.HOTKEY)  # preflight's proof that a key worked here
    assert (proof["keys"], proof["through"]) == ("ctrl+alt+C", InAppHotkeys.name)
    hk.set_enabled(ctx.prefs, False)
    service.start()
    assert service.backend is None
    hk.set_enabled(ctx.prefs, True)
    service.start()  # on again: inside the app again
    assert service.backend_name == InAppHotkeys.name
    service.stop()
