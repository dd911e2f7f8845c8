"""`companion about rehearse` on spoken takes, and `companion mic check` against a real
(private) PulseAudio server whose default source hears a WAV file played into it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pulse
import pytest
import voice_takes as vt
from rehearse_pages import ONE_PAGER, needs_tools

from companion.cli import main

ROOT = Path(__file__).resolve().parents[2]


@needs_tools
def test_rehearse_times_a_spoken_take(tmp_path, capsys):
    page = tmp_path / "about.md"
    page.write_text(ONE_PAGER, encoding="utf-8")
    p = vt.PARAGRAPHS
    take = vt.build(tmp_path, "take", 160, [0.5, p[0], 3.0, p[1], 0.4, p[2], 0.5])
    code = main(["about", "rehearse", "--audio", str(take.path), "--input", str(page), "--json"])
    assert code == 0
    out = json.loads(capsys.readouterr().out)
    assert out["words"] == take.words
    assert out["measured_wpm"] == pytest.approx(take.delivered_wpm, rel=0.15)
    assert len(out["pauses"]) == 1
    start, length = out["pauses"][0]
    assert start == pytest.approx(take.truth[0][1], abs=0.15)
    assert length == pytest.approx(take.truth[1][0] - take.truth[0][1], abs=0.3)
    assert out["answer_seconds"] == pytest.approx(take.truth[-1][1] - take.truth[0][0], abs=0.3)
    assert out["verdict"] == "short: under 60 s"


def test_rehearse_refuses_what_is_not_a_take(tmp_path, capsys):
    page = tmp_path / "about.md"
    page.write_text(ONE_PAGER, encoding="utf-8")
    assert main(["about", "rehearse", "--audio", str(tmp_path), "--input", str(page)]) == 1
    err = capsys.readouterr().err
    assert (
        err.strip()
        == f"companion: about: {tmp_path} is a folder, not a regular file; it was not read."
    )
    bad = tmp_path / "bad.wav"
    bad.write_bytes(b"RIFF0000WAVEjunk")
    assert main(["about", "rehearse", "--audio", str(bad), "--input", str(page)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and str(bad) in err


def test_rehearse_of_silence_says_no_speech(tmp_path, capsys):
    page = tmp_path / "about.md"
    page.write_text(ONE_PAGER, encoding="utf-8")
    import wave

    quiet = tmp_path / "quiet.wav"
    with wave.open(str(quiet), "wb") as wav:
        wav.setnchannels(1)
        wav.setsampwidth(2)
        wav.setframerate(16000)
        wav.writeframes(bytes(32000 * 3))
    assert main(["about", "rehearse", "--audio", str(quiet), "--input", str(page)]) == 1
    assert "no speech heard" in capsys.readouterr().out


def _companion(*args: str, env: dict, timeout: float = 60) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "companion", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def test_mic_list_with_no_audio_server_says_why_in_one_line(tmp_path):
    """No device, no server: the reason in the app's words, Qt's PulseAudio line kept off
    stderr (it used to be all that was said)."""
    env = dict(os.environ, PULSE_SERVER=f"unix:{tmp_path}/no-server", XDG_RUNTIME_DIR=str(tmp_path))
    env.pop("DBUS_SESSION_BUS_ADDRESS", None)
    done = _companion("mic", "list", env=env)
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.count("\n") == 1, done.stderr
    assert done.stderr.startswith("companion: mic list: "), done.stderr
    assert "PulseAudioService" not in done.stderr and "pa_context" not in done.stderr
    assert "no audio server answered" in done.stderr or "could not load" in done.stderr


def test_a_qtmultimedia_import_error_names_its_cause():
    from companion.ui.voice.listener import audio_missing

    absent = ModuleNotFoundError("No module named 'PySide6.QtMultimedia'")
    absent.name = "PySide6.QtMultimedia"
    assert "is not installed" in audio_missing(absent)
    broken = ImportError("libpulse.so.0: cannot open shared object file: No such file or directory")
    said = audio_missing(broken)
    assert "could not load" in said and "libpulse.so.0" in said


def test_mic_check_rejects_absurd_seconds(tmp_path):
    done = _companion("mic", "check", "--seconds", "0", env=dict(os.environ))
    assert done.returncode == 2
    assert done.stderr.strip() == (
        "companion: mic check: --seconds 0 is outside 1-60; see companion mic check --help"
    )


def test_mic_check_without_an_audio_server_says_no_sound_server(tmp_path):
    env = {**os.environ, "PULSE_SERVER": f"unix:{tmp_path}/nothing-here"}
    done = _companion("mic", "check", "--seconds", "1", "--json", env=env)
    assert done.returncode == 1, done.stderr
    assert json.loads(done.stdout)["verdict"] == "no sound server"
    assert "Traceback" not in done.stderr
    assert "pa_context_connect" not in done.stderr  # Qt's own line, off stderr


@pytest.fixture
def server(tmp_path):
    srv = pulse.start(tmp_path)
    yield srv
    srv.stop()


def _over_and_over(wav: Path, times: int) -> Path:
    """``wav`` ``times`` over, as one file: played before a check starts, it is still
    playing when the check's microphone opens, however long a loaded machine takes to
    start the check (an 8-11 s file was over before a check started at load 24)."""
    out = wav.with_name(f"{wav.stem}-x{times}.wav")
    subprocess.run(["sox", str(wav), str(out), "repeat", str(times - 1)], check=True)
    return out


@needs_tools
@pytest.mark.slow
def test_mic_check_hears_speech_from_the_audio_server(server, tmp_path):
    take = vt.build(tmp_path, "spoken", 160, [0.5, vt.PARAGRAPHS[0]], snr_db=None)
    server.play(_over_and_over(take.path, 6))  # about a minute of speech
    check = subprocess.Popen(
        [sys.executable, "-m", "companion", "mic", "check", "--seconds", "4", "--json"],
        cwd=ROOT,
        env=server.env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    seen_open = []
    while check.poll() is None and not seen_open:
        seen_open = server.source_outputs()  # the open microphone shows up in the server
        time.sleep(0.1)
    stdout, stderr = check.communicate(timeout=60)
    assert seen_open, "the check never opened the microphone"
    assert check.returncode == 0, (stdout, stderr)
    out = json.loads(stdout)
    assert out["verdict"] == "heard speech"
    assert "vmic" in out["device"]
    assert out["speech_seconds"] >= 1.5
    assert out["peak_dbfs"] > -20
    # privacy: the microphone is closed once the check is over
    assert server.source_outputs() == []


@needs_tools
@pytest.mark.slow
def test_mic_check_reports_silence_for_a_silent_file(server, tmp_path):
    quiet = vt.silence(60.0, tmp_path / "quiet.wav")  # outlasts a slow start (see above)
    server.play(quiet)
    done = _companion("mic", "check", "--seconds", "3", "--json", env=server.env)
    assert done.returncode == 1, (done.stdout, done.stderr)
    out = json.loads(done.stdout)
    assert out["verdict"] == "too quiet"
    assert out["speech_seconds"] == 0
    assert server.source_outputs() == []


@needs_tools
@pytest.mark.slow
def test_mic_check_text_output_and_a_named_device(server, tmp_path):
    done = _companion("mic", "list", "--json", env=server.env)
    assert done.returncode == 0
    assert any(d["id"] == "vmic" and d["default"] for d in json.loads(done.stdout))
    # a hang is caught by the run's own timeout (60 s), not by a wall-clock bound on it
    done = _companion("mic", "check", "--seconds", "1", "--device", "vmic", env=server.env)
    assert "device: Virtual Source vmic" in done.stdout
    assert "verdict: muted" in done.stdout  # the virtual mic, fed nothing, sends zeros
    done = _companion("mic", "check", "--seconds", "1", "--device", "nope", env=server.env)
    assert done.returncode == 1
    assert "verdict: no input device: no input device matches 'nope'." in done.stdout
