"""Programs that ping: found by their process names in /proc, closed only when asked
(SIGTERM: the polite request a desktop's log-out sends), never killed."""

from __future__ import annotations

import os
import signal
from dataclasses import dataclass
from pathlib import Path

from companion.core.preflight.checks import Check

# process name (lower case, as /proc/PID/comm has it, at most 15 characters) -> name
PINGERS = {
    "slack": "Slack",
    "discord": "Discord",
    "teams": "Teams",
    "teams-for-linux": "Teams",
    "ms-teams": "Teams",
    "zoom": "Zoom",
    "thunderbird": "Thunderbird",
    "thunderbird-bin": "Thunderbird",
    "evolution": "Evolution",
    "signal-desktop": "Signal",
    "telegram-deskto": "Telegram",  # comm is cut at 15 characters
    "telegram": "Telegram",
    "element-desktop": "Element",
    "geary": "Geary (mail)",
    "kmail": "KMail",
    "mailspring": "Mailspring",
    "claws-mail": "Claws Mail",
    "sylpheed": "Sylpheed",
    "betterbird": "Betterbird",
}


@dataclass(frozen=True)
class Pinger:
    pid: int
    name: str  # the program's name for people
    process: str  # its process name


def find_pingers(proc: Path = Path("/proc")) -> list[Pinger]:
    """Running programs that notify, one per process, by pid."""
    found = []
    for entry in proc.iterdir() if proc.is_dir() else ():
        if not entry.name.isdigit():
            continue
        try:
            comm = (entry / "comm").read_text(encoding="utf-8", errors="replace").strip()
        except OSError:
            continue  # gone meanwhile, or not ours to read
        name = PINGERS.get(comm.lower())
        if name is not None and still_running(int(entry.name), proc):
            found.append(Pinger(int(entry.name), name, comm))
    return sorted(found, key=lambda p: p.pid)


def still_running(pid: int, proc: Path = Path("/proc")) -> bool:
    """Whether ``pid`` is a live process: not gone, and not a zombie (a program that
    quit and waits for its parent to notice is gone to the user)."""
    try:
        stat = (proc / str(pid) / "stat").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return False
    return stat.rpartition(")")[2].split()[:1] != ["Z"]


APP_PINGS = "This app's own reminders ping too: do-not-disturb holds them for the round."


def pingers_check(found: list[Pinger], *, app_pings: bool = False) -> Check:
    """``app_pings``: notifications are not paused, so this app's reminders will ping."""
    if not found:
        if app_pings:
            return Check("pingers", False, APP_PINGS)
        return Check("pingers", True, "Nothing that pings is running.")
    names = sorted({p.name for p in found})
    own = f" {APP_PINGS}" if app_pings else ""
    return Check(
        "pingers", False, f"Running: {', '.join(names)}. Close them before the round.{own}"
    )


def close_politely(pinger: Pinger, proc: Path = Path("/proc")) -> bool:
    """Ask ``pinger`` to quit (SIGTERM) if that pid is still the same program; returns
    whether the request was sent. Call only after the user said yes."""
    try:
        comm = (proc / str(pinger.pid) / "comm").read_text(encoding="utf-8").strip()
    except OSError:
        return False
    if comm != pinger.process:
        return False  # the pid now belongs to another program
    try:
        os.kill(pinger.pid, signal.SIGTERM)
    except OSError:
        return False
    return True
