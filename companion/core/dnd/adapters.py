"""The command-line adapters: GNOME, dunst, mako, macOS Shortcuts, and the manual ones.

The freedesktop DBus adapter (KDE and others) needs QtDBus and lives in
``companion.ui.dnd.dbus``.
"""

from __future__ import annotations

from companion.core.dnd.base import Adapter, CommandAdapter, DndError, Runner, run_command

GNOME_SCHEMA = "org.gnome.desktop.notifications"
MAKO_MODE = "do-not-disturb"
MAC_ON = "Companion Focus On"
MAC_OFF = "Companion Focus Off"


def _bool(text: str, what: str) -> bool:
    value = text.strip().lower()
    if value in ("true", "yes", "1"):
        return True
    if value in ("false", "no", "0"):
        return False
    raise DndError(f"{what} answered {text.strip()!r}; expected true or false")


class GnomeAdapter(CommandAdapter):
    """GNOME: banners off through gsettings (the Do Not Disturb switch in the top bar)."""

    name = "gnome"
    label = "GNOME (gsettings)"

    def _get(self) -> bool:
        return _bool(self.call(["gsettings", "get", GNOME_SCHEMA, "show-banners"]), "gsettings")

    def _set(self, show: bool) -> None:
        self.call(["gsettings", "set", GNOME_SCHEMA, "show-banners", "true" if show else "false"])

    def snapshot(self) -> dict:
        return {"show_banners": self._get()}

    def paused(self, state: dict) -> bool | None:
        return not state["show_banners"] if "show_banners" in state else None

    def pause(self) -> None:
        self._set(False)

    def restore(self, prior: dict) -> None:
        self._set(bool(prior.get("show_banners", True)))

    def manual_steps(self) -> str:
        return (
            "Click the clock in the top bar and switch 'Do Not Disturb' on (off again after "
            f"the round), or run: gsettings set {GNOME_SCHEMA} show-banners false"
        )


class DunstAdapter(CommandAdapter):
    name = "dunst"
    label = "dunst (dunstctl)"

    def snapshot(self) -> dict:
        return {"paused": _bool(self.call(["dunstctl", "is-paused"]), "dunstctl is-paused")}

    def paused(self, state: dict) -> bool | None:
        return state.get("paused")

    def pause(self) -> None:
        self.call(["dunstctl", "set-paused", "true"])

    def restore(self, prior: dict) -> None:
        self.call(["dunstctl", "set-paused", "true" if prior.get("paused") else "false"])

    def manual_steps(self) -> str:
        return (
            "Run `dunstctl set-paused true` before the round and `dunstctl set-paused false` after."
        )


class MakoAdapter(CommandAdapter):
    name = "mako"
    label = "mako (makoctl)"

    def snapshot(self) -> dict:
        modes = [
            line.strip() for line in self.call(["makoctl", "mode"]).splitlines() if line.strip()
        ]
        return {"modes": modes}

    def paused(self, state: dict) -> bool | None:
        return MAKO_MODE in state.get("modes", []) if "modes" in state else None

    def pause(self) -> None:
        try:
            self.call(["makoctl", "mode", "-a", MAKO_MODE])
        except DndError as exc:
            raise DndError(f"{exc} (mako 1.7 or later is needed for modes)") from None

    def restore(self, prior: dict) -> None:
        modes = prior.get("modes")
        if not isinstance(modes, list) or MAKO_MODE not in modes:  # unknown: notifications on
            self.call(["makoctl", "mode", "-r", MAKO_MODE])

    def manual_steps(self) -> str:
        return f"Run `makoctl mode -a {MAKO_MODE}` before the round and `makoctl mode -r {MAKO_MODE}` after."

    def setup_hint(self) -> str:
        return (
            "mako hides notifications in this mode only if your mako config says so; add to "
            f"~/.config/mako/config:\n\n[mode={MAKO_MODE}]\ninvisible=1\n\nthen run `makoctl reload`."
        )


