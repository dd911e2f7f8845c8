"""Pausing and restoring notifications with a record on disk, and choosing the adapter."""

from __future__ import annotations

import datetime as dt
import os
import shutil
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from companion.core.dnd import record
from companion.core.dnd.adapters import (
    ByHandAdapter,
    DunstAdapter,
    GnomeAdapter,
    MacShortcutsAdapter,
    MakoAdapter,
    ManualAdapter,
    WindowsAdapter,
    steps_by_hand,
)
from companion.core.dnd.base import Adapter, DndError, Runner, Which, run_command
from companion.core.dnd.record import Hold
from companion.core.platform import portable_forced
from companion.core.timeutil import local_now, parse_stored, to_local


@dataclass(frozen=True)
class DndStatus:
    adapter: str  # label
    automatic: bool
    paused: bool | None  # None = cannot tell
    hold: Hold | None  # set while this app (or `companion dnd on`) holds a pause
    text: str


def _desktops(env: Mapping[str, str]) -> set[str]:
    raw = f"{env.get('XDG_CURRENT_DESKTOP', '')}:{env.get('XDG_SESSION_DESKTOP', '')}"
    return {part.strip().lower() for part in raw.split(":") if part.strip()}


def detect(
    *,
    env: Mapping[str, str] | None = None,
    which: Which = shutil.which,
    run: Runner = run_command,
    platform: str | None = None,
    extra: Sequence[Adapter] = (),
    prefer: str | None = None,
    options: Mapping[str, str] | None = None,
) -> Adapter:
    """The adapter for this desktop. ``extra`` adapters (the QtDBus one) are tried after
    the command-line ones; ``prefer`` names one to use when it applies (a preference)."""
    env = os.environ if env is None else env
    platform = platform or sys.platform
    options = options or {}
    if portable_forced(env):  # nothing run, nothing over D-Bus: the steps by hand
        return ByHandAdapter(steps_by_hand(platform, _desktops(env)))
    candidates: list[Adapter] = []
    if platform == "darwin":
        if which("shortcuts"):
            candidates.append(
                MacShortcutsAdapter(run, options.get("macos_on", ""), options.get("macos_off", ""))
            )
    elif platform.startswith("win"):
        candidates.append(WindowsAdapter())
    else:
        desktops = _desktops(env)
        if "gnome" in desktops and which("gsettings"):
            candidates.append(GnomeAdapter(run))
        if which("makoctl") and run(["makoctl", "mode"]).returncode == 0:
            candidates.append(MakoAdapter(run))
        if which("dunstctl") and run(["dunstctl", "is-paused"]).returncode == 0:
            candidates.append(DunstAdapter(run))
        candidates.extend(a for a in extra if _available(a))
    if prefer:
        for adapter in candidates:
            if adapter.name == prefer:
                return adapter
    if candidates:
        return candidates[0]
    if platform == "darwin":
        return ManualAdapter("The `shortcuts` command was not found (macOS 12 or later has it).")
    kde = "kde" in _desktops(env)
    why = (
        "KDE pauses notifications only while an app holds a DBus inhibition; use the switch "
        "in the app (a command exits at once and would release it)."
        if kde
        else "No supported notification server was found (GNOME, KDE, dunst, mako)."
    )
    return ManualAdapter(why)


def _available(adapter: Adapter) -> bool:
    probe = getattr(adapter, "available", None)
    return bool(probe()) if callable(probe) else True


def adapter_named(
    name: str, *, run: Runner = run_command, options: Mapping[str, str] | None = None
) -> Adapter | None:
    """A command-line adapter by name, to restore a recorded pause."""
    options = options or {}
    if name == "gnome":
        return GnomeAdapter(run)
    if name == "dunst":
        return DunstAdapter(run)
    if name == "mako":
        return MakoAdapter(run)
    if name == "macos":
        return MacShortcutsAdapter(run, options.get("macos_on", ""), options.get("macos_off", ""))
    return None


