"""The stories part of the journal export and import."""

from __future__ import annotations

import datetime as dt

import pytest

from companion.core.stories.parse import parse_stories


def test_journal_export_carries_the_stories_losslessly_and_idempotently(
    three, loop_round, db, clock, ctx, tmp_path
):
    from companion.core.about import store as about_store
    from companion.core.context import AppContext
    from companion.core.journal.entries import add_asked
    from companion.core.journal.files import import_journal_data, journal_dict
    from companion.core.stories.debrief import record_surprises
    from companion.core.stories.rounds import load_expected, save_expected, toggle_used, use_titles

    loop_id, round_id = loop_round(db)
    about_store.save_text(db, three, clock.now(), doc="stories")
    save_expected(db, round_id, ["conflict", "failure"])
    toggle_used(db, round_id, parse_stories(three).stories[0], clock.now())
    add_asked(db, loop_id, round_id, "Why leave?", "motivation")
    record_surprises(db, round_id, 3, clock.now())
    exported = journal_dict(db, clock.now())
    assert exported["stories"]["document"] == three
    assert exported["stories"]["rounds"][0]["expected"] == ["conflict", "failure"]

    (tmp_path / "other").mkdir()
    other_ctx = AppContext(tmp_path / "other")
    other = other_ctx.store
    import json

    data = json.loads(json.dumps(exported))
    first = import_journal_data(other.db, data)
    assert first.stories_added >= 3
    again = import_journal_data(other.db, json.loads(json.dumps(exported)))
    assert again.stories_added == 0
    new_round = other.db.execute("SELECT id FROM rounds").fetchone()[0]
    assert load_expected(other.db, new_round) == ["conflict", "failure"]
    assert use_titles(other.db, new_round) == ["Cut GPU cost"]
    assert about_store.load_document(other.db, doc="stories") == three
    back = journal_dict(other.db, clock.now())["stories"]
    assert back == exported["stories"]
    other_ctx.close()


def test_a_bad_stories_part_names_the_place_and_changes_nothing(loop_round, db):
    from companion.core.journal.files import import_journal_data, journal_dict
    from companion.core.journal.validate import JournalImportError

    loop_round(db)
    data = journal_dict(db, dt.datetime.now(dt.UTC))
    data["loops"] = []
    data["stories"] = {
        "document": None,
        "rounds": [
            {"loop": {"company": "X", "created_at": "2026-01-01T00:00:00+00:00"}, "round": 0}
        ],
    }
    before = db.execute("SELECT COUNT(*) FROM rounds").fetchone()
    with pytest.raises(JournalImportError, match=r"stories.rounds\[0\].round"):
        import_journal_data(db, data)
    assert db.execute("SELECT COUNT(*) FROM rounds").fetchone() == before
