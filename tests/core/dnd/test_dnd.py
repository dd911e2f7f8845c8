"""Do-not-disturb adapters against fake commands, and the prior state always restored."""

from __future__ import annotations

import json
import sys

import pytest

from companion.core.dnd import record
from companion.core.dnd.adapters import (
    DunstAdapter,
    GnomeAdapter,
    MacShortcutsAdapter,
    MakoAdapter,
    ManualAdapter,
    WindowsAdapter,
)
from companion.core.dnd.base import CommandResult, DndError
from companion.core.dnd.controller import DndController, detect, restore_after_crash

GS = ["gsettings", "get", "org.gnome.desktop.notifications", "show-banners"]


class FakeDesktop:
    """Plays gsettings, dunstctl, makoctl and shortcuts with real state, logging every call."""

    def __init__(self, *, banners=True, dunst_paused=False, mako_modes=("default",), shortcuts=()):
        self.banners = banners
        self.dunst_paused = dunst_paused
        self.mako_modes = list(mako_modes)
        self.shortcuts = list(shortcuts)
        self.focus = False
        self.calls: list[list[str]] = []
        self.fail: set[str] = set()  # argv joined by spaces that should fail

    def __call__(self, argv: list[str]) -> CommandResult:
        self.calls.append(list(argv))
        line = " ".join(argv)
        if line in self.fail:
            return CommandResult(1, "", "No such schema or the daemon is gone")
        match argv:
            case ["gsettings", "get", "org.gnome.desktop.notifications", "show-banners"]:
                return CommandResult(0, "true\n" if self.banners else "false\n")
            case ["gsettings", "set", "org.gnome.desktop.notifications", "show-banners", value]:
                self.banners = value == "true"
                return CommandResult(0)
            case ["dunstctl", "is-paused"]:
                return CommandResult(0, "true\n" if self.dunst_paused else "false\n")
            case ["dunstctl", "set-paused", value]:
                self.dunst_paused = value == "true"
                return CommandResult(0)
            case ["makoctl", "mode"]:
                return CommandResult(0, "".join(m + "\n" for m in self.mako_modes))
            case ["makoctl", "mode", "-a", mode]:
                self.mako_modes.append(mode)
                return CommandResult(0)
            case ["makoctl", "mode", "-r", mode]:
                self.mako_modes = [m for m in self.mako_modes if m != mode]
                return CommandResult(0)
            case ["shortcuts", "list"]:
                return CommandResult(0, "".join(s + "\n" for s in self.shortcuts))
            case ["shortcuts", "run", name] if name in self.shortcuts:
                self.focus = name.endswith("On")
                return CommandResult(0)
        return CommandResult(127, "", f"{argv[0]}: command not found")


def controller(adapter, tmp_path, clock, holder="app"):
    return DndController(adapter, record.record_path(tmp_path), holder=holder, clock=clock)


# --- GNOME ---------------------------------------------------------------------------


def test_gnome_on_off_exact_commands_and_prior_restored(tmp_path, clock):
    desk = FakeDesktop(banners=True)
    ctl = controller(GnomeAdapter(desk), tmp_path, clock)
    ctl.turn_on(round_id=7)
    assert desk.banners is False
    assert desk.calls == [
        GS,
        ["gsettings", "set", "org.gnome.desktop.notifications", "show-banners", "false"],
    ]
    hold = json.loads(record.record_path(tmp_path).read_text())
    assert hold["prior"] == {"show_banners": True} and hold["adapter"] == "gnome"
    assert hold["round_id"] == 7
    desk.calls.clear()
    ctl.turn_off()
    assert desk.calls == [
        ["gsettings", "set", "org.gnome.desktop.notifications", "show-banners", "true"]
    ]
    assert desk.banners is True
    assert not record.record_path(tmp_path).exists()


def test_gnome_user_already_silenced_stays_silenced(tmp_path, clock):
    desk = FakeDesktop(banners=False)
    ctl = controller(GnomeAdapter(desk), tmp_path, clock)
    ctl.turn_on()
    ctl.turn_off()
    assert desk.banners is False  # the prior state, not simply "on"


