"""Journal entries, captures due, thank-you tracker (the due times are the day's)."""

from __future__ import annotations

import datetime as dt

import pytest

from companion.core.day.actions import load_view, thank_you_due
from companion.core.day.loops import add_round, create_loop, end_round, start_round
from companion.core.day.rules import day_rules
from companion.core.journal import detail as journal_detail
from companion.core.journal import entries as journal
from companion.core.journal import thankyou as journal_thankyou


@pytest.fixture
def loop(db):
    return create_loop(db, "Acme", "Staff engineer", starts_on="2026-12-01", ends_on="2026-12-01")


def test_entries_attach_to_round_and_loop(db, loop, clock):
    rid = add_round(db, loop, "design", interviewer_name="Dana")
    journal.add_asked(db, None, rid, "Design a GPU scheduler", "GPU scheduling", at=clock.now())
    journal.add_flub(db, None, rid, "Consistent hashing", "virtual nodes", 3, at=clock.now())
    journal.add_went_well(db, None, rid, "Clear requirements", at=clock.now())
    journal.add_weak_topic(db, "Cost math", loop_id=loop)
    detail = journal_detail.loop_detail(db, loop)
    assert detail.loop.company == "Acme"
    first = detail.rounds[0]
    assert first.round.id == rid
    assert [a.question for a in first.asked] == ["Design a GPU scheduler"]
    assert first.asked[0].loop_id == loop  # filled from the round
    assert first.flubs[0].severity == 3
    assert first.went_well[0].text == "Clear requirements"
    loose = detail.rounds[-1]
    assert loose.round is None and loose.weak[0].topic == "Cost math"


def test_bad_entries_are_refused_with_a_reason(db, loop):
    with pytest.raises(ValueError, match="1, 2 or 3"):
        journal.add_flub(db, loop, None, "x", severity=5)
    with pytest.raises(ValueError, match="empty"):
        journal.add_asked(db, loop, None, "   ")
    with pytest.raises(ValueError, match="Round 999"):
        journal.add_asked(db, None, 999, "q")
    assert db.execute("SELECT COUNT(*) FROM asked").fetchone()[0] == 0


def _view(db, content, now, loop_id=None):
    return load_view(db, day_rules(content), now, loop_id)


def test_capture_due_for_the_window_after_the_last_round_until_notes_exist(
    db, loop, clock, content
):
    now = clock.now()
    r1 = start_round(db, "design", now - dt.timedelta(hours=2), loop_id=loop)
    end_round(db, r1, now - dt.timedelta(minutes=90))
    assert _view(db, content, now).capture_due_by is None  # ended more than an hour ago
    r2 = start_round(db, "coding", now - dt.timedelta(minutes=50), loop_id=loop)
    end_round(db, r2, now - dt.timedelta(minutes=5))
    view = _view(db, content, now)
    assert view.capture_round_id == r2
    assert view.capture_due_by == now - dt.timedelta(minutes=5) + content.capture_window
    assert _view(db, content, now + dt.timedelta(minutes=56)).capture_due_by is None
    journal.add_asked(db, None, r2, "Implement an LRU cache")
    # r1's window was cut by r2 (it began 40 minutes into it): it resumed at r2's end
    view = _view(db, content, now)
    assert view.capture_round_id == r1
    assert view.capture_due_by == now - dt.timedelta(minutes=5) + content.capture_window
    journal.add_asked(db, None, r1, "Design a rate limiter")
    assert _view(db, content, now).capture_due_by is None


def test_capture_due_for_a_round_without_a_loop_in_another_offset(db, clock, content):
    now = clock.now()
    other = dt.timezone(dt.timedelta(hours=-8))
    rid = start_round(db, "coding", (now - dt.timedelta(minutes=40)).astimezone(other))
    end_round(db, rid, (now - dt.timedelta(minutes=10)).astimezone(other))
    view = _view(db, content, now)
    assert view.loop is None and view.capture_round_id == rid


def test_thank_you_due_after_the_last_round_by_the_days_rule(db, loop, clock, content):
    now = clock.now()
    rid = start_round(db, "design", now - dt.timedelta(hours=2), loop_id=loop)
    end_round(db, rid, now - dt.timedelta(hours=1))
    due = thank_you_due(db, day_rules(content), now, loop)
    assert due == now - dt.timedelta(hours=1) + content.thank_you_after
    assert due == _view(db, content, now, loop).thank_you_due_by  # what Today shows
    journal_thankyou.save_thank_you(db, loop, sent_at=now)
    assert thank_you_due(db, day_rules(content), now, loop) is None
    assert journal_thankyou.thank_you(db, loop).sent


def test_a_loop_with_no_rounds_has_no_thank_you_time(db, loop, clock, content):
    """Today says nothing is due; the Journal says the same (it showed 18:00 + 24 h)."""
    assert _view(db, content, clock.now(), loop).thank_you_due_by is None
    assert thank_you_due(db, day_rules(content), clock.now(), loop) is None


