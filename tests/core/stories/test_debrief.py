"""The debrief's recall of expected topics and the study list it feeds."""

from __future__ import annotations

import pytest


def test_debrief_recall_hits_and_misses(loop_round, db, clock):
    from companion.core.journal.entries import add_asked
    from companion.core.stories.debrief import all_debriefs, loop_debrief, recall
    from companion.core.stories.rounds import save_expected

    loop_id, first = loop_round(db)
    from companion.core.day.loops import add_round

    second = add_round(db, loop_id, "coding")
    save_expected(db, first, ["conflict", "failure", "why us"])
    add_asked(db, loop_id, first, "A disagreement?", "Conflict")
    add_asked(db, loop_id, first, "Why leave?", "motivation")
    add_asked(db, loop_id, first, "Untagged question")
    debrief = loop_debrief(db, loop_id)
    r1, r2 = debrief.rounds
    assert r1.hits == ("Conflict",) and r1.misses == ("motivation",)
    assert set(r1.unasked) == {"failure", "why us"}
    assert r1.recall == 0.5
    assert r2.recall is None  # nothing asked
    assert debrief.recall == 0.5
    add_asked(db, loop_id, second, "LRU cache", "caching")
    save_expected(db, second, ["caching"])
    assert loop_debrief(db, loop_id).recall == pytest.approx(2 / 3)
    assert recall(0, 0) is None
    shape = all_debriefs(db)[0].as_json()
    assert set(shape) == {"id", "company", "recall", "rounds"}
    assert set(shape["rounds"][0]) == {
        "id",
        "type",
        "expected",
        "asked",
        "hits",
        "misses",
        "recall",
    }


def test_recall_is_zero_when_topics_were_asked_and_none_expected(loop_round, db):
    """The documented rule: None only when nothing was asked; asked topics with nothing
    expected are a recall of 0.0, and count in the loop's recall."""
    from companion.core.day.loops import add_round
    from companion.core.journal.entries import add_asked
    from companion.core.stories.debrief import loop_debrief
    from companion.core.stories.rounds import save_expected

    loop_id, first = loop_round(db)
    second = add_round(db, loop_id, "coding")
    add_asked(db, loop_id, first, "Design a cache", "caching")
    save_expected(db, second, ["graphs"])
    add_asked(db, loop_id, second, "Shortest path", "graphs")
    r1, r2 = loop_debrief(db, loop_id).rounds
    assert r1.recall == 0.0 and r1.recall is not None
    assert r2.recall == 1.0
    assert loop_debrief(db, loop_id).recall == 0.5


def test_asked_not_expected_joins_the_study_list_with_extra_weight(loop_round, db, clock):
    from companion.core.journal.entries import add_asked, add_weak_topic
    from companion.core.stories.debrief import record_surprises
    from companion.core.stories.rounds import save_expected
    from companion.core.study.ranking import mark_studied, study_list

    loop_id, round_id = loop_round(db)
    save_expected(db, round_id, ["conflict"])
    add_asked(db, loop_id, round_id, "Why leave?", "motivation", at=clock.now())
    add_weak_topic(db, "retries", loop_id=loop_id, round_id=round_id, at=clock.now())
    assert record_surprises(db, round_id, 3, clock.now()) == 1
    assert record_surprises(db, round_id, 3, clock.now()) == 1  # again: replaced, not doubled
    items = study_list(db, clock.now())
    assert [i.topic for i in items] == ["motivation", "retries"]  # severity 3 beats a weak 2
    assert items[0].sources == {"surprise"} and items[0].count == 1
    mark_studied(db, items[0], clock.now())
    assert [i.topic for i in study_list(db, clock.now())] == ["retries"]