def test_gnome_restored_after_crash(ctx, clock):
    desk = FakeDesktop(banners=True)
    ctl = DndController(GnomeAdapter(desk), record.record_path(ctx.data_dir), clock=clock)
    ctl.turn_on()
    assert desk.banners is False
    del ctl  # the process dies here: nothing restores on the way out
    desk.calls.clear()
    message = restore_after_crash(ctx, run=desk)
    assert desk.banners is True
    assert desk.calls == [
        ["gsettings", "set", "org.gnome.desktop.notifications", "show-banners", "true"]
    ]
    assert "restored" in message
    assert restore_after_crash(ctx, run=desk) is None  # told once; record gone


def test_gnome_failing_command_leaves_state_and_says_so(tmp_path, clock):
    desk = FakeDesktop(banners=True)
    desk.fail.add("gsettings set org.gnome.desktop.notifications show-banners false")
    ctl = controller(GnomeAdapter(desk), tmp_path, clock)
    with pytest.raises(DndError, match="show-banners false.*failed.*left as they were"):
        ctl.turn_on()
    assert desk.banners is True
    assert ctl.hold is None


def test_restore_failure_keeps_record_and_explains(tmp_path, clock):
    desk = FakeDesktop(banners=True)
    ctl = controller(GnomeAdapter(desk), tmp_path, clock)
    ctl.turn_on()
    desk.fail.add("gsettings set org.gnome.desktop.notifications show-banners true")
    with pytest.raises(DndError, match="may still be paused"):
        ctl.turn_off()
    assert ctl.hold is not None  # kept, so a later try (or the next start) restores
    desk.fail.clear()
    ctl.turn_off()
    assert desk.banners is True and ctl.hold is None


# --- dunst ---------------------------------------------------------------------------


def test_dunst_exact_commands_and_restore(tmp_path, clock):
    desk = FakeDesktop(dunst_paused=False)
    ctl = controller(DunstAdapter(desk), tmp_path, clock)
    ctl.turn_on()
    assert desk.calls == [["dunstctl", "is-paused"], ["dunstctl", "set-paused", "true"]]
    assert ctl.status().paused is True
    desk.calls.clear()
    ctl.turn_off()
    assert desk.calls == [["dunstctl", "set-paused", "false"]]
    assert desk.dunst_paused is False


def test_dunst_restored_after_crash(ctx, clock):
    desk = FakeDesktop(dunst_paused=False)
    DndController(DunstAdapter(desk), record.record_path(ctx.data_dir), clock=clock).turn_on()
    assert desk.dunst_paused
    assert "restored" in restore_after_crash(ctx, run=desk)
    assert desk.dunst_paused is False
    assert desk.calls[-1] == ["dunstctl", "set-paused", "false"]


# --- mako ----------------------------------------------------------------------------


def test_mako_exact_commands_and_restore(tmp_path, clock):
    desk = FakeDesktop(mako_modes=["default"])
    ctl = controller(MakoAdapter(desk), tmp_path, clock)
    ctl.turn_on()
    assert desk.calls == [["makoctl", "mode"], ["makoctl", "mode", "-a", "do-not-disturb"]]
    assert desk.mako_modes == ["default", "do-not-disturb"]
    desk.calls.clear()
    ctl.turn_off()
    assert desk.calls == [["makoctl", "mode", "-r", "do-not-disturb"]]
    assert desk.mako_modes == ["default"]


def test_mako_mode_already_set_by_user_is_kept(tmp_path, clock):
    desk = FakeDesktop(mako_modes=["default", "do-not-disturb"])
    ctl = controller(MakoAdapter(desk), tmp_path, clock)
    ctl.turn_on()
    ctl.turn_off()
    assert "do-not-disturb" in desk.mako_modes


