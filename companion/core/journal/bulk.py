"""Many journal rows at once: the search index is filled after the rows, not per row.

Every journal table has an insert trigger that adds the row to ``journal_fts``. A
trigger runs its FTS5 insert as a statement of its own, and FTS5 writes what it holds
to disk at every statement savepoint: a row at a time, an import wrote one tiny index
segment per row and then merged them (a 20,000-loop import took 375 s, mostly system
time). Inside :func:`index_afterwards` the insert triggers are set aside, and on the way
out the new rows go into the index with one statement per table and the triggers come
back unchanged, all inside the caller's transaction (a rollback restores everything).
The demo generator does the same in ``demo._insert``.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

from sqlite_utils import Database


@contextlib.contextmanager
def index_afterwards(db: Database) -> Iterator[None]:
    """Insert rows inside the block; they are added to the search index when it ends.
    Must run inside a transaction (``db.atomic()``)."""
    from companion.core.storage.schema.journal import FTS_SOURCES, _coalesced

    c = db.conn
    if not c.in_transaction:
        raise RuntimeError("index_afterwards() needs an open transaction")
    first = {
        table: c.execute(f"SELECT COALESCE(MAX(id), 0) + 1 FROM {table}").fetchone()[0]
        for _code, table, _loop, _text in FTS_SOURCES.values()
    }
    triggers = c.execute(
        "SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND name LIKE ?",
        ["%_fts_ai"],
    ).fetchall()
    for name, _sql in triggers:
        c.execute(f'DROP TRIGGER "{name}"')
    yield
    for kind, (code, table, loop_expr, text_expr) in FTS_SOURCES.items():
        c.execute(
            f"INSERT INTO journal_fts(rowid, kind, loop_id, body) SELECT id * 8 + {code}, "
            f"'{kind}', {loop_expr.format(r='t')}, {_coalesced(text_expr.format(r='t'), 't')} "
            f"FROM {table} AS t WHERE t.id >= ? ORDER BY t.id",
            [first[table]],
        )
    for _name, sql in triggers:
        c.execute(sql)
