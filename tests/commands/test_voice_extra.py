"""Hearing is an optional extra: the base install has no pocketsphinx (5.1.1 has wheels for
CPython 3.11 and 3.13 only), and where it is missing the command that needs it says, in
one line with no traceback, how to add it; the timing still stands."""

from __future__ import annotations

import math
import sys
import tomllib
import wave
from array import array
from pathlib import Path

from rehearse_pages import one_pager

from companion.cli import main

PYPROJECT = Path(__file__).resolve().parents[2] / "pyproject.toml"
ADD_IT = "pip install 'interview-companion[voice]'"


def test_pocketsphinx_is_the_voice_extra_and_the_tests_pull_it_in():
    project = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))["project"]
    assert not [d for d in project["dependencies"] if d.startswith("pocketsphinx")]
    extras = project["optional-dependencies"]
    assert extras["voice"] == ["pocketsphinx==5.1.1"]
    assert "interview-companion[voice]" in extras["test"]


def test_rehearse_without_the_voice_extra_says_how_to_add_it(tmp_path, capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "pocketsphinx", None)  # as if not installed
    take = tmp_path / "take.wav"
    with wave.open(str(take), "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(16000)
        # a second of quiet, then two of a voiced buzz (harmonics of 140 Hz, syllable-paced)
        frames = array("h", [0] * 16000)
        for i in range(32000):
            t = i / 16000
            gate = 1.0 if math.sin(2 * math.pi * 4 * t) > -0.3 else 0.05
            tone = sum(math.sin(2 * math.pi * 140 * k * t) / k for k in range(1, 12))
            frames.append(int(4000 * gate * tone))
        out.writeframes(frames.tobytes())
    page = tmp_path / "about.md"
    page.write_text(one_pager("[breathe]"), encoding="utf-8")
    main(["about", "rehearse", "--audio", str(take), "--input", str(page), "--json"])
    captured = capsys.readouterr()
    err = captured.err.strip().splitlines()
    assert len(err) == 1 and ADD_IT in err[0] and "Traceback" not in captured.err
    assert '"seconds"' in captured.out  # the timing still stands