def test_mako_restored_after_crash(ctx, clock):
    desk = FakeDesktop(mako_modes=["default"])
    DndController(MakoAdapter(desk), record.record_path(ctx.data_dir), clock=clock).turn_on()
    restore_after_crash(ctx, run=desk)
    assert desk.mako_modes == ["default"]


@pytest.mark.parametrize("modes", [5, None, {"do-not-disturb": 1}, "do-not-disturb"])
def test_mako_record_whose_modes_are_not_a_list_still_restores(ctx, modes):
    """A damaged record (hand-edited, or from another version) puts notifications back
    instead of raising TypeError at start-up (tests/fuzz/regressions/dnd)."""
    desk = FakeDesktop(mako_modes=["default", "do-not-disturb"])
    path = record.record_path(ctx.data_dir)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"adapter": "mako", "prior": {"modes": modes}, "holder": "app"}))
    message = restore_after_crash(ctx, run=desk)
    assert desk.mako_modes == ["default"]
    assert "restored" in message and not path.exists()


# --- macOS ---------------------------------------------------------------------------


def test_macos_runs_the_users_shortcuts(tmp_path, clock):
    desk = FakeDesktop(shortcuts=["My Focus On", "My Focus Off"])
    ctl = controller(MacShortcutsAdapter(desk, "My Focus On", "My Focus Off"), tmp_path, clock)
    ctl.turn_on()
    assert desk.calls == [["shortcuts", "list"], ["shortcuts", "run", "My Focus On"]]
    assert ctl.status().paused is True  # Focus cannot be read back: the record says so
    assert desk.focus is True
    desk.calls.clear()
    ctl.turn_off()
    assert desk.calls == [["shortcuts", "list"], ["shortcuts", "run", "My Focus Off"]]
    assert desk.focus is False


def test_macos_missing_shortcut_explains_how_to_make_it(tmp_path, clock):
    desk = FakeDesktop(shortcuts=["Companion Focus On"])  # the "off" one was never made
    ctl = controller(MacShortcutsAdapter(desk), tmp_path, clock)
    with pytest.raises(DndError, match="'Companion Focus Off'.*New Shortcut.*Set Focus"):
        ctl.turn_on()
    assert ctl.hold is None
    assert ["shortcuts", "run", "Companion Focus On"] not in desk.calls


def test_macos_restored_after_crash(ctx, clock):
    desk = FakeDesktop(shortcuts=["Companion Focus On", "Companion Focus Off"])
    DndController(
        MacShortcutsAdapter(desk), record.record_path(ctx.data_dir), clock=clock
    ).turn_on()
    assert desk.focus
    restore_after_crash(ctx, run=desk)
    assert desk.focus is False
    assert desk.calls[-1] == ["shortcuts", "run", "Companion Focus Off"]


# --- manual and Windows ----------------------------------------------------------------


def test_windows_is_manual_with_steps(tmp_path, clock):
    ctl = controller(WindowsAdapter(), tmp_path, clock)
    status = ctl.status()
    assert status.automatic is False and "Settings > System > Notifications" in status.text
    with pytest.raises(DndError, match="no public way"):
        ctl.turn_on()
    assert ctl.hold is None


def test_manual_adapter_never_pretends(tmp_path, clock):
    ctl = controller(ManualAdapter("Nothing found."), tmp_path, clock)
    with pytest.raises(DndError, match="Nothing found"):
        ctl.turn_on()


# --- a fake DBus-style adapter (the pause dies with its process) ------------------------


class FakeInhibitor(ManualAdapter):
    name = "freedesktop"
    label = "fake bus"
    automatic = True
    restores_itself = True
    cli_usable = False

    def __init__(self):
        self.cookie = None
        self.calls = []

    def snapshot(self):
        return {}

    def pause(self):
        self.calls.append("Inhibit")
        self.cookie = 42

    def restore(self, prior):
        self.calls.append(("UnInhibit", self.cookie))
        self.cookie = None


