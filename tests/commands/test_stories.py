"""`companion stories check|export` and `companion debrief`: the documented JSON shapes,
exit statuses, and bad files refused in one line without changing anything."""

from __future__ import annotations

import json
import os

import pytest

from companion.cli import main
from companion.core.about import store as about_store
from companion.core.context import AppContext
from companion.core.day.loops import add_round, create_loop
from companion.core.journal import entries
from companion.core.stories.rounds import save_expected

BANK = """## Story: Cut GPU cost
Tags: ownership, impact
Situation: The bill doubled.
Result: Spend fell 40%.

## Story: The schema fight
Tags: conflict
Result: We shipped one schema.
"""


@pytest.fixture
def filled(data_dir):
    ctx = AppContext(data_dir)
    db = ctx.db
    about_store.save_text(db, BANK, ctx.now(), doc="stories")
    loop = create_loop(db, "Acme", "SRE")
    hm = add_round(db, loop, "hiring-manager")
    add_round(db, loop, "coding")
    save_expected(db, hm, ["conflict", "failure"])
    entries.add_asked(db, loop, hm, "A disagreement?", "conflict")
    entries.add_asked(db, loop, hm, "Why leave?", "motivation")
    ctx.close()
    return data_dir


def test_check_json_is_the_documented_shape(filled, capsys):
    assert main(["--data-dir", str(filled), "stories", "check", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert set(out) >= {"stories", "gaps", "warnings"}
    assert out["stories"][0] == {
        "title": "Cut GPU cost",
        "tags": ["ownership", "impact"],
        "seconds": out["stories"][0]["seconds"],
        "has_number": True,
    }
    assert isinstance(out["stories"][0]["seconds"], int)
    assert out["stories"][1]["has_number"] is False
    assert "Why are you leaving your current job?" in out["gaps"]
    assert "Tell me about a conflict with a colleague and how you resolved it" not in out["gaps"]


def test_check_a_file_with_broken_tags_exits_1(tmp_path, data_dir, capsys):
    bad = tmp_path / "bank.md"
    bad.write_text("## Story: A\nTags: own!rship\nResult: 3x\n", encoding="utf-8")
    assert main(["--data-dir", str(data_dir), "stories", "check", str(bad)]) == 1
    err = capsys.readouterr().err
    assert "bank.md:2:" in err and "own!rship" in err and "Traceback" not in err


@pytest.mark.parametrize("kind", ["device", "fifo", "big"])
def test_check_refuses_a_device_a_fifo_or_50_mb_in_one_line(kind, tmp_path, filled, capsys):
    if kind == "device":
        path = "/dev/zero"
    elif kind == "fifo":
        path = tmp_path / "pipe.md"
        os.mkfifo(path)
    else:
        path = tmp_path / "big.md"
        with open(path, "wb") as fh:
            fh.truncate(50 * 1024 * 1024)
    assert main(["--data-dir", str(filled), "stories", "check", str(path)]) == 1
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "not read" in err
    if kind == "big":  # a story bank is not called a one-pager
        assert "a one-pager or a story bank) is at most 10 MB" in err
    ctx = AppContext(filled)
    assert about_store.load_document(ctx.db, doc="stories") == BANK  # nothing changed
    ctx.close()


def test_export_md_writes_the_bank(filled, tmp_path, capsys):
    out = tmp_path / "stories.md"
    assert (
        main(["--data-dir", str(filled), "stories", "export", "--format", "md", "-o", str(out)])
        == 0
    )
    assert out.read_text(encoding="utf-8") == BANK


def test_export_refuses_html(filled, tmp_path, capsys):
    out = tmp_path / "stories.html"
    assert main(["--data-dir", str(filled), "stories", "export", "-o", str(out)]) == 2
    assert not out.exists()


def test_debrief_json_is_the_documented_shape(filled, capsys):
    assert main(["--data-dir", str(filled), "debrief", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    (loop,) = out["loops"]
    assert set(loop) == {"id", "company", "recall", "rounds"}
    assert loop["company"] == "Acme" and loop["recall"] == 0.5
    hm, coding = loop["rounds"]
    assert set(hm) == {"id", "type", "expected", "asked", "hits", "misses", "recall"}
    assert hm["type"] == "hiring-manager"
    assert hm["expected"] == ["conflict", "failure"]
    assert hm["asked"] == ["conflict", "motivation"]
    assert hm["hits"] == ["conflict"] and hm["misses"] == ["motivation"]
    assert coding["recall"] is None  # nothing asked
    assert main(["--data-dir", str(filled), "debrief", "--loop", str(loop["id"]), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["loops"][0]["id"] == loop["id"]


def test_debrief_text_names_rounds_as_today_does(filled, capsys):
    """It said "round 3 behavioral-interview": the type id, not the round's name."""
    assert main(["--data-dir", str(filled), "debrief"]) == 0
    out = capsys.readouterr().out
    assert "Hiring manager: recall 50%" in out and "Coding: recall -" in out, out


def test_debrief_an_unknown_loop_is_one_line(filled, capsys):
    assert main(["--data-dir", str(filled), "debrief", "--loop", "999"]) == 1
    assert capsys.readouterr().err.strip() == "companion: debrief: there is no loop 999"
