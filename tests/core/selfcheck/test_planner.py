"""The questions-to-ask planner: three or four per loop, right audience, never twice."""

from __future__ import annotations

import sqlite3

import pytest

from companion.core.day import loops
from companion.core.selfcheck import planner
from companion.core.selfcheck.planner import PlannerError, Suggestion

HM = Suggestion("What does success look like at 90 days?", ("hiring-manager",), "90 days")
PEER = Suggestion("What is on-call like here?", ("peer",), "on-call")
LEAD = Suggestion("How does the roadmap fit the strategy?", ("leadership",), "roadmap")
BOTH = Suggestion("What is the hardest problem now?", ("hiring-manager", "peer"), "hard")


@pytest.fixture
def loop_id(db):
    return loops.create_loop(db, "Acme", "ML infra")


def test_content_suggestions_carry_their_audiences(content):
    found = planner.suggestions(content)
    assert len(found) >= 6
    assert all(s.audiences for s in found)
    for audience in ("hiring-manager", "peer", "leadership"):
        assert any(audience in s.audiences for s in found), audience
    assert "three or four" in planner.plan_rule(content)


def test_three_well_matched_questions_give_no_warnings(db, clock, loop_id):
    for s, audience in ((HM, "hiring-manager"), (PEER, "peer"), (LEAD, "leadership")):
        _, warnings = planner.add_suggestion(db, loop_id, s, audience, at=clock.now())
        assert warnings == []
    assert [p.audience for p in planner.plan(db, loop_id)] == [
        "hiring-manager",
        "peer",
        "leadership",
    ]


def test_more_than_four_warns_but_keeps_them(db, clock, loop_id):
    for s in (HM, PEER, LEAD, BOTH):
        _, warnings = planner.add_suggestion(db, loop_id, s, s.audiences[0], at=clock.now())
        assert warnings == []
    _, warnings = planner.add_custom(db, loop_id, "Can I meet the team?", "peer", at=clock.now())
    assert len(warnings) == 1 and warnings[0].plan_id is None
    assert "5 questions are planned" in warnings[0].message
    assert len(planner.plan(db, loop_id)) == 5
    planner.remove_planned(db, planner.plan(db, loop_id)[-1].id)
    assert planner.check_plan(db, loop_id) == []


def test_wrong_audience_warns_and_names_the_question(db, clock, loop_id):
    plan_id, warnings = planner.add_suggestion(db, loop_id, PEER, "leadership", at=clock.now())
    assert [w.plan_id for w in warnings] == [plan_id]
    assert "suits a peer" in warnings[0].message
    assert "senior leader may not" in warnings[0].message
    # A question tagged for two audiences suits both.
    _, warnings = planner.add_suggestion(db, loop_id, BOTH, "peer", at=clock.now())
    assert [w.plan_id for w in warnings] == [plan_id]
    # Moving it to the right audience clears the warning.
    assert planner.set_audience(db, plan_id, "peer") == []


def test_custom_questions_suit_the_audience_the_user_chose(db, clock, loop_id):
    plan_id, warnings = planner.add_custom(
        db, loop_id, "  What  would you change first? ", "leadership", at=clock.now()
    )
    assert warnings == []
    planned = planner.get_planned(db, plan_id)
    assert planned.text == "What would you change first?"
    assert planned.source == "custom" and planned.suits == ()
    assert planner.set_audience(db, plan_id, "peer") == []


def test_the_same_question_is_never_planned_twice_in_a_loop(db, clock, loop_id):
    planner.add_suggestion(db, loop_id, PEER, "peer", at=clock.now())
    with pytest.raises(PlannerError, match="already planned"):
        planner.add_suggestion(db, loop_id, PEER, "hiring-manager", at=clock.now())
    with pytest.raises(PlannerError, match="already planned"):
        planner.add_custom(db, loop_id, "what is ON-CALL like here", "peer", at=clock.now())
    assert len(planner.plan(db, loop_id)) == 1
    # Another loop may plan it again.
    other = loops.create_loop(db, "Globex")
    planner.add_suggestion(db, other, PEER, "peer", at=clock.now())
    assert len(planner.plan(db, other)) == 1


