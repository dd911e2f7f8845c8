"""Editing, deleting and restoring journal entries; loops, rounds and weak topics."""

from __future__ import annotations

import pytest

from companion.core.day import loops
from companion.core.day.loops import add_round, create_loop, get_loop, get_round
from companion.core.journal import edits as journal_edits
from companion.core.journal import entries as journal
from companion.core.journal import weak as journal_weak
from companion.core.journal.search import search
from companion.core.study.ranking import study_list


@pytest.fixture
def loop(db):
    return create_loop(db, "Acme", "SRE", starts_on="2026-12-01", ends_on="2026-12-01")


@pytest.fixture
def rid(db, loop):
    return add_round(db, loop, "design", interviewer_name="Dana")


def _kinds(db, text):
    return sorted(hit.kind for hit in search(db, text))


def test_an_edited_flub_is_found_by_its_new_text_and_not_its_old(db, rid, clock):
    fid = journal.add_flub(db, None, rid, "Zanzibar consistency", "tuples", 1)
    assert _kinds(db, "zanzibar") == ["flub"]
    old = journal_edits.update_entry(
        db, "flub", fid, topic="Raft leader election", detail="split votes", severity=3
    )
    assert old == {"topic": "Zanzibar consistency", "detail": "tuples", "severity": 1}
    flub = journal_edits.get_entry(db, "flub", fid)
    assert (flub.topic, flub.detail, flub.severity) == ("Raft leader election", "split votes", 3)
    assert _kinds(db, "zanzibar") == []
    assert _kinds(db, "tuples") == []
    assert _kinds(db, "raft") == ["flub"]
    assert _kinds(db, "split votes") == ["flub"]
    # the study list groups by the new topic
    assert [i.topic for i in study_list(db, clock.now(), include_quiz=False)] == [
        "Raft leader election"
    ]


@pytest.mark.parametrize(
    ("kind", "add", "fields", "new_word", "old_word"),
    [
        ("asked", lambda db, r: journal.add_asked(db, None, r, "Design Zanzibar", "authz"),
         {"question": "Design a rate limiter", "topic": "token bucket"}, "bucket", "zanzibar"),
        ("went_well", lambda db, r: journal.add_went_well(db, None, r, "Zanzibar rapport"),
         {"text": "Clear requirements"}, "requirements", "zanzibar"),
        ("weak", lambda db, r: journal.add_weak_topic(db, "Zanzibar", round_id=r),
         {"topic": "Quorum math", "note": "R + W > N"}, "quorum", "zanzibar"),
    ],
)  # fmt: skip
def test_every_entry_kind_edits_and_reindexes(db, rid, kind, add, fields, new_word, old_word):
    entry_id = add(db, rid)
    journal_edits.update_entry(db, kind, entry_id, **fields)
    entry = journal_edits.get_entry(db, kind, entry_id)
    for name, value in fields.items():
        assert getattr(entry, name) == value
    assert _kinds(db, new_word) == [kind]
    assert _kinds(db, old_word) == []


def test_bad_edits_are_refused_and_change_nothing(db, rid):
    fid = journal.add_flub(db, None, rid, "Heaps", "push/pop", 2)
    with pytest.raises(ValueError, match="empty"):
        journal_edits.update_entry(db, "flub", fid, topic="   ", detail="new")
    with pytest.raises(ValueError, match="1, 2 or 3"):
        journal_edits.update_entry(db, "flub", fid, severity=7)
    with pytest.raises(ValueError, match="no field 'text'"):
        journal_edits.update_entry(db, "flub", fid, text="x")
    with pytest.raises(ValueError, match="no longer exists"):
        journal_edits.update_entry(db, "asked", 999, question="q")
    with pytest.raises(ValueError, match="Unknown journal entry kind"):
        journal_edits.update_entry(db, "loops", fid, topic="x")
    flub = journal_edits.get_entry(db, "flub", fid)
    assert (flub.topic, flub.detail, flub.severity) == ("Heaps", "push/pop", 2)


