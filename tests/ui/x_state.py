"""The cue card's on-top state under a real window manager (the hotkey tests under
openbox and under mutter) when it is hidden and shown again before the manager has
handled the hide: ``xprop -spy`` on the card's _NET_WM_STATE, and the manager held
still (SIGSTOP) meanwhile, as a busy GNOME shell is, so that what reaches the manager
is queued before it moves."""

from __future__ import annotations

import os
import signal
import subprocess
import threading
import time

GONE = "not found"  # xprop's line for a property the window no longer has
QT_ASKS = "_NET_WM_STATE_STAYS_ON_TOP"  # Qt writes it beside ABOVE; no manager here does
ABOVE = "_NET_WM_STATE_ABOVE"


class StateSpy:
    """``xprop -spy`` on a window's _NET_WM_STATE: ``lines``, one per value it took."""

    def __init__(self, env, winid: int):
        self.proc = subprocess.Popen(
            ["stdbuf", "-oL", "xprop", "-spy", "-id", str(winid), "_NET_WM_STATE"],
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )
        self.lines: list[str] = []
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        for line in self.proc.stdout:
            self.lines.append(line.strip())

    def wait(self, check, what: str, timeout: float = 15.0) -> list[str]:
        deadline = time.monotonic() + timeout
        while not check(list(self.lines)):
            if time.monotonic() > deadline:
                raise AssertionError(f"timed out waiting for {what}: {self.lines}")
            time.sleep(0.05)
        return list(self.lines)

    def stop(self) -> None:
        self.proc.terminate()
        self.proc.wait(10)
        self.reader.join(10)
        self.proc.stdout.close()


def _after(lines: list[str], start: int, check) -> int | None:
    return next((i for i in range(start, len(lines)) if check(lines[i])), None)


def hide_and_show_while_the_wm_is_busy(
    app, env, winid: int, wm_pid: int, times: int = 3
) -> list[bool]:
    """The show-card hotkey twice, quickly, while the window manager ``wm_pid`` is held
    still, ``times`` over; after each, once the manager has settled, the card must be
    above (the tests' assertion). Returns, per try, whether the manager dropped the
    state after Qt's write for the new map (the race the card answers): it mostly does
    (mutter and openbox delete the property, or under load write it without ABOVE), but
    the order it handles the queued requests in is its own, so it is not required."""
    dropped = []
    for n in range(times):
        spy = StateSpy(env, winid)
        try:
            spy.wait(lambda lines: ABOVE in "".join(lines), "the card above")
            seen = len(spy.lines)
            os.kill(wm_pid, signal.SIGSTOP)
            try:
                app.send("hide-show")
                shown = app.answer()
                assert shown["action"] == "hide-show" and shown["visible"], shown
                assert shown["winid"] == winid, shown  # the same X window, unmapped and mapped
                # Qt's state for the new map is on the window before the manager moves again
                spy.wait(lambda lines, seen=seen: _after(lines, seen, _qt_wrote) is not None,
                         "Qt's _NET_WM_STATE for the new map")  # fmt: skip
            finally:
                os.kill(wm_pid, signal.SIGCONT)
            lines = _settled(spy)
        finally:
            spy.stop()
        written = _after(lines, seen, _qt_wrote)
        dropped.append(
            _after(lines, written + 1, lambda line: GONE in line or ABOVE not in line) is not None
        )
        state = subprocess.run(
            ["xprop", "-id", str(winid), "_NET_WM_STATE", "WM_STATE"],
            env=env, capture_output=True, text=True, timeout=10, check=False,
        ).stdout  # fmt: skip
        assert ABOVE in state, f"try {n + 1}: not above after {lines[seen:]}; now {state!r}"
    return dropped


def _qt_wrote(line: str) -> bool:
    return QT_ASKS in line


def _settled(spy: StateSpy, quiet: float = 1.5, timeout: float = 20.0) -> list[str]:
    """The spy's lines once the property has not changed for ``quiet`` seconds (the
    manager and the card's request again are done)."""
    deadline = time.monotonic() + timeout
    count, since = len(spy.lines), time.monotonic()
    while time.monotonic() < deadline:
        time.sleep(0.1)
        if len(spy.lines) != count:
            count, since = len(spy.lines), time.monotonic()
        elif time.monotonic() - since >= quiet:
            break
    return list(spy.lines)