class DndController:
    """Turns do-not-disturb on and off through one adapter, recording the prior state
    on disk first so it can always be put back."""

    def __init__(
        self,
        adapter: Adapter,
        record_file: Path,
        *,
        holder: str = "app",
        clock: Callable[[], dt.datetime] | None = None,
        run: Runner = run_command,
        options: Mapping[str, str] | None = None,
    ):
        self.adapter = adapter
        self.record_file = Path(record_file)
        self.holder = holder
        self._clock = clock or local_now
        self._run = run
        self._options = dict(options or {})

    @property
    def hold(self) -> Hold | None:
        return record.load(self.record_file)

    def status(self) -> DndStatus:
        hold = self.hold
        paused: bool | None = None
        problem = ""
        if self.adapter.automatic and not self.adapter.restores_itself:
            try:
                paused = self.adapter.paused(self.adapter.snapshot())
            except DndError as exc:
                problem = f" (cannot read the current state: {exc})"
        if hold is not None and paused is None:
            paused = True if self.adapter.name == hold.adapter or hold.damaged else None
        if hold is not None:
            who = "the command line" if hold.holder == "cli" else "Interview Companion"
            since = _clock_of(hold.since)
            text = f"Do-not-disturb is on, turned on by {who}{since}; switch it off to restore notifications."
            if hold.damaged:
                text = (
                    f"A do-not-disturb record was found but could not be read ({hold.problem.rstrip('.')}); "
                    "notifications may still be paused. Switch it off to turn them back on."
                )
        elif not self.adapter.automatic:
            text = self.adapter.manual_steps()
        elif paused:
            text = "Notifications are already paused (not by this app)."
        else:
            text = "Notifications are on."
        return DndStatus(self.adapter.label, self.adapter.automatic, paused, hold, text + problem)

    def turn_on(self, *, round_id: int = 0) -> str:
        """Pause notifications; the prior state is on disk before anything changes."""
        if not self.adapter.automatic:
            raise DndError(self.adapter.manual_steps())
        if self.holder == "cli" and not self.adapter.cli_usable:
            raise DndError(
                f"{self.adapter.label} keeps a pause only while the app that asked for it runs; "
                "use the Do not disturb switch on the app's Today page."
            )
        hold = self.hold
        if hold is not None and not hold.damaged:
            if hold.round_id != round_id and round_id:
                record.save(self.record_file, _replace(hold, round_id=round_id))
            return "Do-not-disturb is already on."
        prior = self.adapter.snapshot()
        record.save(
            self.record_file,
            Hold(
                adapter=self.adapter.name,
                prior=prior,
                since=self._clock().isoformat(timespec="seconds"),
                holder=self.holder,
                pid=os.getpid(),
                round_id=round_id,
                restores_itself=self.adapter.restores_itself,
            ),
        )
        try:
            self.adapter.pause()
        except DndError as exc:
            try:
                self.adapter.restore(prior)
            except DndError as again:
                raise DndError(
                    f"Could not turn on do-not-disturb: {exc}. Putting notifications back also "
                    f"failed ({again}); they may be paused. {self.adapter.manual_steps()}"
                ) from None
            record.clear(self.record_file)
            raise DndError(
                f"Could not turn on do-not-disturb: {exc}. Notifications were left as they were."
            ) from None
        on = f"Do-not-disturb is on ({self.adapter.label})."
        if self.holder == "cli":  # no app watches the round: the user turns it off
            return f"{on} Run `companion dnd off` after the round to restore notifications."
        if round_id:
            return f"{on} It is switched off when the round ends."
        return f"{on} Switch it off to restore notifications."

    def turn_off(self) -> str:
        """Restore the recorded prior state (or simply turn notifications on)."""
        hold = self.hold
        adapter = self.adapter
        if hold is not None and hold.adapter and hold.adapter != adapter.name:
            adapter = adapter_named(hold.adapter, run=self._run, options=self._options) or adapter
        if hold is not None and hold.restores_itself and adapter.name != hold.adapter:
            # The pause died with the process that held it (a DBus inhibit cookie).
            record.clear(self.record_file)
            return "Notifications are on again (the pause ended when the app that held it closed)."
        if not adapter.automatic:
            left = record.clear(self.record_file)
            raise DndError(
                f"Turn notifications back on by hand: {adapter.manual_steps()}"
                + (f" {left}" if left else "")
            )
        try:
            if hold is None or hold.damaged:
                adapter.resume()
            else:
                adapter.restore(hold.prior)
        except DndError as exc:
            raise DndError(
                f"Could not restore notifications: {exc}. They may still be paused; "
                f"{adapter.manual_steps()}"
            ) from None
        left = record.clear(self.record_file)
        return "Notifications are restored to how they were before." + (f" {left}" if left else "")


