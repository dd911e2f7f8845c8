"""A private PulseAudio server with a virtual microphone fed from a WAV file (shared by
benchmarks/bench_voice.py and, through tests/pulse.py, the microphone tests).

The server runs in a scratch runtime folder with a null sink ``nul`` and a virtual
source ``vmic`` on the sink's monitor (Qt lists no monitor sources, hence the virtual
one), made the default source. ``play(wav)`` plays a file into ``nul`` in real time, so
a QAudioSource on ``vmic`` hears it. ``stop()`` kills the players and the server.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path


def missing() -> str | None:
    tools = [t for t in ("pulseaudio", "pactl", "paplay") if shutil.which(t) is None]
    return f"{', '.join(tools)} not installed (pulseaudio, pulseaudio-utils)" if tools else None


@dataclass
class PulseServer:
    runtime: Path
    process: subprocess.Popen
    env: dict = field(default_factory=dict)
    players: list = field(default_factory=list)

    @property
    def address(self) -> str:
        """For PULSE_SERVER, in a process whose runtime folder is elsewhere."""
        return f"unix:{self.runtime}/pulse/native"

    def pactl(self, *args: str) -> str:
        done = subprocess.run(
            ["pactl", *args], env=self.env, capture_output=True, text=True, timeout=20
        )
        if done.returncode != 0:
            raise RuntimeError(f"pactl {' '.join(args)}: {done.stderr.strip()}")
        return done.stdout

    def play(self, wav: Path) -> subprocess.Popen:
        player = subprocess.Popen(
            ["paplay", "-d", "nul", str(wav)],
            env=self.env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        self.players.append(player)
        return player

    def source_outputs(self) -> list[str]:
        """Clients' streams recording from any source: empty when no app has a microphone
        open (the virtual source's own stream from the sink monitor has no client)."""
        rows = [r.split("\t") for r in self.pactl("list", "short", "source-outputs").splitlines()]
        return ["\t".join(row) for row in rows if len(row) > 2 and row[2] != "-"]

    def stop_players(self) -> None:
        for player in self.players:
            if player.poll() is None:
                player.kill()
            player.wait(timeout=10)
        self.players.clear()

    def stop(self) -> None:
        self.stop_players()
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)


def launch(folder: Path, wait: float = 15.0) -> PulseServer | str:
    """The running server, or why it could not start (one line)."""
    reason = missing()
    if reason:
        return reason
    runtime = folder / "pulse-runtime"
    home = folder / "pulse-home"
    runtime.mkdir(mode=0o700, parents=True, exist_ok=True)
    home.mkdir(parents=True, exist_ok=True)
    env = {
        **os.environ,
        "XDG_RUNTIME_DIR": str(runtime),
        "PULSE_RUNTIME_PATH": str(runtime / "pulse"),
        "HOME": str(home),
        "XDG_CONFIG_HOME": str(home / ".config"),
    }
    env.pop("PULSE_SERVER", None)
    log_path = folder / "pulseaudio.log"
    with open(log_path, "wb") as log:
        process = subprocess.Popen(
            [
                "pulseaudio",
                "--daemonize=no",
                "--exit-idle-time=-1",
                "-n",
                "--use-pid-file=no",
                "--system=no",
                "--disallow-module-loading=no",
                "-L",
                "module-native-protocol-unix",
                "-L",
                "module-null-sink sink_name=nul",
                "-L",
                "module-virtual-source source_name=vmic master=nul.monitor",
            ],  # fmt: skip
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
    server = PulseServer(runtime, process, env)
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline:
        if process.poll() is not None:
            lines = log_path.read_text(errors="replace").strip().splitlines()
            return f"pulseaudio could not start: {lines[-1] if lines else process.returncode}"
        try:
            server.pactl("set-default-source", "vmic")
            return server
        except (RuntimeError, subprocess.TimeoutExpired):
            time.sleep(0.2)
    server.stop()
    return f"pulseaudio did not answer within {wait:.0f} s"


def unplug(server: PulseServer, on: bool = True) -> None:
    """Stop the virtual microphone's sound, as an unplugged one does. (Unloading its
    module is no test: PulseAudio moves the stream to the sink's monitor and Qt 6.11
    neither reports the device gone nor the stream moved.)"""
    server.pactl("suspend-source", "vmic", "1" if on else "0")


def plug_in(server: PulseServer) -> None:
    unplug(server, on=False)
