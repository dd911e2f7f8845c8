"""The stories part of the content pack: its questions and limits."""

from __future__ import annotations

from companion.core.content.stories import story_pack
from companion.core.stories.check import analyze_bank


def test_pack_holds_the_common_questions_and_limits(pack):
    ids = {q.id for q in pack.questions}
    assert {
        "about-yourself",
        "conflict",
        "failure",
        "biggest-impact",
        "why-leaving",
        "weakness",
        "why-us",
    } <= ids
    assert pack.seconds == 120 and pack.max_stories == 12
    assert "hiring-manager" in pack.card_rounds and "coding" not in pack.card_rounds


def test_tell_me_about_yourself_points_at_the_pitch_not_a_story():
    """The guide answers it with the 60-90 s pitch; it was listed as a two-minute story."""
    from companion.core.content.loader import load_content
    from companion.core.paths import shipped_content_dir

    content, errors = load_content([shipped_content_dir()])
    assert errors == []
    pack = story_pack(content)
    about = pack.question("about-yourself")
    assert about is not None and about.answer_with == "pitch"
    assert pack.text("pitch_answer") == "Your pitch answers this: 60-90 seconds, not a story."
    bank = "## Story: Who I am\nTags: identity, impact\nResult: 3 teams.\n"
    analysis = analyze_bank(bank, pack, 150)
    match = next(m for m in analysis.matches if m.question.id == "about-yourself")
    assert not match.gap  # with or without a story tagged identity
    assert about not in analysis_gaps(analyze_bank("", pack, 150))


def analysis_gaps(analysis):
    return analysis.gaps