def test_inhibitor_pause_and_crash_message(ctx, clock):
    bus = FakeInhibitor()
    ctl = DndController(bus, record.record_path(ctx.data_dir), clock=clock)
    ctl.turn_on()
    assert bus.calls == ["Inhibit"] and ctl.hold.restores_itself
    message = restore_after_crash(ctx, run=FakeDesktop())
    assert "drops such a pause when the app closes" in message
    assert ctl.hold is None


def test_inhibitor_refused_from_the_cli(tmp_path, clock):
    ctl = controller(FakeInhibitor(), tmp_path, clock, holder="cli")
    with pytest.raises(DndError, match="Today page"):
        ctl.turn_on()


# --- records -------------------------------------------------------------------------


def test_cli_hold_is_reported_not_undone_at_app_start(ctx, clock):
    desk = FakeDesktop(banners=True)
    DndController(
        GnomeAdapter(desk), record.record_path(ctx.data_dir), holder="cli", clock=clock
    ).turn_on()
    message = restore_after_crash(ctx, run=desk)
    assert "command line" in message and "companion dnd off" in message
    assert desk.banners is False


def test_damaged_record_turns_notifications_on_and_tells(tmp_path, clock):
    desk = FakeDesktop(banners=False)
    record.record_path(tmp_path).write_text("{not json")
    ctl = controller(GnomeAdapter(desk), tmp_path, clock)
    assert "could not be read" in ctl.status().text
    ctl.turn_off()
    assert desk.banners is True and ctl.hold is None


@pytest.mark.parametrize("kind", ["fifo", "folder", "deep"])
def test_a_record_that_is_not_a_record_is_named_and_left_alone(ctx, clock, kind):
    """A FIFO or folder at dnd-state.json: status said only 'could not be read'; `dnd off`
    then deleted the FIFO, and on a folder (as the app's start did) raised IsADirectory."""
    import os

    path = record.record_path(ctx.data_dir)
    path.parent.mkdir(parents=True, exist_ok=True)
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "folder":
        path.mkdir()
    else:  # deep nesting: json.loads raised RecursionError
        path.write_text("[" * 30000 + "]" * 30000)
    desk = FakeDesktop(banners=False)
    ctl = controller(GnomeAdapter(desk), ctx.data_dir, clock)
    text = ctl.status().text
    assert f"could not be read ({path} " in text, text
    said = ctl.turn_off()
    assert desk.banners is True  # notifications come back on all the same
    if kind == "deep":
        assert not path.exists()  # a damaged record of ours is removed
    else:
        assert os.path.lexists(path) and "it was left as it is" in said
        assert "may have been on" in restore_after_crash(ctx, run=desk)  # no traceback
        assert os.path.lexists(path)


def test_record_written_before_the_change(tmp_path, clock):
    seen = {}

    class Spy(GnomeAdapter):
        def pause(self):
            seen["record"] = record.load(record.record_path(tmp_path))
            super().pause()

    ctl = controller(Spy(FakeDesktop()), tmp_path, clock)
    ctl.turn_on()
    assert seen["record"] is not None and seen["record"].prior == {"show_banners": True}


# --- detection -------------------------------------------------------------------------


def _which(*present):
    return lambda name: f"/usr/bin/{name}" if name in present else None


def test_detect_gnome_from_env():
    a = detect(
        env={"XDG_CURRENT_DESKTOP": "ubuntu:GNOME"},
        which=_which("gsettings"),
        run=FakeDesktop(),
        platform="linux",
    )
    assert a.name == "gnome"


def test_detect_dunst_and_mako_by_probe():
    desk = FakeDesktop()
    a = detect(env={}, which=_which("dunstctl"), run=desk, platform="linux")
    assert a.name == "dunst" and desk.calls == [["dunstctl", "is-paused"]]
    a = detect(env={}, which=_which("makoctl"), run=FakeDesktop(), platform="linux")
    assert a.name == "mako"


def test_detect_installed_but_not_running_is_skipped():
    def dead(argv):
        return CommandResult(1, "", "Failed to connect")

    a = detect(env={}, which=_which("dunstctl", "makoctl"), run=dead, platform="linux")
    assert a.name == "manual"


