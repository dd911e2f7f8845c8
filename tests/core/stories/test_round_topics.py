"""Design and coding rounds got no expected topics (prep recall always 0 % or empty), and
an unscheduled design round got unrelated study-list topics."""

from __future__ import annotations

from companion.core.content.stories import story_pack
from companion.core.stories.rounds import expected_for


def test_design_and_coding_rounds_expect_their_own_topics(content):
    pack = story_pack(content)
    for round_type in ("design", "coding"):
        expected = expected_for(pack, round_type, [])
        assert expected, f"{round_type}: no expected topics"
        assert {t.lower() for t in pack.round_topics[round_type]} <= {t.lower() for t in expected}


def test_a_design_round_takes_only_related_study_topics(content):
    pack = story_pack(content)
    study = ["Behavioural: conflict story", "Scaling the write path", "Kubernetes basics"]
    expected = expected_for(pack, "design", study)
    assert "Scaling the write path" in expected
    assert "Behavioural: conflict story" not in expected and "Kubernetes basics" not in expected
    # a type with no topics of its own keeps the study list's top topics as before
    assert "Kubernetes basics" in expected_for(pack, "peer", study)
