"""Takes you can compare: `companion about rehearse --keep` stores a spoken take's figures
(never its audio), `companion about takes` lists them oldest first and deletes one, and
the journal's JSON export and import carry them."""

from __future__ import annotations

import contextlib
import io
import json
import shutil

import pytest
import voice_takes as vt
from rehearse_pages import ONE_PAGER, needs_tools

from companion.cli import main
from companion.core.about.takes import NOT_FIGURES, what_changed

# the two tests of kept takes share one module fixture: on one xdist worker
KEPT = pytest.mark.xdist_group("about_takes")


@pytest.fixture(scope="module")
def kept_template(tmp_path_factory, hear_each_take_once_in_module):
    """Two spoken takes (espeak-ng), each rehearsed and kept through the CLI into one data
    folder, once for the module (the speaking and the hearing cost most of a minute)."""
    if vt.missing_tools():
        pytest.skip(vt.missing_tools())
    folder = tmp_path_factory.mktemp("takes")
    data = folder / "data"
    data.mkdir(mode=0o700)
    page = folder / "about.md"
    page.write_text(ONE_PAGER, encoding="utf-8")
    p = vt.PARAGRAPHS
    slow = vt.build(folder, "slow", 130, [0.5, p[0], 3.0, p[1], 0.4, p[2], 0.5])
    fast = vt.build(folder, "fast", 190, [0.5, p[0], 0.4, p[1], 0.4, p[2], 0.5])
    kept = []
    for take in (slow, fast):
        argv = ["--data-dir", str(data), "about", "rehearse", "--audio", str(take.path)]
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            assert main([*argv, "--input", str(page), "--json", "--keep"]) == 0
        kept.append(json.loads(out.getvalue()))
    return data, kept, (slow, fast)


@pytest.fixture
def two_takes(kept_template, data_dir):
    """The kept takes, in this test's own copy of the data folder."""
    template, kept, takes = kept_template
    shutil.copytree(template, data_dir, dirs_exist_ok=True)
    return data_dir, kept, takes


def _strings(value) -> list[str]:
    """Every text inside a kept take's figures."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [t for v in value.values() for t in _strings(v)]
    if isinstance(value, list):
        return [t for v in value for t in _strings(v)]
    return []


def _takes_after(data_dir, capsys, said: str) -> list[dict]:
    """The kept takes, once the text just printed is checked to say ``said``."""
    printed = capsys.readouterr().out
    assert said in printed, printed
    return _takes(data_dir, capsys)


def _takes(data_dir, capsys) -> list[dict]:
    assert main(["--data-dir", str(data_dir), "about", "takes", "--json"]) == 0
    return json.loads(capsys.readouterr().out)["takes"]


@needs_tools
@KEPT
def test_kept_takes_are_listed_oldest_first_without_audio(two_takes, capsys):
    data_dir, kept, (slow, fast) = two_takes
    takes = _takes(data_dir, capsys)
    assert [t["id"] for t in takes] == [k["kept"] for k in kept]
    for take, out in zip(takes, kept, strict=True):
        assert {"at", "seconds", "measured_wpm", "fillers", "skipped", "pauses"} <= set(take)
        assert take["seconds"] == out["answer_seconds"]
        assert take["measured_wpm"] == out["measured_wpm"]
        assert take["pauses"] == len(out["pauses"])
        assert str(slow.path.parent) not in json.dumps(take)  # no path, no audio
        assert not set(take) & NOT_FIGURES, set(take) & NOT_FIGURES
        said = [v for v in _strings(take) if " " in v.strip()]
        assert said == [], f"words of the take were kept: {said}"  # figures, not text
    assert takes[0]["measured_wpm"] < takes[1]["measured_wpm"]
    assert takes[0]["at"] <= takes[1]["at"]
    assert main(["--data-dir", str(data_dir), "about", "takes"]) == 0
    text = capsys.readouterr().out
    assert "changed most" in text
    # delete one by one
    assert (
        main(["--data-dir", str(data_dir), "about", "takes", "--delete", str(takes[0]["id"])]) == 0
    )
    capsys.readouterr()
    assert [t["id"] for t in _takes(data_dir, capsys)] == [takes[1]["id"]]
    assert main(["--data-dir", str(data_dir), "about", "takes", "--delete", "999"]) == 1
    assert "no kept take has id 999" in capsys.readouterr().err


@needs_tools
@KEPT
def test_kept_takes_travel_in_the_journal_export(two_takes, capsys, tmp_path):
    data_dir, _kept, _wavs = two_takes
    before = _takes(data_dir, capsys)
    out = tmp_path / "journal.json"
    assert (
        main(["--data-dir", str(data_dir), "journal", "export", "--format", "json", "-o", str(out)])
        == 0
    )
    doc = json.loads(out.read_text(encoding="utf-8"))
    assert len(doc["rehearsal_takes"]) == 2
    other = tmp_path / "other"
    other.mkdir()
    assert main(["--data-dir", str(other), "journal", "import", "--format", "json", str(out)]) == 0
    assert (
        main(["--data-dir", str(other), "journal", "import", "--format", "json", str(out)]) == 0
    )  # twice: nothing added twice
    capsys.readouterr()
    after = _takes(other, capsys)
    strip = [{k: v for k, v in t.items() if k != "id"} for t in before]
    assert [{k: v for k, v in t.items() if k != "id"} for t in after] == strip


@needs_tools
def test_without_keep_nothing_is_kept(tmp_path, data_dir, capsys):
    """A rehearsal from audio without --keep writes no take (the test used to look at an
    empty folder only, so a rehearse that always kept passed it)."""
    page = tmp_path / "about.md"
    page.write_text(ONE_PAGER, encoding="utf-8")
    p = vt.PARAGRAPHS
    take = vt.build(tmp_path, "unkept", 160, [0.5, p[0], 0.4, p[1], 0.4, p[2], 0.5])
    argv = ["--data-dir", str(data_dir), "about", "rehearse", "--audio", str(take.path)]
    assert main([*argv, "--input", str(page), "--json"]) == 0
    assert "kept" not in json.loads(capsys.readouterr().out)
    assert _takes(data_dir, capsys) == []


def test_what_changed_names_the_figure_that_moved_most():
    a = {"answer_seconds": 80.0, "measured_wpm": 140.0, "fillers": 2}
    b = {"answer_seconds": 82.0, "measured_wpm": 150.0, "fillers": 6}
    assert (
        what_changed(a, b) == "Your fillers changed most: up from 2 to 6 since the previous take."
    )
    assert what_changed(a, a) == "Nothing changed much since the previous take."


@needs_tools
@KEPT
def test_keep_works_with_the_saved_one_pager(
    tmp_path, data_dir, capsys, kept_template, hear_each_take_once_in_module
):
    """Without --input the one-pager's read opened the journal read-only, so --keep failed
    with 'attempt to write a readonly database'; the text output says the take was kept
    (it said nothing)."""
    from companion.core.about import store
    from companion.core.context import AppContext

    ctx = AppContext(data_dir)
    store.save_text(ctx.db, ONE_PAGER, ctx.now())
    ctx.close()
    # the template's fast take: the one-pager saved is the one it was rehearsed with, so
    # its decode is the template's (decoded once; the path under test is the journal's)
    take = kept_template[2][1]
    argv = ["--data-dir", str(data_dir), "about", "rehearse", "--audio", str(take.path)]
    assert main([*argv, "--keep"]) == 0
    (take_id,) = [t["id"] for t in _takes_after(data_dir, capsys, "kept as take")]
    assert take_id == 1