def _replace(hold: Hold, **changes) -> Hold:
    import dataclasses

    return dataclasses.replace(hold, **changes)


def _clock_of(iso_text: str) -> str:
    moment = parse_stored(iso_text)
    return f" at {to_local(moment):%H:%M}" if moment is not None else ""


def dnd_options(prefs) -> dict[str, str]:
    """Adapter options from the user's preferences (macOS shortcut names)."""
    return {
        "macos_on": prefs.get("dnd.macos_on_shortcut", "") or "",
        "macos_off": prefs.get("dnd.macos_off_shortcut", "") or "",
    }


def controller_for(
    ctx,
    *,
    holder: str = "app",
    extra: Sequence[Adapter] = (),
    env: Mapping[str, str] | None = None,
    which: Which = shutil.which,
    run: Runner = run_command,
    platform: str | None = None,
) -> DndController:
    """Build the controller for an :class:`AppContext` (detects the adapter)."""
    options = dnd_options(ctx.prefs)
    adapter = detect(
        env=env,
        which=which,
        run=run,
        platform=platform,
        extra=extra,
        prefer=ctx.prefs.get("dnd.adapter"),
        options=options,
    )
    return DndController(
        adapter,
        record.record_path(ctx.data_dir),
        holder=holder,
        clock=ctx.now,
        run=run,
        options=options,
    )


def restore_after_crash(
    ctx,
    *,
    run: Runner = run_command,
) -> str | None:
    """At start-up: put back notifications a previous run of the app left paused (it
    crashed or was killed). Returns a message for the user, or None when all is well."""
    path = record.record_path(ctx.data_dir)
    hold = record.load(path)
    if hold is None:
        return None
    since = _clock_of(hold.since)
    if hold.holder == "cli" and not hold.damaged:
        return (
            f"Do-not-disturb is on: it was turned on from the command line{since}. "
            "Switch it off on the Today page or run `companion dnd off` to restore notifications."
        )
    if hold.restores_itself:
        record.clear(path)
        return (
            f"Interview Companion stopped while do-not-disturb was on{since}. The notification "
            "server drops such a pause when the app closes, so notifications should be on "
            "again; check your desktop's notification settings if not."
        )
    options = dnd_options(ctx.prefs)
    adapter = None if hold.damaged else adapter_named(hold.adapter, run=run, options=options)
    if adapter is None:
        record.clear(path)
        return (
            "Interview Companion stopped while do-not-disturb may have been on, and cannot "
            "restore it automatically here. Turn notifications back on in your desktop's "
            "settings if they are still paused."
        )
    try:
        adapter.restore(hold.prior)
    except DndError as exc:
        return (
            f"Interview Companion stopped while do-not-disturb was on{since}, and restoring "
            f"notifications failed: {exc}. They may still be paused: {adapter.manual_steps()}"
        )
    record.clear(path)
    return (
        f"Interview Companion stopped while do-not-disturb was on{since}; notifications were "
        "restored to how they were before."
    )


def restore_on_quit(ctx, *, run: Runner = run_command) -> str | None:
    """On quit: undo a pause this app process made (a pause made by `companion dnd on`
    stays: the user asked for it from the command line). Returns a message or None."""
    path = record.record_path(ctx.data_dir)
    hold = record.load(path)
    if hold is None or hold.holder != "app" or hold.damaged:
        return None
    if hold.restores_itself:
        record.clear(path)  # the DBus inhibition ends with this process
        return None
    adapter = adapter_named(hold.adapter, run=run, options=dnd_options(ctx.prefs))
    if adapter is None:
        return None
    try:
        adapter.restore(hold.prior)
    except DndError as exc:
        return f"Could not restore notifications on quit: {exc}. {adapter.manual_steps()}"
    record.clear(path)
    return "Notifications were restored."
