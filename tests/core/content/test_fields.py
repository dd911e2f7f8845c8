"""`companion content check` rejects every mistyped number, time and id with file and line."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from companion.core.content.fields import check_section, parse_range
from companion.core.content.loader import load_content
from companion.core.paths import shipped_content_dir

PITCH = """\
---
id: pitch
kind: pitch
title: Pitch
{meta}---
- Who
  id: identity
  seconds: {identity}
- Evidence
  id: {evidence_id}
  seconds: 30
- Depth
  id: depth
  seconds: 20
- Why
  id: why-role
  seconds: 20
- Back
  id: hand-back
  seconds: 10
"""


def pitch(meta: str = "", identity: str = "10", evidence_id: str = "evidence") -> str:
    return PITCH.format(meta=meta, identity=identity, evidence_id=evidence_id)


def nudges(body: str, minutes: int = 45) -> str:
    return f"---\nid: my-nudges\nkind: nudges\ntitle: N\nminutes: {minutes}\n---\n{body}"


def check(tmp_path: Path, name: str, text: str, capsys) -> tuple[int, str]:
    from companion.cli import main

    folder = tmp_path / "pack"
    folder.mkdir(exist_ok=True)
    (folder / name).write_text(text, encoding="utf-8")
    code = main(["content", "check", str(folder)])
    return code, capsys.readouterr().err


# (file text, the line reported, words the message must hold)
BAD: list[tuple[str, str, int, str]] = [
    ("seconds: ten", pitch(identity="ten"), 8, "seconds: must be a whole number"),
    ("seconds: -5", pitch(identity="-5"), 8, "seconds: must be a whole number"),
    ("seconds: 0", pitch(identity="0"), 8, "seconds: must be from 1 to 600"),
    ("unknown segment id", pitch(evidence_id="story"), 10, "id: must be one of identity"),
    ("target not a range", pitch(meta="target: soon\n"), 5, "target: must be a range"),
    ("target backwards", pitch(meta="target: 90-60\n"), 5, "runs backwards"),
    ("nudge at: -5", nudges("- Go\n  at: -5\n"), 8, "at: must be a number of minutes"),
    ("nudge at: soon", nudges("- Go\n  at: soon\n"), 8, "at: must be a number of minutes"),
    ("nudge without time", nudges("- Go\n"), 7, "needs 'at:', 'before_end:' or 'after_step:'"),
    ("nudge after the end", nudges("- Go\n  at: 50\n"), 8, "under the round's 45 minutes"),
    ("nudge both times", nudges("- Go\n  at: 5\n  before_end: 5\n"), 7, "takes one of"),
    ("nudge before_end: x", nudges("- Go\n  before_end: x\n"), 8, "before_end: must be a number"),
    (
        "nudges minutes: 0",
        "---\nid: n\nkind: nudges\ntitle: N\nminutes: 0\n---\n- Go\n  at: 1\n",
        5,
        "minutes: must be from 1 to 600",
    ),
    (
        "checklist minutes_before: soon",
        "---\nid: b\nkind: checklist\nphase: before-round\ntitle: B\n---\n- Tea\n"
        "  minutes_before: soon\n",
        8,
        "minutes_before: must be a whole number",
    ),
    (
        "checklist within_hours: 0",
        "---\nid: a\nkind: checklist\nphase: after-loop\ntitle: A\n---\n- Notes\n"
        "  within_hours: 0\n",
        8,
        "within_hours: must be more than 0",
    ),
    (
        "checklist unknown link",
        "---\nid: a\nkind: checklist\nphase: after-loop\ntitle: A\n---\n- Notes\n  link: diary\n",
        8,
        "link: must be one of",
    ),
    (
        "steps minutes: a-b",
        "---\nid: s\nkind: steps\ntitle: S\n---\n- One\n  id: one\n  minutes: a-b\n",
        8,
        "minutes: must be a whole number of minutes or a range",
    ),
    (
        "steps duplicate id",
        "---\nid: s\nkind: steps\ntitle: S\n---\n- One\n  id: one\n- Two\n  id: one\n",
        9,
        "'one' is already used on line 7",
    ),
    (
        "steps id with spaces",
        "---\nid: s\nkind: steps\ntitle: S\n---\n- One\n  id: Step One\n",
        7,
        "id: must use only a-z",
    ),
    (
        "questions pick: many",
        "---\nid: q\nkind: questions\ntitle: Q\npick: many\n---\n- Why?\n  audience: peer\n",
        5,
        "pick: must be a range",
    ),
    (
        "questions unknown audience",
        "---\nid: q\nkind: questions\ntitle: Q\n---\n- Why?\n  audience: ceo\n",
        7,
        "audience: lists 'ceo'",
    ),
    (
        "quiz id",
        "---\nid: qz\nkind: quiz\ntitle: Q\n---\n- Why?\n  id: Why Q\n  answer: x\n",
        7,
        "id: must use only a-z",
    ),
    (
        "rounds key 12",
        "---\nid: r\nkind: rounds\ntitle: R\n---\n- Lunch\n  id: lunch\n  key: 12\n",
        8,
        "key: must be from 1 to 9",
    ),
    (
        "rounds minutes: long",
        "---\nid: r\nkind: rounds\ntitle: R\n---\n- Lunch\n  id: lunch\n  minutes: long\n",
        8,
        "minutes: must be a whole number",
    ),
    (
        "rounds default minutes",
        "---\nid: r\nkind: rounds\ntitle: R\nminutes: -1\n---\n- Lunch\n  id: lunch\n",
        5,
        "minutes: must be a whole number",
    ),
    (
        "rounds wrap-up minutes",
        "---\nid: r\nkind: rounds\ntitle: R\nwrap_up_before_end: x\n---\n- Lunch\n  id: lunch\n",
        5,
        "wrap_up_before_end: must be a whole number",
    ),
    (
        "rounds duplicate key",
        "---\nid: r\nkind: rounds\ntitle: R\n---\n- A\n  id: a\n  key: 7\n- B\n  id: b\n  key: 7\n",
        11,
        "key: '7' is already used on line 8",
    ),
]


@pytest.mark.parametrize(("text", "line", "message"), [b[1:] for b in BAD], ids=[b[0] for b in BAD])
def test_content_check_rejects_a_bad_value_with_file_and_line(
    tmp_path: Path, capsys, text: str, line: int, message: str
) -> None:
    code, err = check(tmp_path, "90-mine.md", text, capsys)
    path = tmp_path / "pack" / "90-mine.md"
    assert code == 1
    assert f"error: {path}:{line}: " in err, err
    assert message in err


def test_a_mistyped_section_is_skipped_and_the_shipped_one_stays(tmp_path: Path) -> None:
    user = tmp_path / "user"
    user.mkdir()
    (user / "pitch.md").write_text(pitch(identity="ten"), encoding="utf-8")
    content, errors = load_content([shipped_content_dir(), user])
    assert [e.line for e in errors] == [8]
    assert content.section("pitch").source.parent == shipped_content_dir()


def test_a_pitch_outside_its_own_target_is_a_warning_not_an_error(tmp_path: Path, capsys) -> None:
    code, err = check(tmp_path, "pitch.md", pitch(meta="target: 30-40\n"), capsys)
    assert code == 0
    assert f"warning: {tmp_path / 'pack' / 'pitch.md'}:5: " in err
    assert "add up to 90 s, outside the target 30-40 s" in err


def test_a_pitch_inside_its_target_has_no_warning(tmp_path: Path, capsys) -> None:
    code, err = check(tmp_path, "pitch.md", pitch(meta="target: 80-95\n"), capsys)
    assert (code, err) == (0, "")


def test_every_shipped_section_passes_the_field_checks() -> None:
    content, errors = load_content([shipped_content_dir()])
    assert errors == [] and content.warnings == []
    for section in content.sections.values():
        assert check_section(section) == [], section.id


def test_parse_range() -> None:
    assert parse_range("60-90") == (60, 90)
    assert parse_range(" 3 - 4 ") == (3, 4)
    assert parse_range("45") == (45, 45)
    assert parse_range("soon") is None
    assert parse_range(None) is None


def test_a_number_past_int_digits_is_out_of_range_not_a_traceback(tmp_path, capsys) -> None:
    """int() refuses more than 4,300 digits (tests/fuzz/regressions/content)."""
    huge = "9" * 4400
    code, err = check(tmp_path, "pitch.md", pitch(identity=huge), capsys)
    assert code == 1 and "seconds: must be from" in err and "Traceback" not in err
    assert parse_range(f"1-{huge}") == (1, 10**18)
    assert parse_range("0" * 5000 + "45") == (45, 45)


def recovery(item: str) -> str:
    return f"---\nid: recovery\nkind: recovery\ntitle: R\n---\n{item}"


@pytest.mark.parametrize(
    "item, words",
    [
        ('- Silent for 30 seconds\n  say: "Thinking aloud"\n', "needs 'silence_seconds: 30'"),
        (
            "- Quiet for 30 s? Narrate\n  silence_seconds: 25\n",
            "silence_seconds: 25 but the line says 30 seconds",
        ),
        ("- Silent for a while\n  silence_seconds: 2\n", "silence_seconds: must be from 5 to 120"),
    ],
)
def test_content_check_refuses_a_silence_line_without_its_field(tmp_path, capsys, item, words):
    code, err = check(tmp_path, "recovery.md", recovery(item), capsys)
    assert code == 1 and words in err and "recovery.md:" in err


def test_the_silence_limit_and_its_nudge_are_the_recovery_items_fields(tmp_path):
    from companion.core.voice import nudge

    folder = tmp_path / "pack"
    folder.mkdir()
    (folder / "r.md").write_text(
        recovery("- Gone quiet for 35 seconds\n  silence_seconds: 35\n  nudge: Think aloud now.\n"),
        encoding="utf-8",
    )
    content, errors = load_content([shipped_content_dir(), folder])
    assert errors == []
    assert nudge.silence_limit(content) == 35.0 and nudge.nudge_text(content) == "Think aloud now."
    # reworded without a number, the field still sets the limit (no phrase is parsed)
    (folder / "r.md").write_text(
        recovery("- Lost for words\n  silence_seconds: 40\n"), encoding="utf-8"
    )
    content, errors = load_content([shipped_content_dir(), folder])
    assert errors == [] and nudge.silence_limit(content) == 40.0


def test_content_check_refuses_an_item_whose_words_give_other_hours(tmp_path, capsys):
    after = (shipped_content_dir() / "13-after-loop.md").read_text(encoding="utf-8")
    wrong = after.replace("Within {thank_you_window}, send", "Within 24 hours, send").replace(
        "within_hours: 24", "within_hours: 12"
    )
    code, err = check(tmp_path, "13-after-loop.md", wrong, capsys)
    assert code == 1 and "within_hours: 12 but the item says '24 hours'" in err
    right = wrong.replace("within_hours: 12", "within_hours: 24")
    assert check(tmp_path, "13-after-loop.md", right, capsys)[0] == 0


def test_the_setup_minutes_and_the_before_round_window_are_the_packs_numbers(tmp_path):
    """'60-second setup' and 'the last quarter-hour' were typed into the prose."""
    shipped, errors = load_content([shipped_content_dir()])
    takeaways = " ".join(i.text for i in shipped.section("takeaways").items)
    assert "a setup of 1 minute," in takeaways
    assert shipped.section("before-round").intro.startswith("The last 15 minutes before")
    folder = tmp_path / "pack"
    folder.mkdir()
    moves = (shipped_content_dir() / "31-coding-moves.md").read_text(encoding="utf-8")
    (folder / "31-coding-moves.md").write_text(
        moves.replace("  id: setup\n  minutes: 1\n", "  id: setup\n  minutes: 2-3\n"),
        encoding="utf-8",
    )
    before = (shipped_content_dir() / "12-before-round.md").read_text(encoding="utf-8")
    (folder / "12-before-round.md").write_text(
        before.replace("minutes_before: 15", "minutes_before: 20"), encoding="utf-8"
    )
    content, errors = load_content([shipped_content_dir(), folder])
    assert errors == []
    takeaways = " ".join(i.text for i in content.section("takeaways").items)
    assert "a setup of 3 minutes," in takeaways
    assert content.section("before-round").intro.startswith("The last 20 minutes before")


def test_the_story_budget_and_limits_in_the_words_are_the_packs_numbers(tmp_path):
    """'eight to twelve ... two minutes' was typed into the prose and the template."""
    from companion.core.content.stories import story_pack
    from companion.core.stories.document import starter

    shipped, errors = load_content([shipped_content_dir()])
    assert "the budget of 2 minutes a story and the limit of 12 stories" in " ".join(
        shipped.section("stories").intro.split()
    )
    assert "8 to 12 stories of about 2 minutes each" in starter(shipped)
    folder = tmp_path / "pack"
    folder.mkdir()
    stories = (shipped_content_dir() / "52-stories.md").read_text(encoding="utf-8")
    stories = stories.replace("seconds: 120\n", "seconds: 90\n").replace(
        "min_stories: 8\n", "min_stories: 5\n"
    )
    (folder / "52-stories.md").write_text(stories.replace("max_stories: 12", "max_stories: 9"))
    content, errors = load_content([shipped_content_dir(), folder])
    assert errors == []
    intro = " ".join(content.section("stories").intro.split())
    assert "the budget of 90 seconds a story and the limit of 9 stories" in intro
    assert "5 to 9 stories of about 90 seconds each" in starter(content)
    too_many = story_pack(content).text("too_many", count=10, max=9)
    assert too_many.startswith("10 stories: 5 to 9 well-practised")


def test_the_coding_and_design_round_lengths_in_the_words_are_the_packs(tmp_path):
    """'45-minute' was typed into the moves, the nudges and the quiz."""
    shipped, errors = load_content([shipped_content_dir()])
    assert shipped.section("coding-moves").intro.startswith("For a coding round of 45 minutes.")
    folder = tmp_path / "pack"
    folder.mkdir()
    rounds = (shipped_content_dir() / "80-rounds.md").read_text(encoding="utf-8")
    rounds = rounds.replace(
        "  nudges: coding-nudges\n  minutes: 45\n", "  nudges: coding-nudges\n  minutes: 50\n"
    )
    (folder / "80-rounds.md").write_text(rounds, encoding="utf-8")
    content, errors = load_content([shipped_content_dir(), folder])
    assert errors == []
    assert content.section("coding-moves").intro.startswith("For a coding round of 50 minutes.")
    assert "a coding round of 50 minutes" in content.section("coding-nudges").intro
    assert "a design round of 45 minutes" in content.section("design-nudges").intro
    quiz = [q.question for q in content.quiz()]
    assert any(q.startswith("A coding round of 50 minutes, minute 20:") for q in quiz)


def test_the_warm_up_and_the_mornings_minutes_in_the_words_are_the_packs(tmp_path):
    """'five-minute warm-up', 'ten-minute walk', '10 minutes' and 'its two minutes' were
    typed into the prose."""
    shipped, errors = load_content([shipped_content_dir()])
    assert errors == []
    assert _minutes_words(shipped) == ("5 minutes", "10 minutes", "10 minutes", "2 minutes")
    folder = tmp_path / "pack"
    folder.mkdir()
    for name, old, new in [
        ("12-before-round.md", "warm_up_minutes: 5\n", "warm_up_minutes: 8\n"),
        ("11-morning-of.md", "no more\n  minutes: 10\n", "no more\n  minutes: 15\n"),
        ("31-coding-moves.md", "id: test\n  minutes: 2\n", "id: test\n  minutes: 3-4\n"),
    ]:
        text = (shipped_content_dir() / name).read_text(encoding="utf-8")
        assert old in text
        (folder / name).write_text(text.replace(old, new), encoding="utf-8")
    content, errors = load_content([shipped_content_dir(), folder])
    assert errors == []
    assert _minutes_words(content) == ("8 minutes", "15 minutes", "10 minutes", "3-4 minutes")


def _minutes_words(content) -> tuple[str, ...]:
    """The warm-up's, the reread's, the walk's and the coding test step's lengths as the
    words say them."""
    said = [
        (content.section("before-round").intro, r"the warm-up of (.+?) \("),
        (content.section("morning-of").items[0].text, r"chapter: (.+), no more$"),
        (content.section("morning-of").items[3].text, r"^Take a walk of (.+) before"),
        (content.section("coding-moves").items[4].get("detail"), r"repays its (.+)\.$"),
    ]
    return tuple(re.search(pattern, text).group(1) for text, pattern in said)


# "five-minute", "10 minutes", "a quarter-hour", "60-second": a length typed into words
_TYPED_LENGTH = re.compile(
    r"\b(\d+|one|two|three|four|five|six|seven|eight|nine|ten|twelve|fifteen|twenty|"
    r"thirty|forty-five|sixty|ninety|quarter|half)[- ](minutes?|hours?|seconds?|mins?|secs?)\b",
    re.I,
)


def test_no_length_is_typed_into_the_shipped_words():
    """Every length the pack's words name is a slot filled from the entry that sets it
    (quiz questions are left: their numbers are the exercise, not the day's)."""
    from companion.core.content.loader import load_file

    typed = []
    for path in sorted(shipped_content_dir().glob("*.md")):
        if path.name == "README.md":
            continue
        section = load_file(path)
        if section.kind == "quiz":
            continue
        texts = [section.title, section.intro, *section.meta.values()]
        for item in section.items:
            texts += [item.text, *item.fields.values()]
        typed += [f"{path.name}: {m.group(0)!r}" for t in texts for m in _TYPED_LENGTH.finditer(t)]
    assert typed == []
