"""Clicks under a real X server that must, or must not, reach the window beneath the
cue card (the hotkey tests under openbox and under mutter): a window that counts the
presses it gets, and a bare point on it for a marker click."""

from __future__ import annotations

import re
import subprocess
import threading
import time


def window_rect(info: str) -> tuple[int, int, int, int]:
    """(x, y, w, h) of a window from ``xwininfo -id``."""

    def number(name: str) -> int:
        return int(re.search(rf"{name}:\s+(-?\d+)", info).group(1))

    return (
        number("Absolute upper-left X"),
        number("Absolute upper-left Y"),
        number("Width"),
        number("Height"),
    )


class ButtonCounter:
    """``xev -event button`` as a window beneath the card: ``presses`` lists the root
    (x, y) of each ButtonPress that reached it, in the order the X server sent them.

    A click that must not reach it is proved by a marker: a second click where the
    window is bare. The server delivers the presses in order, so once the marker's press
    is in, a press from the first click would be in too; no wait on the clock."""

    def __init__(self, env, geometry: str, name: str = "ghost-beneath"):
        self.proc = subprocess.Popen(
            ["stdbuf", "-oL", "xev", "-event", "button", "-name", name, "-geometry", geometry],
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )
        self.presses: list[tuple[int, int]] = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        pressed = False
        for line in self.proc.stdout:
            if line.startswith("ButtonPress event"):
                pressed = True
            elif pressed and "root:(" in line:
                x, y = line.split("root:(", 1)[1].split(")", 1)[0].split(",")
                self.presses.append((int(x), int(y)))
                pressed = False

    def before_marker(self, since: int, marker: tuple[int, int], timeout: float = 30.0) -> list:
        """Wait for a marker click's press at ``marker`` after the first ``since``
        presses; the presses between (those of the clicks made before the marker)."""
        deadline = time.monotonic() + timeout
        while marker not in self.presses[since:]:
            assert time.monotonic() < deadline, f"no press of the marker click at {marker}"
            time.sleep(0.05)
        later = self.presses[since:]
        return later[: later.index(marker)]

    def stop(self) -> None:
        self.proc.terminate()
        self.proc.wait(10)
        self.proc.stdout.close()


def bare_point(screen: tuple[int, int], *covered: tuple[int, int, int, int]) -> tuple[int, int]:
    """A point on a full-screen window beneath that none of the ``covered`` (x, y, w, h)
    rects (the card, the other windows) hides, for a marker click; 60 px clear of
    each (a window manager's frame and title bar lie outside a window's own rect)."""
    width, height = screen
    for x, y in ((width - 100, height - 100), (100, height - 100), (width - 100, 100), (100, 100),
                 (width // 2, height - 100), (width - 100, height // 2)):  # fmt: skip
        if not any(
            left - 60 <= x <= left + w + 60 and top - 60 <= y <= top + h + 60
            for left, top, w, h in covered
        ):
            return x, y
    raise AssertionError(f"no bare point for a marker click beside {covered}")
