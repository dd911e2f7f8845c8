"""The mic check's verdicts each have their own words (issue 39): a muted input (pure
digital silence) is not a quiet one, and no sound server is not a missing microphone."""

from __future__ import annotations

from array import array

from companion.core.voice import check
from companion.core.voice.levels import measure


def test_a_muted_input_is_muted_and_a_quiet_one_is_quiet():
    muted = check.judge("mic", measure(array("h", bytes(2 * 48000))), 0.0, 3.0)
    hiss = array("h", ((i * 7919) % 41 - 20 for i in range(48000)))  # a live mic's floor
    quiet = check.judge("mic", measure(hiss), 0.0, 3.0)
    assert muted.verdict == check.MUTED and "muted" in muted.message
    assert quiet.verdict == check.TOO_QUIET and quiet.message != muted.message


def test_no_sound_server_is_told_apart_from_no_device(tmp_path):
    nothing = {"XDG_RUNTIME_DIR": str(tmp_path), "PULSE_SERVER": ""}
    assert not check.sound_server_running(nothing)
    assert not check.sound_server_running({"PULSE_SERVER": f"unix:{tmp_path}/none"})
    (tmp_path / "pulse").mkdir()
    (tmp_path / "pulse" / "native").touch()
    assert check.sound_server_running(nothing)
    assert check.no_server().verdict == check.NO_SERVER
    assert check.no_server().message != check.CheckResult(check.NO_DEVICE, "").message


def test_a_server_found_where_libpulse_looks_without_a_runtime_folder(tmp_path):
    """As root or over ssh there is no XDG_RUNTIME_DIR: PulseAudio keeps its socket under
    ~/.config/pulse/<machine-id>-runtime (pactl found it; the card said no server ran)."""
    home = tmp_path / "home"
    bare = {"HOME": str(home), "PULSE_SERVER": ""}
    runtime = home / ".config" / "pulse" / "0123abcd-runtime"
    runtime.mkdir(parents=True)
    assert not check.sound_server_running(bare)
    (runtime / "native").touch()
    assert check.sound_server_running(bare)
    # a runtime folder of its own wins: libpulse looks there, not in the home
    assert not check.sound_server_running({**bare, "XDG_RUNTIME_DIR": str(tmp_path / "run")})
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    assert not check.sound_server_running({**bare, "PULSE_RUNTIME_PATH": str(elsewhere)})
    (elsewhere / "native").touch()
    assert check.sound_server_running({"PULSE_RUNTIME_PATH": str(elsewhere)})


def test_the_level_bar_says_why_it_shows_no_level(tmp_path):
    """The preflight's level bar: no sound server, no device, muted and quiet each in
    words (it used to stay blank when the mic did not open)."""
    nothing = {"XDG_RUNTIME_DIR": str(tmp_path), "PULSE_SERVER": ""}
    assert "no sound server" in check.closed_words("no input device found.", nothing)
    (tmp_path / "pulse").mkdir()
    (tmp_path / "pulse" / "native").touch()
    said = check.closed_words("no input device found: plug in a microphone.", nothing)
    assert said == "no level: no input device found: plug in a microphone"
    assert check.closed_words("", nothing) == "no level: the microphone did not open"
    silence = measure(array("h", bytes(3200))).peak_dbfs
    hiss = measure(array("h", ((i * 7919) % 41 - 20 for i in range(3200)))).peak_dbfs
    assert check.level_words(silence).startswith("muted")
    assert check.level_words(hiss).startswith("quiet")
    assert check.level_words(-6.0) == "level: peak -6 dBFS; no speech heard yet"
    assert check.level_words(-6.0, heard=True) == "level: peak -6 dBFS; speech heard"
    assert check.level_words(hiss, heard=True).endswith("; speech heard")
