"""Cutting a rehearsal take into segments, and keeping a take only as a private file."""

from __future__ import annotations

import datetime as dt
import wave
from array import array

import pytest

from companion.core.voice.rehearsal import keep_take, segment_takes
from companion.core.voice.take import read_wav
from companion.core.voice.vad import Span


def test_segments_get_their_speech_pauses_and_rate():
    spans = [Span(0.5, 4.0), Span(6.5, 9.0), Span(9.6, 12.0), Span(12.2, 20.0)]
    marks = [("identity", "Who I am", 0.0), ("evidence", "Strongest evidence", 12.1)]
    segs = segment_takes(spans, marks, 21.0, {"identity": 20, "evidence": 30})
    who, evidence = segs
    assert (who.start, who.end) == (0.0, 12.1)
    assert who.speaking_seconds == pytest.approx(3.5 + 2.5 + 2.4)
    assert [(p.start, p.length) for p in who.pauses] == [(4.0, 2.5)]  # 0.6 s is no pause
    assert who.wpm == pytest.approx(20 * 60 / 8.4)
    assert evidence.speaking_seconds == pytest.approx(7.8)
    assert evidence.pauses == ()
    assert evidence.wpm == pytest.approx(30 * 60 / 7.8)


def test_a_segment_without_speech_has_no_rate():
    (seg,) = segment_takes([], [("identity", "Who I am", 0.0)], 5.0, {"identity": 12})
    assert seg.speaking_seconds == 0 and seg.wpm is None


def test_a_kept_take_is_a_private_wav_in_the_data_folder(tmp_path):
    samples = array("h", [0, 1000, -1000, 32767] * 4000)
    when = dt.datetime(2026, 12, 1, 9, 30, 5)
    path = keep_take(samples, 16000, tmp_path, when)
    assert path == tmp_path / "takes" / "rehearsal-20261201-093005.wav"
    assert path.stat().st_mode & 0o777 == 0o600
    assert path.parent.stat().st_mode & 0o777 == 0o700
    take = read_wav(path)
    assert take.sample_rate == 16000 and take.samples == samples
    with wave.open(str(path)) as wav:
        assert wav.getnchannels() == 1
    again = keep_take(samples, 16000, tmp_path, when)
    assert again.name == "rehearsal-20261201-093005-2.wav"
    assert sorted(p.name for p in (tmp_path / "takes").iterdir()) == [
        "rehearsal-20261201-093005-2.wav",
        "rehearsal-20261201-093005.wav",
    ]


def test_a_kept_take_makes_its_folders_private_whatever_the_umask(tmp_path):
    """The takes folder and a missing data folder above it follow the one 0700 rule."""
    import os

    data = tmp_path / "new" / "data"
    old = os.umask(0)
    try:
        path = keep_take(array("h", [0, 1] * 800), 16000, data, dt.datetime(2026, 12, 1, 9, 0))
    finally:
        os.umask(old)
    for folder in (path.parent, data, data.parent):
        assert folder.stat().st_mode & 0o777 == 0o700, folder


def test_a_take_that_cannot_get_its_folder_says_why_in_one_line(tmp_path):
    (tmp_path / "takes").write_text("a file where the folder goes")
    with pytest.raises(OSError) as raised:
        keep_take(array("h", [0, 1] * 800), 16000, tmp_path, dt.datetime(2026, 12, 1, 9, 0))
    assert "is a file, not a folder" in raised.value.strerror