def test_undo_of_an_edit_puts_the_old_values_back(db, rid):
    fid = journal.add_flub(db, None, rid, "Heaps", "push/pop", 2)
    old = journal_edits.update_entry(db, "flub", fid, topic="Tries", severity=3)
    journal_edits.update_entry(db, "flub", fid, **old)
    assert _kinds(db, "heaps") == ["flub"] and _kinds(db, "tries") == []
    row = db.execute("SELECT topic_key, severity FROM flubs WHERE id = ?", [fid]).fetchone()
    assert row == ("heaps", 2)


def test_a_deleted_entry_is_restored_exactly_with_its_id_and_index(db, rid):
    fid = journal.add_flub(db, None, rid, "Zanzibar", "tuples", 3)
    db.execute("UPDATE flubs SET studied_at = '2026-12-02T10:00:00+00:00' WHERE id = ?", [fid])
    row = journal_edits.entry_row(db, "flub", fid)
    journal.delete_entry(db, "flub", fid)
    assert journal_edits.get_entry(db, "flub", fid) is None and _kinds(db, "zanzibar") == []
    assert journal_edits.restore_entry(db, "flub", row) == fid
    assert journal_edits.entry_row(db, "flub", fid) == row
    assert _kinds(db, "zanzibar") == ["flub"]


def test_restore_takes_a_new_id_when_the_old_one_was_reused(db, rid):
    aid = journal.add_asked(db, None, rid, "First question")
    row = journal_edits.entry_row(db, "asked", aid)
    journal.delete_entry(db, "asked", aid)
    reused = journal.add_asked(db, None, rid, "Second question")
    assert reused == aid  # SQLite hands the free id out again
    new_id = journal_edits.restore_entry(db, "asked", row)
    assert new_id != aid
    assert journal_edits.get_entry(db, "asked", new_id).question == "First question"
    assert journal_edits.get_entry(db, "asked", aid).question == "Second question"


def test_restore_refuses_when_the_round_is_gone(db, rid):
    aid = journal.add_asked(db, None, rid, "Question")
    row = journal_edits.entry_row(db, "asked", aid)
    db.execute("DELETE FROM rounds WHERE id = ?", [rid])
    with pytest.raises(ValueError, match="round was deleted"):
        journal_edits.restore_entry(db, "asked", row)


def test_edit_loop_checks_every_field_and_reindexes(db, loop):
    old = loops.update_loop(
        db,
        loop,
        company=" Globex ",
        role="Staff SRE",
        starts_on="2026-12-03",
        ends_on="2026-12-04",
        status="offer",
        notes="Great team",
    )
    assert old["company"] == "Acme" and old["status"] == "planned"
    got = get_loop(db, loop)
    assert (got.company, got.role, got.starts_on, got.ends_on, got.status, got.notes) == (
        "Globex",
        "Staff SRE",
        "2026-12-03",
        "2026-12-04",
        "offer",
        "Great team",
    )
    assert _kinds(db, "globex") == ["loop"] and _kinds(db, "acme") == []
    with pytest.raises(ValueError, match="company is empty"):
        loops.update_loop(db, loop, company=" ")
    with pytest.raises(ValueError, match="'03/12/2026' is not a date"):
        loops.update_loop(db, loop, starts_on="03/12/2026")
    with pytest.raises(ValueError, match="before the first day"):
        loops.update_loop(db, loop, ends_on="2026-12-01")
    with pytest.raises(ValueError, match="status 'maybe'"):
        loops.update_loop(db, loop, status="maybe")
    loops.update_loop(db, loop, starts_on="", ends_on=None)
    got = get_loop(db, loop)
    assert (got.starts_on, got.ends_on, got.company) == (None, None, "Globex")


def test_edit_loop_keeps_an_imported_status_it_does_not_know(db, loop):
    db.execute("UPDATE loops SET status = 'on hold' WHERE id = ?", [loop])
    loops.update_loop(db, loop, status="on hold", role="SRE II")
    assert get_loop(db, loop).status == "on hold"


