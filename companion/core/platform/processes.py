"""Other processes, through psutil on every desktop: whether one is alive, the running
ones by name, and a polite request to quit. Never ``os.kill(pid, 0)``: on Windows signal
0 is CTRL_C_EVENT and CPython falls back to TerminateProcess.

psutil is imported in each function, not at the top: the stale-temp sweep of every
atomic write imports this module, and psutil costs milliseconds a first paint need not pay.
"""

from __future__ import annotations


def alive(pid: int) -> bool:
    """Whether ``pid`` is a live process: not gone, and not a zombie (a program that quit
    and waits for its parent to notice is gone to the user). A process we may not look
    at counts as alive: it is not ours to judge."""
    import psutil

    try:
        return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except (psutil.NoSuchProcess, ValueError, OverflowError):
        return False
    except psutil.Error:
        return True


def running() -> list[tuple[int, str]]:
    """(pid, process name) of each running process this user may see."""
    import psutil

    found = []
    for proc in psutil.process_iter(["name"]):
        name = proc.info.get("name")
        if name:
            found.append((proc.pid, name))
    return found


def name_of(pid: int) -> str | None:
    """The process name of ``pid``, None when it is gone or hidden from us."""
    import psutil

    try:
        return psutil.Process(pid).name()
    except psutil.Error:
        return None


def ask_to_quit(pid: int) -> bool:
    """Ask ``pid`` to quit: SIGTERM on POSIX (what a desktop's log-out sends); on
    Windows psutil's terminate (TerminateProcess: the only request there is)."""
    import psutil

    try:
        psutil.Process(pid).terminate()
    except psutil.Error:
        return False
    return True
