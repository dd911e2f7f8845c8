"""Checking a bank against the pack: timing, numbers, the question mapping and gaps."""

from __future__ import annotations

import pytest

from companion.core.about.spoken import seconds_for
from companion.core.stories.check import analyze_bank
from companion.core.stories.parse import parse_stories


def test_timing_uses_the_spoken_words_and_the_rate(three, pack):
    bank = parse_stories(three)
    analysis = analyze_bank(bank, pack, 120)
    first = analysis.reports[0]
    # the title, the tags line and the part headings are not spoken
    spoken = (
        "The training bill doubled in a quarter. Bring it down without slowing research. "
        "I built a bin-packing scheduler and moved batch jobs to spot. Spend fell 40% in three "
        "months. Ask finance for the bill earlier."
    )
    assert bank.stories[0].words == len(spoken.split())
    assert first.seconds == pytest.approx(seconds_for(len(spoken.split()), 120))
    assert not first.over
    long = "## Story: Long\nTags: impact\nResult: 5 wins. " + "word " * 400
    assert analyze_bank(long, pack, 120).reports[0].over
    assert any("Long" in w and "120" in w for w in analyze_bank(long, pack, 120).warnings)


def test_a_result_without_a_number_is_flagged(three, pack):
    analysis = analyze_bank(three, pack, 140)
    assert [r.has_number for r in analysis.reports] == [True, False, True]
    assert any("The schema fight" in w and "number" in w for w in analysis.warnings)


def test_questions_map_to_stories_by_tag_and_the_rest_are_gaps(three, pack):
    analysis = analyze_bank(three, pack, 140)
    by_id = {m.question.id: [s.title for s in m.stories] for m in analysis.matches}
    assert by_id["conflict"] == ["The schema fight"]
    assert by_id["failure"] == ["Dropped the migration"]
    assert by_id["biggest-impact"] == ["Cut GPU cost"]
    gaps = {q.id for q in analysis.gaps}
    assert "why-leaving" in gaps and "why-us" in gaps and "conflict" not in gaps
    assert analysis.as_json()["gaps"] == [q.text for q in analysis.gaps]
    assert any("Why are you leaving" in line for line in analysis.gap_lines(pack))


def test_more_than_the_packs_limit_is_a_warning(pack):
    text = "".join(f"## Story: S{n}\nTags: impact\nResult: {n} wins\n\n" for n in range(13))
    warnings = analyze_bank(text, pack, 140).warnings
    assert any(w.startswith("13 stories") for w in warnings)
    text12 = "".join(f"## Story: S{n}\nTags: impact\nResult: {n} wins\n\n" for n in range(12))
    assert not any("stories:" in w for w in analyze_bank(text12, pack, 140).warnings)


def test_unknown_tags_and_a_missing_tags_line_are_warnings(pack):
    warnings = analyze_bank(
        "## Story: A\nResult: 3x\n\n## Story: B\nTags: juggling\n", pack, 140
    ).warnings
    assert any('"A" has no Tags line' in w for w in warnings)
    assert any('"juggling"' in w for w in warnings)
