"""The quick capture's one topic rule, without Qt: ``#topic`` at the end of a line."""

from __future__ import annotations

import pytest

from companion.core.journal.capture_lines import asked_parts, flub_parts, split_topic


@pytest.mark.parametrize(
    ("line", "parts"),
    [
        ("Shard a KV cache #consistent hashing", ("Shard a KV cache", "consistent hashing")),
        ("A #b c", ("A", "b c")),
        ("C# generics", ("C# generics", "")),  # a '#' inside a word is no tag
        ("  plain ", ("plain", "")),
        ("#caching", ("", "caching")),
        ("two #tags #last", ("two #tags", "last")),  # only the last one counts
        ("trailing #topic  ", ("trailing", "topic")),
    ],
)
def test_a_tag_at_the_end_names_the_topic(line, parts):
    assert split_topic(line) == parts


def test_asked_keeps_the_question_and_takes_the_tag_as_topic():
    assert asked_parts("Design a rate limiter #rate limiting") == (
        "Design a rate limiter",
        "rate limiting",
    )
    assert asked_parts("#caching") == ("caching", "caching")  # a bare tag is the question
    assert asked_parts("Why Kafka?") == ("Why Kafka?", "")


def test_flubbed_takes_the_tag_as_topic_and_the_words_as_detail():
    assert flub_parts("Went past the timebox... #timebox") == (
        "timebox",
        "Went past the timebox...",
    )
    assert flub_parts("Consistent hashing") == ("Consistent hashing", "")
    assert flub_parts("#caching") == ("caching", "")
