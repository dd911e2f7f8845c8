"""The card over full-screen Spaces on macOS, against a stand-in Objective-C runtime
whose ``objc_msgSend`` is a real C function pointer (called with each signature, as the
one trampoline is on a Mac); the Windows app id against a stand-in shell32; and the
notifications' portable path (no session bus asked on macOS, Windows, or when forced)."""

from __future__ import annotations

import ctypes
import sys

import pytest

from companion.core.preflight import proofs
from companion.ui.day.notifier import DbusNotifications, Notifier
from companion.ui.platform import mac_window
from companion.ui.platform.windows_app_id import set_app_user_model_id

VIEW, WINDOW = 0x5000, 0x6000
SEND = ctypes.CFUNCTYPE(ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_ulong)


class LibObjC:
    """sel_registerName and objc_msgSend: an NSView with (or without) its NSWindow."""

    def __init__(self, behaviour: int, window: int | None = WINDOW):
        self.behaviour, self.window = behaviour, window
        self.selectors: dict[int, str] = {}
        self.sent: list[tuple[int, str]] = []
        self.objc_msgSend = SEND(self._send)  # noqa: N815 (the runtime's name)

    def sel_registerName(self, name: bytes) -> int:  # noqa: N802
        number = 0x100 + len(self.selectors)
        self.selectors.setdefault(number, name.decode())
        return next(n for n, s in self.selectors.items() if s == name.decode())

    def _send(self, receiver, selector, value):
        name = self.selectors[selector]
        self.sent.append((receiver, name))
        if (receiver, name) == (VIEW, "window"):
            return self.window
        if (receiver, name) == (WINDOW, "collectionBehavior"):
            return self.behaviour
        if (receiver, name) == (WINDOW, "setCollectionBehavior:"):
            self.behaviour = value
            return None
        raise AssertionError(f"unexpected message {name} to {receiver:#x}")


def test_the_card_joins_full_screen_spaces_and_keeps_its_other_behaviour():
    managed = 1 << 2  # NSWindowCollectionBehaviorManaged, kept
    lib = LibObjC(behaviour=managed | mac_window.MOVE_TO_ACTIVE_SPACE)
    assert mac_window.join_full_screen_spaces(VIEW, mac_window.ObjC(lib))
    assert lib.behaviour == (
        managed | mac_window.CAN_JOIN_ALL_SPACES | mac_window.FULL_SCREEN_AUXILIARY
    )
    lib.sent.clear()
    assert mac_window.join_full_screen_spaces(VIEW, mac_window.ObjC(lib))
    assert [name for _r, name in lib.sent] == ["window", "collectionBehavior"]  # already so


def test_a_view_without_its_window_yet_is_left_for_the_next_show():
    lib = LibObjC(behaviour=0, window=None)
    assert not mac_window.join_full_screen_spaces(VIEW, mac_window.ObjC(lib))
    assert lib.behaviour == 0


def test_off_macos_there_is_no_runtime_to_load():
    with pytest.raises(OSError):
        mac_window.load_objc()


class Shell32:
    def __init__(self, answer: int):
        self.answer, self.ids = answer, []

    def SetCurrentProcessExplicitAppUserModelID(self, app_id):  # noqa: N802
        self.ids.append(app_id.value)
        return self.answer  # an HRESULT: S_OK is 0


def test_windows_notifications_carry_the_apps_own_id():
    shell32 = Shell32(0)
    assert set_app_user_model_id("io.example.App", shell32)
    assert shell32.ids == ["io.example.App"]
    assert not set_app_user_model_id("io.example.App", Shell32(-2147024809))  # E_INVALIDARG
    assert not set_app_user_model_id("io.example.App")  # not Windows: nothing to set


@pytest.mark.parametrize("system", ["darwin", "win32", "portable"])
def test_reminders_take_the_tray_or_the_window_where_there_is_no_session_bus(
    qapp, ctx, monkeypatch, system
):
    monkeypatch.setenv("DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent/never-asked")
    ctx.store  # noqa: B018 - the journal (where the proof goes) opened on this machine's terms
    if system == "portable":
        monkeypatch.setenv("COMPANION_PORTABLE", "1")
    else:
        monkeypatch.setattr(sys, "platform", system)
    asked: list[str] = []
    monkeypatch.setattr(
        "jeepney.io.blocking.open_dbus_connection", lambda **kw: asked.append("bus")
    )
    shown: list[tuple[str, str]] = []
    notifier = Notifier(
        fallback=lambda title, body: shown.append((title, body)), proofs_to=lambda: ctx.settings
    )
    assert notifier.send("Round in 10 minutes", "Acme, design") == "window"
    assert shown == [("Round in 10 minutes", "Acme, design")] and asked == []
    assert notifier.sent == [("window", "Round in 10 minutes", "Acme, design")]
    assert DbusNotifications().notify("t", "b") == 0 and asked == []
    assert ctx.settings.get(proofs.NOTIFICATION)["channel"] == "window"  # preflight's proof
