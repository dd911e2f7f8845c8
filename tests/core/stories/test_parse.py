"""Reading a story bank: titles, tags, parts and ids."""

from __future__ import annotations

from companion.core.stories.parse import parse_stories


def test_parse_reads_titles_tags_and_parts(three):
    bank = parse_stories(three)
    assert [s.title for s in bank.stories] == [
        "Cut GPU cost",
        "The schema fight",
        "Dropped the migration",
    ]
    first = bank.stories[0]
    assert first.tags == ("ownership", "impact")
    assert set(first.parts) == {"situation", "task", "action", "result", "differently"}
    assert bank.stories[1].parts["result"].startswith("We shipped")
    assert bank.errors == ()


def test_broken_tags_are_errors_with_a_line():
    bank = parse_stories("## Story: A\nTags: own@rship, impact\n\n## Story: B\nTags:\n")
    assert [e.line for e in bank.errors] == [2, 5]
    assert "own@rship" in str(bank.errors[0])
    assert bank.stories[0].tags == ("impact",)


def test_titles_get_unique_ids():
    bank = parse_stories("## Story: Same\nTags: a\n## Story: Same\nTags: b\n")
    assert [s.id for s in bank.stories] == ["same", "same-2"]
