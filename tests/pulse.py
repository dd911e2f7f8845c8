"""The private PulseAudio server of benchmarks/pulse_server.py for the microphone tests
(loaded by path by the tests that need it; not a test module): ``start()`` skips the
test, naming the reason, where the server cannot start."""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path

import pytest

_PATH = Path(__file__).resolve().parents[1] / "benchmarks" / "pulse_server.py"
_spec = importlib.util.spec_from_file_location("pulse_server", _PATH)
_module = importlib.util.module_from_spec(_spec)
sys.modules.setdefault("pulse_server", _module)  # dataclasses look their module up by name
_spec.loader.exec_module(_module)
server_module = sys.modules["pulse_server"]

PulseServer = server_module.PulseServer
missing = server_module.missing
unplug = server_module.unplug
plug_in = server_module.plug_in


def start(folder: Path) -> PulseServer:
    """Start the server or pytest.skip with the reason it could not start. It starts off
    the session bus: the suite's workers (pytest-xdist) share one private bus, where
    only the first server could take the name org.PulseAudio1 (the others gave up)."""
    bus = os.environ.pop("DBUS_SESSION_BUS_ADDRESS", None)
    try:
        server = server_module.launch(folder)
    finally:
        if bus is not None:
            os.environ["DBUS_SESSION_BUS_ADDRESS"] = bus
    if isinstance(server, str):
        pytest.skip(f"no audio server: {server}")
    return server
