"""An X session for the hotkey tests: Xvfb, openbox, an xterm that has the focus, and
the real app started in a subprocess (app_harness.py) on Qt's xcb platform."""

from __future__ import annotations

import json
import os
import select
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
TOOLS = ("Xvfb", "openbox", "xdotool", "xterm", "xprop")


def _stop(proc: subprocess.Popen | None) -> None:
    if proc is None or proc.poll() is not None:
        return
    proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(5)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(5)


def _wait(check, what: str, timeout: float = 30.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


class XSession:
    def __init__(self, tmp: Path):
        self.tmp = tmp
        self.procs: list[subprocess.Popen] = []
        self.display = ""
        self.xterm = ""
        self.wm: subprocess.Popen | None = None  # openbox

    @property
    def env(self) -> dict[str, str]:
        env = dict(os.environ, DISPLAY=self.display)
        env.pop("WAYLAND_DISPLAY", None)
        env.pop("XDG_SESSION_TYPE", None)
        env.pop("COMPANION_HOTKEYS", None)
        env.pop("XAUTHORITY", None)
        return env

    def run(self, *cmd: str, timeout: float = 10) -> str:
        result = subprocess.run(
            cmd,
            env=self.env,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )
        return result.stdout.strip()

    def start(self) -> None:
        first = 140 + os.getpid() % 60  # parallel runs rarely race for one number
        for number in [*range(first, 240), *range(140, first)]:
            if Path(f"/tmp/.X11-unix/X{number}").exists() or Path(f"/tmp/.X{number}-lock").exists():
                continue
            xvfb = subprocess.Popen(
                [
                    "Xvfb",
                    f":{number}",
                    "-screen",
                    "0",
                    "1280x800x24",
                    "-nolisten",
                    "tcp",
                    "-noreset",
                ],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
            socket = Path(f"/tmp/.X11-unix/X{number}")
            deadline = time.monotonic() + 15
            while xvfb.poll() is None and not socket.exists() and time.monotonic() < deadline:
                time.sleep(0.05)
            self.display = f":{number}"
            answered = xvfb.poll() is None and socket.exists()
            while answered and not self.run("xprop", "-root", "-len", "1", "RESOURCE_MANAGER"):
                # the X server answers a client (xprop prints the property or a "no such" line)
                if xvfb.poll() is not None or time.monotonic() > deadline:
                    answered = False
                time.sleep(0.05)
            if answered and xvfb.poll() is None:
                self.procs.append(xvfb)
                break
            self.display = ""
            _stop(xvfb)  # another server took the number first
        assert self.display, "Xvfb did not start on any display from :140 to :239"
        log = open(self.tmp / "openbox.log", "w")  # noqa: SIM115 - closed below
        with log:
            self.wm = subprocess.Popen(
                ["openbox", "--sm-disable"],
                env=self.env,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=log,
            )
            self.procs.append(self.wm)
        try:
            _wait(
                lambda: "window id" in self.run("xprop", "-root", "_NET_SUPPORTING_WM_CHECK"),
                "openbox to manage the screen",
            )
        except AssertionError as exc:
            text = (self.tmp / "openbox.log").read_text()
            raise AssertionError(f"{exc} on {self.display}: openbox said: {text[-1500:]}") from None
        self.procs.append(
            subprocess.Popen(
                ["xterm", "-T", "hotkey-focus", "-geometry", "80x20+600+400"],
                env=self.env,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
        )
        self.xterm = _wait(
            lambda: self.run("xdotool", "search", "--name", "^hotkey-focus$").split("\n")[0],
            "the xterm window",
        )

    def wait(self, check, what: str, timeout: float = 30.0):
        """``check()``'s first true value, asked until ``timeout`` seconds have passed."""
        return _wait(check, what, timeout)

    def focus_xterm(self) -> None:
        self.run("xdotool", "windowactivate", "--sync", self.xterm)
        _wait(lambda: self.active() == self.xterm, "the xterm to have the focus")

    def active(self) -> str:
        return self.run("xdotool", "getactivewindow")

    def key(self, keys: str) -> None:
        self.run("xdotool", "key", "--clearmodifiers", keys)

    def stop(self) -> None:
        for proc in reversed(self.procs):
            _stop(proc)


@pytest.fixture(scope="module")
def xsession(tmp_path_factory):
    missing = [tool for tool in TOOLS if shutil.which(tool) is None]
    if "Xvfb" in missing:
        pytest.skip("Xvfb is not installed (Debian: xvfb)")
    assert not missing, f"missing tools (see .ci/run): {missing}"
    session = XSession(tmp_path_factory.mktemp("xsession"))
    try:
        session.start()
        yield session
    finally:
        session.stop()


class AppProcess:
    """The real app (or the stand-in portal) in a subprocess; ``read()`` returns its
    next JSON line. stdout is read unbuffered: select() must see every pending line."""

    def __init__(self, env: dict[str, str], round_type: str = "design", cmd=None):
        self.errors = ""
        self._buffer = b""
        self.proc = subprocess.Popen(
            cmd or [sys.executable, "-X", "faulthandler", str(HERE / "app_harness.py"), round_type],
            cwd=ROOT,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            bufsize=0,
        )

    def read(self, timeout: float = 15.0) -> dict:
        deadline = time.monotonic() + timeout
        while b"\n" not in self._buffer:
            left = deadline - time.monotonic()
            ready, _, _ = select.select([self.proc.stdout], [], [], max(0, left))
            if not ready:
                raise AssertionError(f"the process printed nothing in time{self._post_mortem()}")
            chunk = os.read(self.proc.stdout.fileno(), 65536)
            if not chunk:
                raise AssertionError(f"the process ended{self._post_mortem()}")
            self._buffer += chunk
        line, self._buffer = self._buffer.split(b"\n", 1)
        return json.loads(line)

    def answer(self, timeout: float = 15.0) -> dict:
        """The next line that answers a command or reports a hotkey. The app prints its
        "ready" status line again whenever its hotkeys change (a keymap change regrabs):
        those are skipped, so a regrab that lands between a key and its line is not
        taken for the key's answer."""
        deadline = time.monotonic() + timeout
        while True:
            event = self.read(max(0.0, deadline - time.monotonic()))
            if not event.get("ready"):
                return event

    def _post_mortem(self) -> str:
        """For the failure message: what the process wrote to stderr. One still running
        is aborted first (it runs under -X faulthandler: its threads' stacks are printed)."""
        if self.proc.stderr.closed:
            return ""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGABRT)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)
        text = self.proc.stderr.read().decode(errors="replace").strip()
        return f"; its stderr: {text[-4000:]}" if text else "; its stderr is empty"

    def wait_ready(self) -> dict:
        while True:
            event = self.read(30)
            if event.get("ready"):
                return event

    def send(self, line: str) -> None:
        self.proc.stdin.write(line.encode() + b"\n")

    def quit(self) -> int:
        if self.proc.poll() is None:
            try:
                self.send("quit")
                self.proc.wait(15)
            except (subprocess.TimeoutExpired, BrokenPipeError):
                self.proc.kill()
                self.proc.wait(5)
        if not self.proc.stderr.closed:
            self.errors = self.proc.stderr.read().decode(errors="replace")
        for stream in (self.proc.stdin, self.proc.stderr):
            if not stream.closed:
                stream.close()
        return self.proc.returncode

    def close(self) -> None:
        self.quit()
        if not self.proc.stdout.closed:
            self.proc.stdout.close()


@pytest.fixture
def start_app(xsession, tmp_path):
    started: list[AppProcess] = []

    def start(env_extra: dict[str, str] | None = None, data_dir: Path | None = None):
        folder = data_dir or tmp_path / "data"
        folder.mkdir(mode=0o700, exist_ok=True)
        env = dict(
            xsession.env,
            QT_QPA_PLATFORM="xcb",
            COMPANION_HOME=str(folder),
            PYTHONPATH=str(ROOT),
            **(env_extra or {}),
        )
        app = AppProcess(env)
        started.append(app)
        return app

    yield start
    for app in started:
        app.close()


@pytest.fixture
def spawn():
    """spawn(env, cmd=None) -> a JSON-line process (the app harness by default),
    stopped at the end of the test."""
    started: list[AppProcess] = []

    def start(env: dict[str, str], cmd: list[str] | None = None) -> AppProcess:
        proc = AppProcess(dict(env, PYTHONPATH=str(ROOT)), cmd=cmd)
        started.append(proc)
        return proc

    yield start
    for proc in reversed(started):
        proc.close()


@pytest.fixture
def harness_dir() -> Path:
    return HERE