def test_edit_round_fields_and_notes(db, rid):
    old = loops.update_round(
        db, rid, type="coding", interviewer_role="peer", interviewer_name="Sam", notes="Graphs"
    )
    assert old == {
        "type": "design",
        "interviewer_role": "",
        "interviewer_name": "Dana",
        "notes": "",
    }
    got = get_round(db, rid)
    assert (got.type, got.interviewer_role, got.interviewer_name, got.notes) == (
        "coding",
        "peer",
        "Sam",
        "Graphs",
    )
    assert _kinds(db, "graphs") == ["round"]
    with pytest.raises(ValueError, match="interviewer role 'boss'"):
        loops.update_round(db, rid, interviewer_role="boss")
    with pytest.raises(ValueError, match="start time 'x' is not a date"):
        loops.update_round(db, rid, started_at="x")
    with pytest.raises(ValueError, match="Round 999"):
        loops.update_round(db, 999, notes="x")


def test_edit_the_day_models_round_fields(db, rid, clock):
    """The day's transitions (core/day/actions.py) change these through update_round."""
    now = clock.now()
    loops.update_round(db, rid, type_label="Culture chat", length_minutes=30)
    loops.update_round(db, rid, skipped_at=now, scheduled_at=now)
    got = get_round(db, rid)
    assert (got.type_label, got.length_minutes) == ("Culture chat", 30)
    assert got.skipped_at and got.scheduled == now.replace(microsecond=0)
    loops.update_round(db, rid, skipped_at=None, started_at=now, ended_at=now)
    got = get_round(db, rid)
    assert got.skipped_at is None and got.started and got.ended
    for bad in (0, 24 * 60 + 1, "30", True):
        with pytest.raises(ValueError, match="between 1 minute and 24 hours"):
            loops.update_round(db, rid, length_minutes=bad)
    with pytest.raises(ValueError, match="skipped time 'later' is not a date"):
        loops.update_round(db, rid, skipped_at="later")


def test_mark_weak_once_per_topic_and_unmark_with_restore(db, loop, rid, clock):
    first = journal_weak.mark_weak(db, "Consistent hashing", loop_id=loop, at=clock.now())
    assert first is not None
    assert journal_weak.mark_weak(db, "consistent-hashing!", round_id=rid) is None
    assert journal_weak.is_weak(db, "CONSISTENT HASHING")
    assert [t.topic for t in journal_weak.open_weak_topics(db)] == ["Consistent hashing"]
    items = study_list(db, clock.now(), include_quiz=False)
    assert [(i.topic, i.sources) for i in items] == [("Consistent hashing", {"weak"})]

    removed = journal_weak.unmark_weak(db, "consistent hashing")
    assert [r["id"] for r in removed] == [first]
    assert not journal_weak.is_weak(db, "Consistent hashing")
    assert study_list(db, clock.now(), include_quiz=False) == []
    for row in removed:
        journal_edits.restore_entry(db, "weak", row)
    assert journal_weak.is_weak(db, "Consistent hashing")


def test_unmark_leaves_studied_marks_in_history(db, loop, clock):
    wid = journal.add_weak_topic(db, "Tries", loop_id=loop)
    db.execute(
        "UPDATE weak_topics SET studied_at = '2026-12-01T00:00:00+00:00' WHERE id = ?", [wid]
    )
    assert journal_weak.unmark_weak(db, "tries") == []
    assert journal_edits.get_entry(db, "weak", wid) is not None
    assert journal_weak.open_weak_topics(db) == []


def test_entry_kind_of_names_each_entry(db, rid):
    aid = journal.add_asked(db, None, rid, "Q")
    assert journal_edits.entry_kind_of(journal_edits.get_entry(db, "asked", aid)) == "asked"
    with pytest.raises(ValueError, match="not a journal entry"):
        journal_edits.entry_kind_of("text")