def test_detect_extra_dbus_adapter_and_kde_message():
    bus = FakeInhibitor()
    assert (
        detect(
            env={"XDG_CURRENT_DESKTOP": "KDE"},
            which=_which(),
            run=FakeDesktop(),
            platform="linux",
            extra=[bus],
        )
        is bus
    )
    manual = detect(
        env={"XDG_CURRENT_DESKTOP": "KDE"}, which=_which(), run=FakeDesktop(), platform="linux"
    )
    assert manual.name == "manual" and "DBus" in manual.manual_steps()


def test_detect_platforms_and_preference():
    assert detect(env={}, which=_which(), run=FakeDesktop(), platform="win32").name == "windows"
    assert (
        detect(env={}, which=_which("shortcuts"), run=FakeDesktop(), platform="darwin").name
        == "macos"
    )
    assert detect(env={}, which=_which(), run=FakeDesktop(), platform="darwin").name == "manual"
    both = detect(
        env={"XDG_CURRENT_DESKTOP": "GNOME"},
        which=_which("gsettings", "dunstctl"),
        run=FakeDesktop(),
        platform="linux",
        prefer="dunst",
    )
    assert both.name == "dunst"


def test_quit_restores_the_apps_pause_but_not_the_clis(ctx, clock):
    from companion.core.dnd import restore_on_quit

    desk = FakeDesktop(dunst_paused=False)
    path = record.record_path(ctx.data_dir)
    DndController(DunstAdapter(desk), path, clock=clock).turn_on()
    assert restore_on_quit(ctx, run=desk) == "Notifications were restored."
    assert desk.dunst_paused is False and not path.exists()
    DndController(DunstAdapter(desk), path, holder="cli", clock=clock).turn_on()
    assert restore_on_quit(ctx, run=desk) is None
    assert desk.dunst_paused is True and path.exists()


# --- the command line ------------------------------------------------------------------


def _cli(action, desk, capsys, **kw):
    import argparse

    from companion.commands import dnd as command

    kw.setdefault("env", {"XDG_CURRENT_DESKTOP": "GNOME"})
    kw.setdefault("which", _which("gsettings"))
    kw.setdefault("platform", "linux")
    from companion.commands.common import CommandError
    from companion.core.context import AppContext
    from companion.core.paths import resolve_data_dir

    ctx = AppContext(resolve_data_dir())
    try:
        code = command.run(argparse.Namespace(action=action), ctx, runner=desk, **kw)
    except CommandError as exc:  # printed as one line by companion.cli
        print(f"companion: {exc}", file=sys.stderr)
        code = exc.exit_code
    finally:
        ctx.close()
    out = capsys.readouterr()
    return code, out.out, out.err


def test_cli_on_status_off_round_trip(data_dir, capsys):
    desk = FakeDesktop(banners=True)
    code, out, _ = _cli("on", desk, capsys)
    assert code == 0 and "Do-not-disturb is on (GNOME" in out and desk.banners is False
    code, out, _ = _cli("status", desk, capsys)
    assert code == 0 and "notifications: paused" in out and "command line" in out
    code, out, _ = _cli("off", desk, capsys)
    assert code == 0 and "restored" in out and desk.banners is True
    assert not record.record_path(data_dir).exists()


def test_cli_errors_are_messages_not_tracebacks(data_dir, capsys):
    desk = FakeDesktop()
    desk.fail.add("gsettings get org.gnome.desktop.notifications show-banners")
    code, out, err = _cli("on", desk, capsys)
    assert (
        code == 1 and err.startswith("companion: dnd on: `gsettings get") and "Traceback" not in err
    )
    code, _out, err = _cli("on", FakeDesktop(), capsys, platform="win32")
    assert code == 1 and "no public way" in err
    code, out, _ = _cli("status", FakeDesktop(), capsys, env={}, which=_which())
    assert code == 0 and "notifications: unknown" in out and "No supported notification" in out


