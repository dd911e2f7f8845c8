"""Privacy of the voice features: `companion mic check` and `companion about rehearse`
open no network socket (Python-level and, where strace works, system calls) and write no
file; the microphone is closed once the check ends (the audio server lists no stream)."""

from __future__ import annotations

from pathlib import Path

import pulse
import pytest
import test_privacy as privacy
import voice_takes as vt

needs_tools = pytest.mark.skipif(
    vt.missing_tools() is not None, reason=f"espeak-ng/sox: {vt.missing_tools()}"
)


def _files(*folders: Path) -> dict[str, float]:
    out = {}
    for folder in folders:
        if folder.exists():
            for path in folder.rglob("*"):
                out[str(path)] = path.stat().st_mtime_ns if path.is_file() else 0
    return out


@pytest.fixture
def server(tmp_path):
    srv = pulse.start(tmp_path / "audio")
    yield srv
    srv.stop()


@needs_tools
@pytest.mark.slow
def test_mic_check_sends_nothing_writes_nothing_and_closes_the_mic(server, tmp_path):
    take = vt.build(tmp_path / "takes", "spoken", 160, [0.3, vt.PARAGRAPHS[0]], snr_db=None)
    data = tmp_path / "data"
    work = tmp_path / "work"
    work.mkdir()
    before = _files(data, work / "home")
    server.play(take.path)
    env = {k: server.env[k] for k in ("XDG_RUNTIME_DIR", "PULSE_RUNTIME_PATH", "HOME")}
    env["COMPANION_HOME"] = str(data)
    seen = privacy._run_watched(work, ["mic", "check", "--seconds", "3", "--json"], env)
    assert seen["python"] == []
    assert seen["syscalls"] == [], "\n".join(seen["syscalls"][:10])
    assert server.source_outputs() == []
    assert _files(data) == {k: v for k, v in before.items() if k.startswith(str(data))}
    assert not list(work.glob("*.wav"))


@needs_tools
@pytest.mark.slow
def test_rehearse_sends_nothing_and_writes_nothing(tmp_path):
    take = vt.build(tmp_path / "takes", "spoken", 160, [0.3, vt.PARAGRAPHS[0]], snr_db=None)
    page = tmp_path / "about.md"
    page.write_text("# About me\n\n## Who I am\n\n" + vt.PARAGRAPHS[0] + "\n", encoding="utf-8")
    data = tmp_path / "data"
    work = tmp_path / "work"
    work.mkdir()
    before = _files(tmp_path / "takes", data)
    argv = ["about", "rehearse", "--audio", str(take.path), "--input", str(page), "--json"]
    seen = privacy._run_watched(work, argv, {"COMPANION_HOME": str(data)})
    assert seen["python"] == []
    assert seen["syscalls"] == []
    assert _files(tmp_path / "takes", data) == before
    leftovers = [p.name for p in work.iterdir() if p.name not in ("site", "net-report.json")]
    assert leftovers in ([], ["strace.txt"])


def test_the_tripwire_notices_a_written_file(tmp_path):
    """_files must be able to fail: a new file changes it."""
    before = _files(tmp_path)
    (tmp_path / "x.wav").write_bytes(b"")
    assert _files(tmp_path) != before