class MacShortcutsAdapter(CommandAdapter):
    """macOS has no public Focus API; the Shortcuts app can set a Focus, and
    `shortcuts run` runs a shortcut the user made once."""

    name = "macos"
    label = "macOS Focus (Shortcuts)"

    def __init__(self, run: Runner = run_command, on_name: str = MAC_ON, off_name: str = MAC_OFF):
        super().__init__(run)
        self.on_name = on_name or MAC_ON
        self.off_name = off_name or MAC_OFF

    def _check_made(self, *wanted: str) -> None:
        names = {line.strip() for line in self.call(["shortcuts", "list"]).splitlines()}
        missing = [name for name in wanted if name not in names]
        if missing:
            raise DndError(f"There is no shortcut named {missing[0]!r} yet. {self.setup_hint()}")

    def snapshot(self) -> dict:
        # Both shortcuts must exist before anything changes: switching Focus on without a
        # way to switch it off again would leave the user silenced.
        self._check_made(self.on_name, self.off_name)
        return {"focus": "unknown"}  # Focus state cannot be read without private APIs

    def pause(self) -> None:
        self.call(["shortcuts", "run", self.on_name])

    def restore(self, prior: dict) -> None:
        self._check_made(self.off_name)
        self.call(["shortcuts", "run", self.off_name])

    def manual_steps(self) -> str:
        return "Open Control Centre > Focus and choose Do Not Disturb; turn it off after the round."

    def setup_hint(self) -> str:
        return (
            "Make two shortcuts once: open the Shortcuts app, choose File > New Shortcut, add the "
            "action 'Set Focus', pick 'Do Not Disturb' and 'Turn On', and name the shortcut "
            f"'{self.on_name}'. Make a second one with 'Turn Off' named '{self.off_name}'."
        )


class ManualAdapter(Adapter):
    """No way to pause notifications from here: the checklist item stays a manual one."""

    name = "manual"
    label = "Manual"
    automatic = False

    def __init__(self, why: str = ""):
        self.why = why

    def snapshot(self) -> dict:
        raise DndError(self.manual_steps())

    def pause(self) -> None:
        raise DndError(self.manual_steps())

    def restore(self, prior: dict) -> None:
        raise DndError(self.manual_steps())

    def manual_steps(self) -> str:
        base = super().manual_steps()
        return f"{self.why} {base}".strip()


class WindowsAdapter(ManualAdapter):
    name = "windows"
    label = "Windows (manual)"

    def manual_steps(self) -> str:
        return (
            "Windows has no public way for an app to switch on Do not disturb, so do it by "
            "hand: Windows 11: Settings > System > Notifications > Do not disturb (or the bell "
            "in the taskbar clock). Windows 10: Action Center > Focus assist > Alarms only. "
            "Switch it off again after the round."
        )


class ByHandAdapter(ManualAdapter):
    """The portable do-not-disturb (``COMPANION_PORTABLE=1``): a checklist step that
    says how to pause notifications on this desktop, without running anything."""

    label = "By hand (portable)"

    def __init__(self, steps: str):
        super().__init__()
        self.steps = steps

    def manual_steps(self) -> str:
        return self.steps


def steps_by_hand(platform: str, desktops: set[str]) -> str:
    """How to pause notifications by hand on ``platform`` (sys.platform) and, on Linux,
    the desktops ``XDG_CURRENT_DESKTOP`` names."""
    if platform == "darwin":
        return f"macOS: {MacShortcutsAdapter().manual_steps()}"
    if platform.startswith("win"):
        return WindowsAdapter().manual_steps()
    if "gnome" in desktops:
        return GnomeAdapter().manual_steps()
    if "kde" in desktops:
        return (
            "KDE: click the bell in the system tray and switch 'Do not disturb' on; off "
            "again after the round."
        )
    return ManualAdapter().manual_steps()
