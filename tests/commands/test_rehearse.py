"""`companion about rehearse --audio` with the real recognizer on espeak-ng takes (white
noise at 20 dB SNR): the segments heard with their times and rates, a segment left out
reported in ``skipped``, and today's fields unchanged."""

from __future__ import annotations

import json

import pytest
import voice_takes as vt
from rehearse_pages import P, needs_tools, one_pager

from companion.cli import main

ONE_PAGER = one_pager("[breathe]")
TODAY = {"audio", "source", "seconds", "speaking_seconds", "answer_seconds", "first_word",
         "pauses", "words", "measured_wpm", "peak_dbfs", "rms_dbfs", "verdict"}  # fmt: skip


def _rehearse(tmp_path, take, capsys) -> dict:
    page = tmp_path / "about.md"
    page.write_text(ONE_PAGER, encoding="utf-8")
    argv = ["about", "rehearse", "--audio", str(take.path), "--input", str(page), "--json"]
    assert main(argv) == 0
    return json.loads(capsys.readouterr().out)


@pytest.mark.voice
@needs_tools
def test_a_full_take_is_heard_segment_by_segment(tmp_path, capsys):
    take = vt.build(tmp_path, "full", 160, [0.5, P[0], 0.8, P[1], 0.8, P[2], 0.5])
    out = _rehearse(tmp_path, take, capsys)
    assert set(out) >= TODAY
    by_id = {s["id"]: s for s in out["segments"]}
    assert list(by_id) == ["identity", "evidence", "depth", "why-role", "hand-back"]
    assert set(by_id["identity"]) == {"id", "heard", "start", "end", "words_heard", "wpm"}
    for seg_id, (start, end) in zip(("identity", "evidence", "why-role"), take.truth):
        seg = by_id[seg_id]
        assert seg["heard"]
        assert seg["start"] == pytest.approx(start, abs=1.5)
        assert seg["end"] == pytest.approx(end, abs=1.5)
        truth_wpm = (
            len(P[("identity", "evidence", "why-role").index(seg_id)].split()) * 60 / (end - start)
        )
        assert seg["wpm"] == pytest.approx(truth_wpm, rel=0.10)
    assert out["skipped"] == ["depth", "hand-back"]  # not in this one-pager: never heard
    assert out["evidence_spoke_number"] is True
    assert "settlement pipeline" in out["transcript"]
    assert isinstance(out["fillers"], int)


@pytest.mark.voice
@needs_tools
def test_a_segment_left_out_is_reported_skipped(tmp_path, capsys):
    take = vt.build(tmp_path, "skip", 190, [0.5, P[0], 0.8, P[2], 0.5])
    out = _rehearse(tmp_path, take, capsys)
    assert "evidence" in out["skipped"]
    by_id = {s["id"]: s for s in out["segments"]}
    assert not by_id["evidence"]["heard"] and by_id["evidence"]["start"] is None
    assert by_id["why-role"]["heard"]
    assert by_id["why-role"]["start"] == pytest.approx(take.truth[1][0], abs=1.5)
    assert out["evidence_spoke_number"] is None


@pytest.mark.voice
@needs_tools
def test_the_text_report_lists_the_segments(tmp_path, capsys):
    take = vt.build(tmp_path, "text", 160, [0.5, P[0], 0.8, P[2], 0.5], snr_db=None)
    page = tmp_path / "about.md"
    page.write_text(ONE_PAGER, encoding="utf-8")
    assert main(["about", "rehearse", "--audio", str(take.path), "--input", str(page)]) == 0
    out = capsys.readouterr().out
    assert "Strongest evidence: skipped" in out
    assert "Who I am: 0." in out and "words heard" in out


@needs_tools
def test_a_one_pager_without_segments_still_times_the_take(tmp_path, capsys):
    take = vt.build(tmp_path, "plain", 160, [0.5, P[0], 0.5], snr_db=None)
    page = tmp_path / "about.md"
    page.write_text(P[0] + "\n", encoding="utf-8")  # no segment headings: nothing to align
    argv = ["about", "rehearse", "--audio", str(take.path), "--input", str(page), "--json"]
    assert main(argv) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["measured_wpm"] is not None
    assert not any(s["heard"] for s in out["segments"])
    assert out["skipped"] == ["identity", "evidence", "depth", "why-role", "hand-back"]