# --- freedesktop DBus inhibit (the QtDBus adapter, against a fake bus) -------------------


class FakeNotificationBus:
    """Plays org.freedesktop.Notifications: Inhibit returns a cookie, UnInhibit takes it."""

    def __init__(self, supports_inhibit=True):
        self.supports = supports_inhibit
        self.calls = []
        self.inhibitions = set()

    def __call__(self, method, *args):
        self.calls.append((method, *args))
        if method == "Introspect":
            return True, '<method name="Notify"/>' + (
                '<method name="Inhibit"/>' if self.supports else ""
            )
        if method == "Inhibit":
            self.inhibitions.add(7)
            return True, 7
        if method == "UnInhibit":
            if args[0] not in self.inhibitions:
                return False, "no such inhibition"
            self.inhibitions.discard(args[0])
            return True, None
        return False, "org.freedesktop.DBus.Error.UnknownMethod"


def test_dbus_inhibit_and_uninhibit_exact_calls(ctx, clock):
    from companion import APP_ID
    from companion.ui.dnd.dbus import FreedesktopInhibitAdapter

    fake = FakeNotificationBus()
    adapter = FreedesktopInhibitAdapter(fake)
    assert adapter.available()
    ctl = DndController(adapter, record.record_path(ctx.data_dir), clock=clock)
    ctl.turn_on(round_id=3)
    assert fake.calls[-1] == ("Inhibit", APP_ID, "Interview round in progress", {})
    assert fake.inhibitions == {7} and ctl.status().paused is True
    ctl.turn_off()
    assert fake.calls[-1] == ("UnInhibit", 7) and fake.inhibitions == set()
    assert ctl.hold is None


def test_dbus_crash_leaves_nothing_to_restore(ctx, clock):
    from companion.ui.dnd.dbus import FreedesktopInhibitAdapter

    fake = FakeNotificationBus()
    DndController(
        FreedesktopInhibitAdapter(fake), record.record_path(ctx.data_dir), clock=clock
    ).turn_on()
    fake.inhibitions.clear()  # the process died: the server dropped its inhibition
    message = restore_after_crash(ctx, run=FakeDesktop())
    assert "notifications should be on again" in message
    assert record.load(record.record_path(ctx.data_dir)) is None


def test_dbus_server_without_inhibit_is_not_offered():
    from companion.ui.dnd.dbus import FreedesktopInhibitAdapter

    old = FreedesktopInhibitAdapter(FakeNotificationBus(supports_inhibit=False))
    assert (
        detect(env={}, which=_which(), run=FakeDesktop(), platform="linux", extra=[old]).name
        == "manual"
    )


def test_dbus_refusal_is_a_clear_error(tmp_path, clock):
    from companion.ui.dnd.dbus import FreedesktopInhibitAdapter

    def refusing(method, *args):
        return (True, 'name="Inhibit"') if method == "Introspect" else (False, "Access denied")

    ctl = controller(FreedesktopInhibitAdapter(refusing), tmp_path, clock)
    with pytest.raises(DndError, match="refused Inhibit: Access denied.*left as they were"):
        ctl.turn_on()
    assert ctl.hold is None


def test_turning_it_on_says_one_way_back(tmp_path, clock):
    """The command line says to run `dnd off`; the app says the round end restores it only
    when it holds the pause for a round (it said both at once)."""
    cli = controller(GnomeAdapter(FakeDesktop(banners=True)), tmp_path / "a", clock, holder="cli")
    (tmp_path / "a").mkdir()
    said = cli.turn_on()
    assert "companion dnd off" in said and "round ends" not in said
    (tmp_path / "b").mkdir()
    app = controller(GnomeAdapter(FakeDesktop(banners=True)), tmp_path / "b", clock)
    assert "when the round ends" in app.turn_on(round_id=3)
    (tmp_path / "c").mkdir()
    bare = controller(GnomeAdapter(FakeDesktop(banners=True)), tmp_path / "c", clock)
    said = bare.turn_on()
    assert "round ends" not in said and "dnd off" not in said
