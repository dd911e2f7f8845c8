"""The ranked study list, its guide links, and marking topics studied."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

import pytest

from companion.core.day.loops import add_round, create_loop
from companion.core.journal import entries as journal
from companion.core.stories.debrief import record_surprises
from companion.core.stories.rounds import save_expected
from companion.core.study import ranking as studylist


@pytest.fixture
def loop(db):
    return create_loop(db, "Acme")


def _keys(items):
    return [i.key for i in items]


def test_empty_journal_gives_an_empty_list(db, clock):
    assert studylist.study_list(db, clock.now(), include_quiz=False) == []


def test_flubs_and_weak_topics_group_by_topic_and_rank(db, loop, clock):
    now = clock.now()
    old = now - dt.timedelta(days=60)
    rid = add_round(db, loop, "design")
    for _ in range(4):
        journal.add_flub(db, loop, rid, "Consistent hashing", "vnodes", 1, at=old)
    journal.add_flub(db, loop, rid, "consistent  HASHING", "again", 1, at=old)
    journal.add_weak_topic(db, "Consistent hashing", loop_id=loop, at=old)
    journal.add_flub(db, loop, rid, "Burst load", "no 429s", 3, at=now)
    journal.add_flub(db, loop, rid, "Heaps", "slow", 1, at=now - dt.timedelta(days=1))
    items = studylist.study_list(db, now, include_quiz=False)
    by_key = {i.key: i for i in items}
    ch = by_key["consistent hashing"]
    assert ch.count == 6 and ch.sources == {"flub", "weak"} and ch.worst == 2
    # 6 times long ago beats once, bad and today; once, bad, today beats once, minor, yesterday
    assert _keys(items) == ["consistent hashing", "burst load", "heaps"]
    assert items[0].score > items[1].score > items[2].score


def test_recency_and_severity_break_ties(db, loop, clock):
    now = clock.now()
    journal.add_flub(db, loop, None, "Old", severity=2, at=now - dt.timedelta(days=90))
    journal.add_flub(db, loop, None, "New", severity=2, at=now)
    journal.add_flub(db, loop, None, "Bad", severity=3, at=now - dt.timedelta(days=90))
    assert _keys(studylist.study_list(db, now, include_quiz=False)) == ["new", "bad", "old"]


def test_mark_studied_leaves_the_list_and_stays_in_history(db, loop, clock):
    now = clock.now()
    journal.add_flub(db, loop, None, "Burst load", at=now)
    journal.add_weak_topic(db, "Burst load")
    journal.add_flub(db, loop, None, "Heaps", at=now)
    item = next(
        i for i in studylist.study_list(db, now, include_quiz=False) if i.key == "burst load"
    )
    studylist.mark_studied(db, item, now)
    assert _keys(studylist.study_list(db, now, include_quiz=False)) == ["heaps"]
    history = studylist.study_history(db)
    assert [(h.topic_key, h.topic) for h in history] == [("burst load", "Burst load")]
    # the rows are kept, with the time they were studied
    assert db.execute("SELECT COUNT(*) FROM flubs WHERE studied_at IS NOT NULL").fetchone()[0] == 1
    # flubbing it again brings it back
    journal.add_flub(db, loop, None, "burst load", at=now + dt.timedelta(days=1))
    assert "burst load" in _keys(studylist.study_list(db, now, include_quiz=False))


def test_guide_links_match_topic_words_to_content(content):
    guide = studylist.GuideIndex(content)
    link = guide.match("GPU utilization")
    assert link is not None and link.section_id == "traps"
    assert "utilization" in link.item.lower()
    assert guide.match("Pitch ran long").section_id == "pitch"
    assert guide.match("zebra husbandry") is None
    assert guide.match("") is None


def test_study_details_list_companies_round_types_and_details(db, clock):
    a = create_loop(db, "Acme")
    b = create_loop(db, "Globex Corp")
    journal.add_flub(db, None, add_round(db, a, "design"), "Burst load", "no 429s")
    journal.add_flub(db, None, add_round(db, b, "coding"), "Burst load", "no queue depth")
    item = studylist.study_list(db, clock.now(), include_quiz=False)[0]
    detail = studylist.study_details(db, [item.key])[item.key]
    assert sorted(detail.companies) == ["Acme", "Globex Corp"]
    assert sorted(detail.round_types) == ["coding", "design"]
    assert sorted(detail.details) == ["no 429s", "no queue depth"]


def test_a_surprise_names_the_company_and_round_that_asked_it(db, clock):
    """A topic asked but not expected comes from a round: the export says whose, as it
    does for a flub (it had no company and no round type)."""
    loop = create_loop(db, "Initech")
    rid = add_round(db, loop, "behavioural")
    save_expected(db, rid, ["ownership"])
    journal.add_asked(db, loop, rid, "Tell me about a conflict", "conflict", at=clock.now())
    assert record_surprises(db, rid, 3, clock.now()) == 1
    item = studylist.study_list(db, clock.now(), include_quiz=False)[0]
    assert item.sources == {"surprise"}
    detail = studylist.study_details(db, [item.key])[item.key]
    assert detail.companies == ["Initech"] and detail.round_types == ["behavioural"]
    assert detail.details == []


@dataclass(frozen=True)
class FakeWeak:
    question_id: str
    question: str
    state: str
    see: tuple
    last_seen: str


def test_missed_quiz_questions_join_the_list_and_can_be_studied(db, clock, monkeypatch, content):
    import companion.core.study.ranking as ranking  # where the list asks for them

    seen = (clock.now() - dt.timedelta(hours=1)).isoformat()
    monkeypatch.setattr(
        ranking,
        "weak_topics",
        lambda _db: [FakeWeak("q1", "What does SM-active measure?", "missed", ("traps",), seen)],
        raising=False,
    )
    guide = studylist.GuideIndex(content)
    items = studylist.study_list(db, clock.now(), guide=guide)
    assert [(i.key, i.worst, i.sources) for i in items] == [("quiz:q1", 3, {"quiz"})]
    assert items[0].guide.section_id == "traps"
    studylist.mark_studied(db, items[0], clock.now())
    assert studylist.study_list(db, clock.now(), guide=guide) == []
