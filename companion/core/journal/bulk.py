"""Many journal rows at once: the search index is filled after the rows, not per row.

Every journal table has an insert trigger that adds the row to ``journal_fts``. A
trigger runs its FTS5 insert as a statement of its own, and FTS5 writes what it holds
to disk at every statement savepoint: a row at a time, an import wrote one tiny index
segment per row and then merged them (a 20,000-loop import took 375 s, mostly system
time). Inside :func:`index_afterwards` the insert triggers are set aside, and on the way
out the new rows go into the index with one statement, in rowid order, and the triggers come
back unchanged, all inside the caller's transaction (a rollback restores everything).
The demo generator fills its rows through it too.
"""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Iterator

from sqlite_utils import Database

from companion.core.storage.schema.journal import FTS_SOURCES, _coalesced


@contextlib.contextmanager
def index_afterwards(db: Database) -> Iterator[None]:
    """Insert rows inside the block; they are added to the search index when it ends.
    Must run inside a transaction (``db.atomic()``)."""

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
    # one statement in rowid order: the index and its copy of the text are appended to,
    # not split open at every row (7 passes in id order made a 10% larger file)
    parts, since = [], []
    for kind, (code, table, loop_expr, text_expr) in FTS_SOURCES.items():
        parts.append(
            f"SELECT t.id * 8 + {code} AS r, '{kind}' AS k, {loop_expr.format(r='t')} AS l, "
            f"{_coalesced(text_expr.format(r='t'), 't')} AS b FROM {table} AS t WHERE t.id >= ?"
        )
        since.append(first[table])
    with _pending_terms(c, BULK_HASH_BYTES):
        c.execute(
            "INSERT INTO journal_fts(rowid, kind, loop_id, body) SELECT r, k, l, b FROM ("
            + " UNION ALL ".join(parts)
            + ") ORDER BY r",
            since,
        )
    for _name, sql in triggers:
        c.execute(sql)


# FTS5 writes the terms it holds as a new index segment whenever they pass its hash size
# (1 MiB by default) and merges the segments as they pile up; for a bulk fill a larger
# hash means a few big segments instead of hundreds of small ones merged again and again
# (a 20,000-loop import: about a quarter of the fill's CPU time). 32 MiB at most is held.
BULK_HASH_BYTES = 32 * 2**20
DEFAULT_HASH_BYTES = 2**20  # FTS5_DEFAULT_HASHSIZE


@contextlib.contextmanager
def _pending_terms(c, size: int) -> Iterator[None]:
    """FTS5's ``hashsize`` (a config value stored with the index) set to ``size`` for the
    block, and back to what it was after it. An SQLite without the setting fills the
    index the ordinary way."""
    row = c.execute("SELECT v FROM journal_fts_config WHERE k = 'hashsize'").fetchone()
    before = row[0] if row else DEFAULT_HASH_BYTES
    try:
        c.execute("INSERT INTO journal_fts(journal_fts, rank) VALUES ('hashsize', ?)", [size])
    except sqlite3.Error:
        yield
        return
    yield
    c.execute("INSERT INTO journal_fts(journal_fts, rank) VALUES ('hashsize', ?)", [before])
