"""What every do-not-disturb adapter provides, and how commands are run.

Adapters never run a command themselves: they call an injected ``run(argv)`` so tests
can hand in a fake and assert the exact command lines.
"""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from dataclasses import dataclass


class DndError(Exception):
    """A do-not-disturb action failed; the message says what and what to do by hand."""


@dataclass(frozen=True)
class CommandResult:
    returncode: int
    stdout: str = ""
    stderr: str = ""


Runner = Callable[[list[str]], CommandResult]
Which = Callable[[str], "str | None"]


def run_command(argv: list[str], timeout: float = 5.0) -> CommandResult:
    """Run a command without a shell; a missing program or a hang becomes a result, not
    an exception (127 = not found, 124 = timed out)."""
    try:
        done = subprocess.run(
            argv,
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
            stdin=subprocess.DEVNULL,
        )
    except FileNotFoundError:
        return CommandResult(127, "", f"{argv[0]}: command not found")
    except subprocess.TimeoutExpired:
        return CommandResult(124, "", f"{argv[0]} did not answer within {timeout:g} s")
    except OSError as exc:
        return CommandResult(126, "", f"{argv[0]}: {exc.strerror or exc}")
    return CommandResult(done.returncode, done.stdout, done.stderr)


def shell_line(argv: list[str]) -> str:
    """A command line as a user would type it (for messages)."""
    import shlex

    return " ".join(shlex.quote(part) for part in argv)


class Adapter:
    """One way of pausing desktop notifications.

    ``snapshot()`` returns the prior state as plain JSON data; ``restore(prior)`` puts it
    back. ``automatic`` is False where the app can only show manual steps.
    """

    name = "manual"
    label = "Manual"
    automatic = True
    #: the pause dies with the process that made it (DBus inhibit cookies)
    restores_itself = False
    #: usable from `companion dnd`, a process that exits right away
    cli_usable = True

    def snapshot(self) -> dict:
        raise NotImplementedError

    def paused(self, state: dict) -> bool | None:
        """Whether a snapshot means notifications are paused (None = cannot tell)."""
        return None

    def pause(self) -> None:
        raise NotImplementedError

    def restore(self, prior: dict) -> None:
        raise NotImplementedError

    def resume(self) -> None:
        """Notifications on, whatever they were before."""
        self.restore({})

    def manual_steps(self) -> str:
        return (
            "Pause notifications by hand in your desktop's settings (look for 'Do not "
            "disturb' or 'Notifications'), and turn them back on after the round."
        )

    def setup_hint(self) -> str:
        return ""


class CommandAdapter(Adapter):
    """An adapter that drives a command-line tool."""

    def __init__(self, run: Runner = run_command):
        self._run = run

    def call(self, argv: list[str]) -> str:
        result = self._run(argv)
        if result.returncode != 0:
            why = (result.stderr or result.stdout).strip() or f"exit status {result.returncode}"
            raise DndError(f"`{shell_line(argv)}` failed: {why}")
        return result.stdout
