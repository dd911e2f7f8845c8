"""The shipped content pack loads cleanly and has the shape the tools rely on."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from companion.core.content.checklist_actions import CHECKLIST_ACTIONS
from companion.core.content.fields import AUDIENCES
from companion.core.content.loader import (
    BUILTIN_SECTIONS,
    PHASES,
    Content,
    content_files,
    load_content,
)
from companion.core.paths import shipped_content_dir

REQUIRED_ROUNDS = ("opening", "design", "coding", "hiring-manager", "peer", "leadership")
EVERY_ROUND_SHOWS = ("traps", "recovery", "@planned-questions", "closing")
LINKS = frozenset(CHECKLIST_ACTIONS)  # the shipped lists use each declared action


@pytest.fixture(scope="module")
def content() -> Content:
    loaded, errors = load_content([shipped_content_dir()])
    assert errors == [], "\n".join(map(str, errors))
    return loaded


def test_every_shipped_file_loads(content: Content) -> None:
    files = content_files(shipped_content_dir())
    assert len(files) >= 15
    assert {s.source for s in content.sections.values()} == set(files)


def test_required_round_types_exist_with_distinct_keys(content: Content) -> None:
    rounds = {r.id: r for r in content.round_types()}
    assert set(REQUIRED_ROUNDS) <= set(rounds)
    keys = [r.key for r in rounds.values()]
    assert all(1 <= key <= 9 for key in keys)
    assert len(set(keys)) == len(keys)
    for rid in REQUIRED_ROUNDS:
        assert rounds[rid].audience, rid
        assert set(rounds[rid].audience) <= set(AUDIENCES), rid


def test_rounds_refer_only_to_existing_sections(content: Content) -> None:
    for round_type in content.round_types():
        for ref in round_type.sections:
            assert ref in content.sections or ref in BUILTIN_SECTIONS, (round_type.id, ref)


def test_every_round_shows_traps_recovery_questions_and_closing(content: Content) -> None:
    for round_type in content.round_types():
        missing = [s for s in EVERY_ROUND_SHOWS if s not in round_type.sections]
        assert not missing, f"{round_type.id} lacks {missing}"


def test_round_nudges_point_at_nudge_sections(content: Content) -> None:
    """`nudges:` on a round item names the timebox nudges the round's @timebox uses."""
    items = {item.get("id"): item for s in content.by_kind("rounds") for item in s.items}
    for rid in ("design", "coding"):
        nudges = content.section(items[rid].get("nudges") or "")
        assert nudges is not None and nudges.kind == "nudges", rid
        assert "@timebox" in items[rid].list("sections")
        assert items[rid].int("minutes") == 45


def test_pitch_is_five_segments_of_90_seconds(content: Content) -> None:
    (pitch,) = content.by_kind("pitch")
    assert [i.get("id") for i in pitch.items] == [
        "identity",
        "evidence",
        "depth",
        "why-role",
        "hand-back",
    ]
    seconds = [i.int("seconds") for i in pitch.items]
    assert seconds == [10, 30, 20, 20, 10]
    assert sum(seconds) == 90
    assert all(i.get("holds") and i.get("example") for i in pitch.items)
    assert "60-90 seconds" in pitch.intro


def test_quiz_has_six_answered_questions_with_valid_references(content: Content) -> None:
    quiz = [q for q in content.quiz() if q.set == "day-of"]
    assert len(quiz) == 6
    assert len({q.id for q in quiz}) == 6
    for question in quiz:
        assert question.question.endswith("?"), question.id
        assert len(question.answer) > 40, question.id
        assert question.see, question.id
        assert all(ref in content.sections for ref in question.see), question.id


def test_questions_cover_all_audiences_with_topics(content: Content) -> None:
    (questions,) = content.by_kind("questions")
    assert "three or four" in questions.meta["rule"].lower()
    for audience in AUDIENCES:
        assert content.questions_for(audience), audience
    for item in questions.items:
        assert item.list("audience") and set(item.list("audience")) <= set(AUDIENCES)
        assert item.get("topic"), item.text
    counts = {a: len(content.questions_for(a)) for a in AUDIENCES}
    assert counts == {"hiring-manager": 4, "peer": 4, "leadership": 2}


@pytest.mark.parametrize("phase", PHASES)
def test_each_checklist_phase_exists(content: Content, phase: str) -> None:
    sections = content.checklist(phase)
    assert len(sections) == 1
    assert len(sections[0].items) >= 4
    for item in sections[0].items:
        if item.get("link"):
            assert item.get("link") in LINKS, item.text


def test_before_round_items_are_timed_and_ordered(content: Content) -> None:
    (section,) = content.checklist("before-round")
    minutes = [int(item.get("minutes_before") or -1) for item in section.items]
    assert all(m > 0 for m in minutes)
    assert minutes == sorted(minutes, reverse=True)
    assert {item.get("link") for item in section.items} >= {"dnd", "about-me", "one-answer"}


def test_checklists_link_what_they_name(content: Content) -> None:
    links = {
        item.get("link")
        for phase in PHASES
        for section in content.checklist(phase)
        for item in section.items
    }
    assert links - {None} == LINKS


def test_design_move_steps_and_rule(content: Content) -> None:
    move = content.section("design-move")
    assert move is not None and move.kind == "steps"
    assert [i.get("id") for i in move.items] == [
        "clarify",
        "estimate",
        "stack",
        "orchestration",
        "failure-modes",
        "cost",
        "hand-back",
    ]
    rule = move.meta["rule"].lower()
    assert "failure modes" in rule and "cost" in rule