def test_thank_you_draft_mentions_one_specific_topic_not_a_flub(db, loop):
    rid = add_round(
        db, loop, "design", interviewer_name="Dana Li", interviewer_role="hiring-manager"
    )
    journal.add_asked(db, loop, rid, "Shard a KV cache", "consistent hashing")
    journal.add_asked(db, loop, rid, "Virtual nodes?", "consistent hashing")
    journal.add_asked(db, loop, rid, "Tell me about yourself", "pitch")
    journal.add_flub(db, loop, rid, "Burst load")
    text = journal_thankyou.compose_thank_you(db, loop).text
    assert text.startswith("Hi Dana,")
    assert "consistent hashing" in text and "Acme" in text and "Staff engineer" in text
    assert "Burst load" not in text


def test_thank_you_draft_without_notes_leaves_a_visible_placeholder(db, loop):
    text = journal_thankyou.compose_thank_you(db, loop).text
    assert "[one specific topic you discussed]" in text
    assert text.startswith("Hi [name],"), "no one named: a placeholder the user fills"


def test_thank_you_draft_reads_like_a_person_wrote_it(db, loop):
    add_round(db, loop, "coding", interviewer_name="Sam Peer", interviewer_role="peer")
    rid = add_round(
        db, loop, "design", interviewer_name="Priya Raman", interviewer_role="hiring-manager"
    )
    journal.add_asked(db, loop, rid, "Build an LRU cache", "lru-cache")
    text = journal_thankyou.compose_thank_you(db, loop).text
    assert text.startswith("Hi Priya,"), "the hiring manager, by first name"
    assert "our conversation about the LRU cache;" in text and "lru-cache" not in text
    journal_thankyou.save_thank_you(db, loop, to_whom="Priya Raman (hiring manager)")
    assert journal_thankyou.compose_thank_you(db, loop).text.startswith("Hi Priya,")


def test_thank_you_words():
    from companion.core.journal.thankyou_words import greeting, topic_in_words

    assert greeting("") == "Hi [name],"
    assert greeting("Dr. Ada Okafor (recruiter)") == "Hi Dr. Okafor,"
    assert greeting("kim@acme.com") == "Hi [name],"
    assert greeting("Kim and Lee") == "Hi Kim,"
    assert topic_in_words("lru-cache") == "the LRU cache"
    assert topic_in_words("rate_limiting") == "rate limiting"
    assert topic_in_words("consistent hashing") == "consistent hashing"
    assert topic_in_words("api-design") == "the API design"
    assert topic_in_words("tcp-vs-udp") == "TCP vs UDP"


def test_save_thank_you_keeps_fields_not_given(db, loop, clock):
    journal_thankyou.save_thank_you(db, loop, to_whom="Dana", draft="Hello")
    journal_thankyou.save_thank_you(db, loop, draft="Hello again")
    ty = journal_thankyou.thank_you(db, loop)
    assert (ty.to_whom, ty.draft, ty.sent) == ("Dana", "Hello again", False)
    journal_thankyou.save_thank_you(db, loop, sent_at=clock.now())
    journal_thankyou.save_thank_you(db, loop, sent_at=None)
    assert not journal_thankyou.thank_you(db, loop).sent


def test_deleting_a_round_removes_its_entries_and_their_index_rows(db, loop):
    rid = add_round(db, loop, "design")
    journal.add_flub(db, None, rid, "Zanzibar consistency")
    from companion.core.journal.search import search

    assert search(db, "zanzibar")
    db.execute("DELETE FROM rounds WHERE id = ?", [rid])
    assert db.execute("SELECT COUNT(*) FROM flubs").fetchone()[0] == 0
    assert search(db, "zanzibar") == []


def test_100kb_notes_and_odd_unicode_are_kept_exactly(db, loop):
    big = ('naïve 東京 \u202e tab\there "quoted" line\nbreak 🙂 ' * 3000)[:100_000]
    journal.set_loop_notes(db, loop, big)
    fid = journal.add_flub(db, loop, None, "Ünïcödé ✓", big)
    assert journal_detail.loop_detail(db, loop).loop.notes == big.strip()
    assert db.execute("SELECT detail FROM flubs WHERE id = ?", [fid]).fetchone()[0] == big.strip()


def test_a_question_kept_as_written_is_quoted_in_the_thank_you(db, loop):
    """Only a behavioural kind of question was asked ("conflict" is one, not a thing
    discussed): the draft quotes the question (it read "our conversation about Tell me
    about a conflict")."""
    rid = add_round(
        db, loop, "behavioral", interviewer_name="Dana Li", interviewer_role="hiring-manager"
    )
    journal.add_asked(db, loop, rid, "Tell me about a conflict?", "conflict")
    draft = journal_thankyou.compose_thank_you(db, loop, not_topics=("conflict",))
    assert "I especially enjoyed your question, “Tell me about a conflict”," in draft.text
    assert "conversation about Tell" not in draft.text
