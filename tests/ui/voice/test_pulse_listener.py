"""MicListener on Linux reads the default microphone from the sound server through
libpulse (core/platform/pulse_capture.py), not QtMultimedia, whose FFmpeg backend was
most of the card's following memory. Against real PulseAudio servers: sound arrives as
16 kHz int16 chunks with no QtMultimedia import, and no server, a server killed
mid-stream and a muted source each say so in the app's words."""

from __future__ import annotations

import json
import math
import sys
import wave
from pathlib import Path

import pulse
import pytest

from companion.core.platform import pulse_capture
from companion.ui.voice.listener import NO_INPUT_WORDS, NO_SERVER_WORDS, MicListener

pytestmark = [
    pytest.mark.gui,
    pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the Linux path"),
    pytest.mark.skipif(not pulse_capture.available(), reason="libpulse is not installed"),
]


def _sine(folder: Path, seconds: float = 6.0) -> Path:
    """A 440 Hz tone at half scale, 16 kHz mono: sound the virtual microphone hears."""
    path = folder / "tone.wav"
    rate = 16000
    frames = bytearray()
    for i in range(int(seconds * rate)):
        frames += int(16000 * math.sin(2 * math.pi * 440 * i / rate)).to_bytes(
            2, "little", signed=True
        )
    with wave.open(str(path), "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(rate)
        out.writeframes(bytes(frames))
    return path


CHILD = """
import json, sys
from PySide6.QtCore import QCoreApplication, QTimer
app = QCoreApplication([])
from companion.ui.voice.listener import MicListener

mic = MicListener()
said = {"opened": None, "rates": set(), "samples": 0, "peak": 0, "errors": []}
mic.opened.connect(lambda name: said.update(opened=name))
mic.error.connect(said["errors"].append)

def chunk(samples, rate):
    said["rates"].add(rate)
    said["samples"] += len(samples)
    said["peak"] = max(said["peak"], max(abs(s) for s in samples))
    if said["peak"] > 8000 and said["samples"] > 16000:
        app.quit()

mic.chunk.connect(chunk)
assert mic.start()
QTimer.singleShot(20000, app.quit)
app.exec()
mic.stop()
said["rates"] = sorted(said["rates"])
said["typecode"] = mic.samples.typecode
said["qt_multimedia"] = "PySide6.QtMultimedia" in sys.modules
print(json.dumps(said))
"""


@pytest.mark.parametrize("portable", [False, True])
def test_the_default_microphone_is_read_from_the_sound_server_without_qtmultimedia(
    session_server, tmp_path, portable
):
    """In a fresh interpreter (this one may have imported QtMultimedia already). The
    portable services (COMPANION_PORTABLE=1, what a Mac or Windows build meets) keep
    QtMultimedia, and hear the same."""
    from app_child import run_child

    env = {"PULSE_SERVER": session_server.address, "COMPANION_PORTABLE": "1" if portable else ""}
    env["QT_LOGGING_RULES"] = "qt.multimedia.ffmpeg.info=false"  # FFmpeg's banner, portable
    session_server.play(_sine(tmp_path))
    try:
        done = run_child(CHILD, home=tmp_path, **env)
    finally:
        session_server.stop_players()
    assert done.returncode == 0, done.stderr
    said = json.loads(done.stdout.strip().splitlines()[-1])
    assert said["errors"] == []
    assert said["rates"] == [16000] and said["typecode"] == "h"
    assert said["peak"] > 8000 and said["samples"] > 16000  # the tone, not the silence
    assert said["qt_multimedia"] is portable, "QtMultimedia imported, or not, as it should"
    assert said["opened"] == "Virtual Source vmic on Monitor of Null Output"  # as Qt says it
    assert done.stderr == ""


def test_no_sound_server_is_the_apps_sentence(qtbot, monkeypatch, tmp_path):
    monkeypatch.setenv("PULSE_SERVER", f"unix:{tmp_path}/no-server-here")
    mic = MicListener()
    errors: list[str] = []
    mic.error.connect(errors.append)
    assert not mic.start()
    assert errors == [NO_SERVER_WORDS] and mic.failure == "no device"
    assert not mic.is_open


@pytest.mark.slow
def test_a_server_without_a_source_is_no_input_device(qtbot, monkeypatch, tmp_path):
    server = pulse.start(tmp_path)  # its own: this test takes its sources away
    try:
        server.pactl("unload-module", "module-virtual-source")
        server.pactl("unload-module", "module-null-sink")  # its monitor was a source too
        monkeypatch.setenv("PULSE_SERVER", server.address)
        mic = MicListener()
        errors: list[str] = []
        mic.error.connect(errors.append)
        assert not mic.start()
    finally:
        server.stop()
    assert errors == [NO_INPUT_WORDS] and mic.failure == "no device"


@pytest.mark.slow
def test_a_server_killed_mid_stream_stops_the_mic_and_says_so(qtbot, monkeypatch, tmp_path):
    server = pulse.start(tmp_path)  # its own: this test kills it
    try:
        monkeypatch.setenv("PULSE_SERVER", server.address)
        mic = MicListener()
        errors: list[str] = []
        closed: list[bool] = []
        mic.error.connect(errors.append)
        mic.closed.connect(lambda: closed.append(True))
        assert mic.start()
        qtbot.waitUntil(lambda: mic.seconds > 0.3, timeout=15000)
        server.process.kill()
        server.process.wait(timeout=10)
        qtbot.waitUntil(lambda: bool(errors), timeout=10000)
    finally:
        server.stop()
    assert len(errors) == 1 and errors[0].startswith(
        "the microphone Virtual Source vmic on Monitor of Null Output stopped ("
    )
    assert errors[0].endswith("; the round goes on.")
    assert closed == [True] and not mic.is_open
    mic.stop()  # idempotent after the failure
    assert closed == [True]


@pytest.mark.slow
def test_a_muted_source_is_said_muted_and_unmuting_clears_it(
    qtbot, monkeypatch, session_server, tmp_path
):
    monkeypatch.setenv("PULSE_SERVER", session_server.address)
    session_server.play(_sine(tmp_path, seconds=30.0))
    session_server.pactl("set-source-mute", "vmic", "1")
    mic = MicListener()
    said: list[bool] = []
    mic.muted.connect(said.append)
    try:
        assert mic.start()
        qtbot.waitUntil(lambda: said == [True], timeout=15000)
        session_server.pactl("set-source-mute", "vmic", "0")
        qtbot.waitUntil(lambda: said == [True, False], timeout=10000)
    finally:
        mic.stop()
        session_server.pactl("set-source-mute", "vmic", "0")
        session_server.stop_players()
    qtbot.waitUntil(lambda: session_server.source_outputs() == [], timeout=5000)
