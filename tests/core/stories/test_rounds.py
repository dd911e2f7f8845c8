"""A round's stories: the card's list, story use and expected topics."""

from __future__ import annotations

from companion.core.stories.parse import parse_stories


def test_card_lists_the_rounds_stories_and_filters_by_question(three, pack):
    from companion.core.stories.rounds import card_stories, shows_stories

    bank = parse_stories(three)
    assert shows_stories(pack, "hiring-manager") and not shows_stories(pack, "coding")
    listed = card_stories(bank, pack, "hiring-manager")
    assert {c.story.title for c in listed} == {s.title for s in bank.stories}
    only = card_stories(bank, pack, "hiring-manager", question_id="conflict")
    assert [c.story.title for c in only] == ["The schema fight"]
    assert card_stories(bank, pack, "hiring-manager", question_id="why-us") == []
    # "Tell me about yourself" is answered with the pitch, never a story
    assert card_stories(bank, pack, "hiring-manager", question_id="about-yourself") == []


def test_marking_a_story_used_is_stored_and_toggles(three, loop_round, db, clock):
    from companion.core.stories.rounds import toggle_used, use_titles, used_stories

    _, round_id = loop_round(db)
    story = parse_stories(three).stories[1]
    assert toggle_used(db, round_id, story, clock.now()) is True
    assert used_stories(db, round_id) == {"the-schema-fight"}
    assert use_titles(db, round_id) == ["The schema fight"]
    assert toggle_used(db, round_id, story, clock.now()) is False
    assert used_stories(db, round_id) == frozenset()


def test_expected_topics_prefill_from_round_type_and_study_list(loop_round, db, clock, pack):
    from companion.core.journal.entries import add_flub
    from companion.core.stories.rounds import load_expected, prefill_missing, save_expected

    loop_id, round_id = loop_round(db, "coding")
    add_flub(db, loop_id, None, "consistent hashing", "forgot the ring", 3)
    hm = loop_round(db, "hiring-manager")[1]
    assert prefill_missing(db, pack, clock.now()) == [round_id, hm]
    # coding asks no behavioural question: its own topics, and no study topic unrelated
    # to them (consistent hashing is a design topic)
    assert load_expected(db, round_id) == list(pack.round_topics["coding"])
    topics = load_expected(db, hm)
    assert topics[:3] == ["identity", "conflict", "failure"] and "consistent hashing" in topics
    save_expected(db, hm, ["#Conflict", "conflict", " kv cache "])
    assert load_expected(db, hm) == ["Conflict", "kv cache"]
    assert prefill_missing(db, pack, clock.now()) == []
    assert load_expected(db, hm) == ["Conflict", "kv cache"]


def test_prefill_missing_fills_rounds_to_come_once(db, clock, pack):
    from companion.core.day.loops import add_round, create_loop, update_round
    from companion.core.stories.rounds import load_expected, prefill_missing, save_expected

    loop_id = create_loop(db, "Acme")
    upcoming = add_round(db, loop_id, "leadership")
    done = add_round(db, loop_id, "peer")
    update_round(db, done, started_at=clock.now(), ended_at=clock.now())
    edited = add_round(db, loop_id, "peer")
    save_expected(db, edited, [])  # the user emptied them: stays empty
    assert prefill_missing(db, pack, clock.now()) == [upcoming]
    assert "leadership" in load_expected(db, upcoming)
    assert load_expected(db, done) is None and load_expected(db, edited) == []
    assert prefill_missing(db, pack, clock.now()) == []
