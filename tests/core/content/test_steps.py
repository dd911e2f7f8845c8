"""Step times: a nudge that follows a step moves with the step's minutes, and the card
says which step times are the guide's and which the project's."""

from __future__ import annotations

from pathlib import Path

from companion.core.content.loader import load_content
from companion.core.cue.rounds import build_sections, round_infos
from companion.core.cue.timebox import timebox_nudges
from companion.core.paths import shipped_content_dir


def _nudge_at(content, words: str) -> float:
    nudges = timebox_nudges(content.section("coding-nudges"), 45, content.round_defaults())
    return next(n.at for n in nudges if n.text.startswith(words))


def test_a_two_minute_coding_setup_moves_the_setup_nudge(tmp_path: Path, content) -> None:
    assert _nudge_at(content, "Setup done?") == 1
    assert _nudge_at(content, "Signature and data model") == 4
    moves = (shipped_content_dir() / "31-coding-moves.md").read_text(encoding="utf-8")
    folder = tmp_path / "pack"
    folder.mkdir()
    (folder / "moves.md").write_text(
        moves.replace("  id: setup\n  minutes: 1", "  id: setup\n  minutes: 2"), encoding="utf-8"
    )
    mine, errors = load_content([shipped_content_dir(), folder])
    assert errors == []
    assert _nudge_at(mine, "Setup done?") == 2
    assert _nudge_at(mine, "Signature and data model") == 5  # every later step moves too


def test_a_nudge_after_a_step_that_does_not_exist_is_reported(tmp_path: Path) -> None:
    folder = tmp_path / "pack"
    folder.mkdir()
    (folder / "n.md").write_text(
        "---\nid: my-nudges\nkind: nudges\ntitle: N\nminutes: 45\nsteps: coding-moves\n---\n"
        "- Done?\n  after_step: warm-up\n",
        encoding="utf-8",
    )
    _content, errors = load_content([shipped_content_dir(), folder])
    assert [e.message for e in errors] == ["after_step: coding-moves has no step 'warm-up'"]


def test_the_card_marks_the_guides_step_time_apart_from_the_projects(content) -> None:
    info = next(r for r in round_infos(content) if r.id == "coding")
    moves = next(s for s in build_sections(content, info) if s.id == "coding-moves")
    metas = {line.text: line.meta for line in moves.lines}
    assert metas["Setup"] == "1 min (guide)"
    assert metas["Signature and data model first"] == "2-3 min (ours)"
    design = next(r for r in round_infos(content) if r.id == "design")
    move = next(s for s in build_sections(content, design) if s.id == "design-move")
    assert move.lines[0].meta == "3-5 min (ours)"


def test_the_cards_sections_carry_the_packs_introductions(content) -> None:
    """The card's fold headers get the guide's framing: structure, not a script; talk
    while you work; recover in one breath; why a specific closing line."""
    info = next(r for r in round_infos(content) if r.id == "coding")
    intros = {s.id: s.intro for s in build_sections(content, info)}
    assert "structure, not a script" in intros["@pitch-outline"]
    assert "Talk while you work" in intros["coding-moves"]
    assert "one breath" in intros["recovery"]
    assert "great chat, thanks" in intros["closing"] and "notes" in intros["closing"]
