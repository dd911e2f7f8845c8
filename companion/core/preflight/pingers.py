"""Programs that ping: found by their process names (psutil, on every desktop), closed
only when asked (SIGTERM on POSIX: the polite request a desktop's log-out sends), never
killed."""

from __future__ import annotations

from dataclasses import dataclass

from companion.core.platform import processes
from companion.core.preflight.checks import Check

# process name (lower case; Linux cuts /proc/PID/comm at 15 characters, macOS and
# Windows name the executable, ".exe" dropped here) -> name
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
    "telegram-desktop": "Telegram",
    "outlook": "Outlook",
    "olk": "Outlook",  # the new Outlook for Windows
    "mail": "Mail",  # macOS
    "messages": "Messages",  # macOS
    "whatsapp": "WhatsApp",
    "microsoft teams": "Teams",  # macOS
}


@dataclass(frozen=True)
class Pinger:
    pid: int
    name: str  # the program's name for people
    process: str  # its process name


def program_key(process: str) -> str:
    """The key of :data:`PINGERS` for a process name ('Slack.exe' -> 'slack')."""
    key = process.strip().lower()
    return key.removesuffix(".exe")


def find_pingers() -> list[Pinger]:
    """Running programs that notify, one per process, by pid."""
    found = []
    for pid, process in processes.running():
        name = PINGERS.get(program_key(process))
        if name is not None and still_running(pid):
            found.append(Pinger(pid, name, process))
    return sorted(found, key=lambda p: p.pid)


def still_running(pid: int) -> bool:
    """Whether ``pid`` is a live process (a zombie is gone to the user)."""
    return processes.alive(pid)


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


def close_politely(pinger: Pinger) -> bool:
    """Ask ``pinger`` to quit if that pid is still the same program; returns whether the
    request was sent. Call only after the user said yes."""
    if processes.name_of(pinger.pid) != pinger.process:
        return False  # gone, or the pid now belongs to another program
    return processes.ask_to_quit(pinger.pid)