def test_coding_moves_have_ids_and_time_guidance(content: Content) -> None:
    moves = content.section("coding-moves")
    assert moves is not None and moves.kind == "steps"
    ids = [i.get("id") for i in moves.items]
    assert all(ids) and len(set(ids)) == len(ids)
    assert moves.items[0].get("id") == "setup" and moves.items[0].get("minutes") == "1"
    assert sum(1 for i in moves.items if i.get("say")) >= 3


@pytest.mark.parametrize("section_id", ["coding-nudges", "design-nudges"])
def test_nudges_are_timed_within_the_round(content: Content, section_id: str) -> None:
    section = content.section(section_id)
    assert section is not None and section.kind == "nudges"
    length = int(section.meta["minutes"])
    for item in section.items:
        timed = [k for k in ("at", "before_end") if k in item.fields]
        assert len(timed) == 1, item.text
        assert 0 < item.int(timed[0], -1) < length, item.text


def test_coding_nudges_check_in_at_twenty_and_wrap_up(content: Content) -> None:
    section = content.section("coding-nudges")
    at = {i.int("at"): i.text for i in section.items if "at" in i.fields}
    before_end = {i.int("before_end"): i.text for i in section.items if "before_end" in i.fields}
    assert "check in" in at[20]
    assert "wrap up" in before_end[5].lower()


def test_closing_has_one_topic_slot(content: Content) -> None:
    (closing,) = content.by_kind("closing")
    assert len(closing.items) == 1
    assert closing.items[0].text.count("{topic}") == 1


def test_traps_and_recovery_carry_lines_to_say(content: Content) -> None:
    traps = content.section("traps")
    recovery = content.section("recovery")
    assert len(traps.items) == 10
    assert sum(1 for i in traps.items if i.get("say")) >= 6
    assert len(recovery.items) == 6
    assert all(i.get("say") for i in recovery.items)


def test_summary_card_exists(content: Content) -> None:
    (summary,) = content.by_kind("summary")
    assert len(summary.items) == 7


def _copy_shipped(folder: Path) -> int:
    folder.mkdir()
    files = content_files(shipped_content_dir())
    for path in files:
        shutil.copy(path, folder / path.name)
    return len(files)


def test_a_malformed_file_is_named_with_its_line_and_the_rest_loads(tmp_path: Path) -> None:
    folder = tmp_path / "content"
    shipped = _copy_shipped(folder)
    broken = folder / "90-broken.md"
    broken.write_text(
        "---\nid: broken\nkind: traps\ntitle: Broken\n---\n- A trap\n  say: one\n  say: two\n",
        encoding="utf-8",
    )
    content, errors = load_content([folder])
    assert len(errors) == 1
    assert errors[0].path == broken
    assert errors[0].line == 8
    assert str(errors[0]).startswith(f"{broken}:8: ")
    assert "broken" not in content.sections
    assert len(content.sections) == shipped
    assert len(content.round_types()) >= len(REQUIRED_ROUNDS)


def test_a_bad_reference_is_reported_against_the_rounds_file(tmp_path: Path) -> None:
    folder = tmp_path / "content"
    _copy_shipped(folder)
    rounds = folder / "80-rounds.md"
    text = rounds.read_text(encoding="utf-8")
    peer = text.index("- Peer / IC")  # a typo in the Peer round's sections
    broken = text[:peer] + text[peer:].replace(" traps,", " trapz,", 1)
    rounds.write_text(broken, encoding="utf-8")
    _, errors = load_content([folder])
    assert [(e.path, "'trapz'" in e.message) for e in errors] == [(rounds, True)]
    assert errors[0].line == text.splitlines().index("- Peer / IC") + 1


def test_a_user_folder_overrides_by_id_and_adds_sections(tmp_path: Path) -> None:
    user = tmp_path / "user"
    user.mkdir()
    (user / "my-traps.md").write_text(
        "---\nid: traps\nkind: traps\ntitle: My traps\n---\n- Only mine\n", encoding="utf-8"
    )
    (user / "ch04-quiz.md").write_text(
        "---\nid: quiz-ch04\nkind: quiz\nset: chapter-04\ntitle: Serving\n---\n"
        "- What limits decode?\n  id: ch04-1\n  answer: Memory bandwidth.\n  see: traps\n",
        encoding="utf-8",
    )
    content, errors = load_content([shipped_content_dir(), user])
    assert errors == []
    assert [i.text for i in content.section("traps").items] == ["Only mine"]
    assert {q.set for q in content.quiz()} == {"day-of", "chapter-04"}


def test_the_readme_example_loads(tmp_path: Path) -> None:
    """The complete example in content/README.md is valid as written."""
    readme = (shipped_content_dir() / "README.md").read_text(encoding="utf-8")
    block = readme.split("## A complete example", 1)[1].split("\n## ", 1)[0]
    example = "\n".join(
        line[4:] for line in block.splitlines() if line.startswith("    ") or not line.strip()
    ).strip()
    user = tmp_path / "user"
    user.mkdir()
    (user / "quiz-chapter-04.md").write_text(example + "\n", encoding="utf-8")
    content, errors = load_content([shipped_content_dir(), user])
    assert errors == []
    added = [q for q in content.quiz() if q.set == "chapter-04"]
    assert len(added) == 2
    assert all(q.question.endswith("?") and q.answer for q in added)


def test_content_check_command_names_the_broken_file(tmp_path: Path, capsys) -> None:
    from companion.cli import main

    folder = tmp_path / "content"
    _copy_shipped(folder)
    broken = folder / "90-broken.md"
    broken.write_text("---\nid: broken\nkind: trapz\ntitle: Broken\n---\n", encoding="utf-8")
    assert main(["content", "check", str(folder)]) == 1
    out, err = capsys.readouterr()
    assert f"{broken}:1: unknown kind 'trapz'" in err
    assert "1 error," in out
    broken.unlink()
    assert main(["content", "check", str(folder)]) == 0
