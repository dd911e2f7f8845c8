"""Run the GUI benchmarks on a private D-Bus session, as a user's desktop would have.

Without a session bus, every Qt process on a machine with ``dbus-x11`` installed
autolaunches a D-Bus daemon of its own on start-up: start-up then read 3,196 ms for the
app and 3,171 ms for a bare window, against 162 ms and 133 ms on a bus. A desktop always
has a session bus, so the benchmarks give themselves one: ``benchmarks/run_all`` and each
GUI benchmark run as a script re-execute under ``dbus-run-session --`` when it is
installed; every child process (the app, the bare window) inherits that bus, and
``dbus-run-session`` stops the daemon when the benchmark exits. The bus uses the same
configuration as ``make test`` (``tests/private-bus.conf``): a session bus that activates
no installed service, so the figures do not depend on which desktop services (a
notification daemon, the accessibility bus) happen to be installed, and none is left
running afterwards.

Not imported by the app: standard library only.
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

CONFIG = Path(__file__).resolve().parent.parent / "tests" / "private-bus.conf"
MARK = "COMPANION_BENCH_BUS"  # set once the process runs on its private bus (or cannot)


def prefix() -> list[str]:
    """``["dbus-run-session", "--"]`` when this process should re-execute on a private
    bus; ``[]`` when it already runs on one or ``dbus-run-session`` is not installed."""
    if os.environ.get(MARK):
        return []
    tool, daemon = shutil.which("dbus-run-session"), shutil.which("dbus-daemon")
    if not tool or not daemon:
        os.environ[MARK] = "missing"
        return []
    config = [f"--config-file={CONFIG}"] if CONFIG.exists() else []
    return [tool, *config, "--"]


def reexec(argv: list[str], python: str | None = None) -> None:
    """Re-execute ``python argv...`` under ``dbus-run-session`` (does not return), or
    return at once when that is not needed or not possible."""
    wrap = prefix()
    if not wrap:
        return
    os.environ[MARK] = "private"
    python = python or sys.executable
    sys.stdout.flush()
    sys.stderr.flush()
    os.execv(wrap[0], [*wrap, python, *argv])


def note() -> str:
    """One line for the table's notes: which bus the GUI benchmarks used."""
    state = os.environ.get(MARK, "")
    if state == "private" and os.environ.get("DBUS_SESSION_BUS_ADDRESS"):
        return "GUI benchmarks ran on a private D-Bus session (dbus-run-session)"
    if os.environ.get("DBUS_SESSION_BUS_ADDRESS"):
        return "GUI benchmarks ran on the existing D-Bus session bus"
    return (
        "no D-Bus session bus and no dbus-run-session: Qt may start a bus daemon per "
        "process, which slows every GUI start (install dbus)"
    )
