"""The thank-you names one person, the hiring manager or the recruiter (the guide's note
goes to one of those two and names one thing from that conversation), and a topic from a
round that person was in, or says why not."""

from __future__ import annotations

import pytest

from companion.core.day.loops import add_round, create_loop
from companion.core.journal import entries as journal
from companion.core.journal.thankyou import (
    compose_thank_you,
    default_recipient,
    recipient,
    save_thank_you,
)


@pytest.fixture
def loop(db):
    return create_loop(db, "Acme", "SRE", starts_on="2026-12-02")


@pytest.fixture
def marcus_then_priya(db, loop):
    """The issue's day: Marcus (peer) first, then Priya (hiring manager)."""
    marcus = add_round(db, loop, "coding", interviewer_name="Marcus Lee", interviewer_role="peer")
    priya = add_round(
        db, loop, "design", interviewer_name="Priya Raman", interviewer_role="hiring-manager"
    )
    journal.add_asked(db, loop, marcus, "Design a rate limiter", "rate limiting")
    journal.add_asked(db, loop, marcus, "Token bucket?", "rate limiting")
    journal.add_asked(db, loop, priya, "Shard a KV cache", "consistent hashing")
    return marcus, priya


def test_one_person_the_hiring_manager_with_a_topic_from_her_round(db, loop, marcus_then_priya):
    assert default_recipient(db, loop) == "Priya Raman"  # was "Marcus Lee, Priya Raman"
    draft = compose_thank_you(db, loop)
    assert draft.text.startswith("Hi Priya,")  # was "Hi Marcus,"
    assert "consistent hashing" in draft.text
    assert "rate limiting" not in draft.text  # Marcus's topic, the most mentioned overall
    assert draft.why == ""


def test_a_person_typed_gets_a_topic_from_their_own_round(db, loop, marcus_then_priya):
    save_thank_you(db, loop, to_whom="Marcus")
    draft = compose_thank_you(db, loop)
    assert draft.text.startswith("Hi Marcus,") and "rate limiting" in draft.text
    save_thank_you(db, loop, to_whom="Marcus Lee, Priya Raman")  # an old two-name field
    assert compose_thank_you(db, loop).text.startswith("Hi Marcus,")
    assert "rate limiting" in compose_thank_you(db, loop).text


def test_no_hiring_manager_means_the_recruiter_and_says_why_no_topic(db, loop):
    rid = add_round(db, loop, "coding", interviewer_name="Sam Peer", interviewer_role="peer")
    journal.add_asked(db, loop, rid, "Build an LRU cache", "lru-cache")
    assert recipient(db, loop).role == "recruiter" and default_recipient(db, loop) == ""
    draft = compose_thank_you(db, loop)
    assert draft.text.startswith("Hi [name],")
    assert "LRU" not in draft.text and "[one specific topic you discussed]" in draft.text
    assert "recruiter" in draft.why and "none of them" in draft.why


def test_a_hiring_manager_round_with_nothing_written_says_so(db, loop):
    add_round(db, loop, "design", interviewer_name="Priya Raman", interviewer_role="hiring-manager")
    other = add_round(db, loop, "coding", interviewer_name="Sam Peer", interviewer_role="peer")
    journal.add_asked(db, loop, other, "Build an LRU cache", "lru-cache")
    draft = compose_thank_you(db, loop)
    assert draft.text.startswith("Hi Priya,") and "LRU" not in draft.text
    assert draft.why.startswith("Nothing is written down for Priya")


def test_someone_in_no_round_says_why(db, loop, marcus_then_priya):
    save_thank_you(db, loop, to_whom="Jo Park (recruiter)")
    draft = compose_thank_you(db, loop)
    assert draft.text.startswith("Hi Jo,")
    assert draft.why.startswith("Jo Park was in none of this loop's rounds")
    assert "consistent hashing" not in draft.text and "rate limiting" not in draft.text


def test_a_hiring_manager_round_with_no_role_set_is_the_hiring_managers(db, loop):
    """The walk: a "Hiring manager" round added on Today with the role left "(not known)";
    the note went to the recruiter ("No hiring manager is named") though Dana ran it."""
    peer = add_round(db, loop, "coding", interviewer_name="Sam Peer", interviewer_role="peer")
    dana = add_round(db, loop, "hiring-manager", interviewer_name="Dana Wu")
    journal.add_asked(db, loop, peer, "Build an LRU cache", "lru-cache")
    journal.add_asked(db, loop, dana, "A conflict with a peer", "behavioral")
    to = recipient(db, loop)
    assert (to.name, to.role, to.round_ids) == ("Dana Wu", "hiring-manager", (dana,))
    draft = compose_thank_you(db, loop)
    assert draft.text.startswith("Hi Dana,") and "lru-cache" not in draft.text


def test_a_story_tag_is_not_the_conversation_topic(db, loop, shipped_content):
    """The walk: "our conversation about identity", a behavioural tag, not a topic."""
    from companion.core.content.stories import story_pack

    priya = add_round(
        db,
        loop,
        "hiring-manager",
        interviewer_name="Priya Raman",
        interviewer_role="hiring-manager",
    )
    journal.add_asked(db, loop, priya, "Tell me about yourself", "identity")
    journal.add_asked(db, loop, priya, "Walk me through your background", "identity")
    journal.add_asked(db, loop, priya, "How would you shard the cache?", "sharding")
    tags = story_pack(shipped_content[0]).tags
    assert "identity" in tags
    draft = compose_thank_you(db, loop, tags)
    assert "about sharding" in draft.text and "identity" not in draft.text