def test_the_unique_index_backs_the_rule(db, clock, loop_id):
    planner.add_suggestion(db, loop_id, PEER, "peer", at=clock.now())
    with pytest.raises(sqlite3.IntegrityError):
        db.execute(
            "INSERT INTO planned_questions (loop_id, text, text_key, audience, created_at) "
            "VALUES (?, ?, ?, ?, ?)",
            [loop_id, PEER.text, planner.text_key(PEER.text), "peer", "2026-12-01"],
        )


@pytest.mark.parametrize(
    ("text", "audience", "message"),
    [
        ("   ", "peer", "empty"),
        ("?", "peer", "empty"),
        ("Fine question?", "recruiter", "Unknown audience 'recruiter'"),
    ],
)
def test_bad_input_is_refused_with_a_clear_message(db, clock, loop_id, text, audience, message):
    with pytest.raises(PlannerError, match=message):
        planner.add_custom(db, loop_id, text, audience, at=clock.now())
    assert planner.plan(db, loop_id) == []


def test_unknown_loop_is_refused(db, clock):
    with pytest.raises(PlannerError, match="no loop with id 99"):
        planner.add_custom(db, 99, "Anything?", "peer", at=clock.now())


def test_planned_for_and_marking_asked(db, clock, loop_id):
    hm_id, _ = planner.add_suggestion(db, loop_id, HM, "hiring-manager", at=clock.now())
    peer_id, _ = planner.add_suggestion(db, loop_id, PEER, "peer", at=clock.now())
    round_id = loops.add_round(db, loop_id, "peer", interviewer_role="peer")
    assert [p.id for p in planner.planned_for(db, loop_id, "peer")] == [peer_id]
    assert planner.asked_questions(db, loop_id) == []
    clock.advance(hours=2)
    planner.mark_asked(db, peer_id, round_id, clock.now())
    (asked,) = planner.asked_questions(db, loop_id)
    assert asked.id == peer_id and asked.round_id == round_id and asked.asked
    assert asked.asked_at == "2026-12-01T11:00:00+01:00"
    # Still listed for the cue card, now with its asked time.
    assert planner.planned_for(db, loop_id, "peer")[0].asked_at == asked.asked_at
    planner.unmark_asked(db, peer_id)
    assert planner.asked_questions(db, loop_id) == []
    assert not planner.get_planned(db, hm_id).asked
    with pytest.raises(PlannerError, match="no planned question"):
        planner.mark_asked(db, 12345, None, clock.now())


def test_record_asked_marks_a_planned_one_or_adds_a_custom_one(db, clock, loop_id):
    planned_id, _ = planner.add_suggestion(db, loop_id, LEAD, "leadership", at=clock.now())
    round_id = loops.add_round(db, loop_id, "leadership")
    clock.advance(minutes=10)
    same = planner.record_asked(db, loop_id, LEAD.text.upper(), "leadership", round_id, clock.now())
    assert same == planned_id
    clock.advance(minutes=10)
    new_id = planner.record_asked(
        db, loop_id, "How are decisions made?", "leadership", None, clock.now()
    )
    asked = planner.asked_questions(db, loop_id)
    assert [a.id for a in asked] == [planned_id, new_id]
    assert asked[1].source == "custom" and asked[1].round_id is None
    assert len(planner.plan(db, loop_id)) == 2


def test_deleting_a_round_or_loop_is_not_blocked_by_the_plan(db, clock, loop_id):
    plan_id, _ = planner.add_suggestion(db, loop_id, PEER, "peer", at=clock.now())
    round_id = loops.add_round(db, loop_id, "peer")
    planner.mark_asked(db, plan_id, round_id, clock.now())
    loops.delete_round(db, round_id)
    assert planner.get_planned(db, plan_id).round_id is None
    db.execute("DELETE FROM loops WHERE id = ?", [loop_id])
    assert planner.get_planned(db, plan_id) is None
