"""The one rule for a line typed in the quick capture: ``#topic`` at the end names the topic.

It holds for every list alike: "Shard a KV cache #consistent hashing" is a question on
consistent hashing; "Went past the timebox on design #timebox" is a flub on the topic
timebox, its words the detail. A '#' inside a word ("C# generics") is no tag.
"""

from __future__ import annotations

import re

_TAG = re.compile(r"\s#([^#]+)$")


def split_topic(line: str) -> tuple[str, str]:
    """'Shard a cache #consistent hashing' -> ('Shard a cache', 'consistent hashing')."""
    text = " " + line.strip()
    found = _TAG.search(text)
    if not found:
        return line.strip(), ""
    return text[: found.start()].strip(), found.group(1).strip()


def asked_parts(line: str) -> tuple[str, str]:
    """(question, topic) of a line under Asked."""
    question, topic = split_topic(line)
    return question or topic, topic


def flub_parts(line: str) -> tuple[str, str]:
    """(topic, detail) of a line under Flubbed: the tag is the topic, the words the detail;
    an untagged line is a topic of its own with no detail."""
    words, topic = split_topic(line)
    if not topic:
        return words, ""
    return topic, words
