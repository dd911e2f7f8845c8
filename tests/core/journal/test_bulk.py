"""The search index filled in bulk after an import is the index the triggers keep."""

from __future__ import annotations

import datetime as dt

import demo_journal as demo
import pytest

from companion.core.day.loops import create_loop
from companion.core.journal import entries as journal
from companion.core.journal import search
from companion.core.journal.bulk import DEFAULT_HASH_BYTES, index_afterwards
from companion.core.journal.files import import_journal_data, journal_dict
from companion.core.storage.schema.journal import FTS_SOURCES, _coalesced
from companion.core.storage.store import open_memory_store

NOW = dt.datetime(2026, 12, 1, 9, tzinfo=dt.UTC)


def _rebuild_index(db) -> None:
    """The index made again from the tables, row by row: what the triggers should hold."""
    with db.atomic():
        db.execute("DELETE FROM journal_fts")
        for kind, (code, table, loop_expr, text_expr) in FTS_SOURCES.items():
            db.execute(
                f"INSERT INTO journal_fts(rowid, kind, loop_id, body) SELECT id * 8 + {code}, "
                f"'{kind}', {loop_expr.format(r='t')}, {_coalesced(text_expr.format(r='t'), 't')} "
                f"FROM {table} AS t"
            )


def _index(db) -> list[tuple]:
    return db.execute(
        "SELECT rowid, kind, loop_id, body FROM journal_fts ORDER BY rowid"
    ).fetchall()


def _hash_setting(db):
    return db.execute("SELECT v FROM journal_fts_config WHERE k = 'hashsize'").fetchone()


def test_an_import_indexes_every_new_row_as_the_triggers_would():
    source = open_memory_store().db
    demo.generate(source, 40, seed=5, today=NOW.date())
    doc = journal_dict(source, NOW)
    db = open_memory_store().db
    loop = create_loop(db, "Already here")  # the import's rows come after existing ones
    journal.add_flub(db, loop, None, "Zyzzyva reads", "", 2, at=NOW)
    import_journal_data(db, doc, NOW)
    bulk = _index(db)
    assert len(bulk) == sum(
        db.execute(f"SELECT COUNT(*) FROM {t}").fetchone()[0]
        for t in ("loops", "rounds", "asked", "flubs", "went_well", "weak_topics", "thank_yous")
    )
    db.execute("INSERT INTO journal_fts(journal_fts, rank) VALUES ('integrity-check', 1)")
    _rebuild_index(db)  # the index as the tables say it should be
    assert bulk == _index(db)
    assert [h.company for h in search.search(db, "zyzzyva")] == ["Already here"]


def test_the_fill_leaves_the_index_settings_as_they_were():
    db = open_memory_store().db
    with db.atomic(), index_afterwards(db):
        create_loop(db, "Acme")
    assert _hash_setting(db) in (None, (DEFAULT_HASH_BYTES,))
    db.execute("INSERT INTO journal_fts(journal_fts, rank) VALUES ('hashsize', 4096)")
    with db.atomic(), index_afterwards(db):
        create_loop(db, "Initech")
    assert _hash_setting(db) == (4096,)
    assert [h.company for h in search.search(db, "initech")] == ["Initech"]


def test_a_fill_that_fails_rolls_back_with_the_rows():
    db = open_memory_store().db
    with pytest.raises(RuntimeError), db.atomic(), index_afterwards(db):
        create_loop(db, "Acme")
        raise RuntimeError("the import failed")
    assert db.execute("SELECT COUNT(*) FROM loops").fetchone()[0] == 0
    assert _index(db) == []
    assert _hash_setting(db) is None
