"""A journal in the middle of another process's checkpoint is not "truncated".

A WAL checkpoint copies the log's pages into the main file in page order, so page 1, the
header with the new page count, lands before the pages that grow the file. Read raw in
that moment, the header promises more pages than the file holds; four imports at once
once moved a live journal aside that way (fresh run 15). Here the moment is made by hand:
page 1 of the log is written into the main file, the rest of the log is left where it is.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from companion.core.day import loops
from companion.core.storage.health import health
from companion.core.storage.store import open_store

WAL_HEADER = 32
FRAME_HEADER = 24


def _last_frame_of_page(wal: bytes, page_size: int, page: int) -> bytes:
    """The newest copy of ``page`` in the write-ahead log ``wal``."""
    frame = FRAME_HEADER + page_size
    found = None
    for start in range(WAL_HEADER, len(wal) - frame + 1, frame):
        if int.from_bytes(wal[start : start + 4], "big") == page:
            found = wal[start + FRAME_HEADER : start + frame]
    assert found is not None, f"page {page} is not in the log"
    return found


def _mid_checkpoint(db_file: Path) -> tuple[sqlite3.Connection, int]:
    """Grow the journal in its log only, then copy the log's page 1 into the main file.
    Returns the connection that keeps the log from being checkpointed at close, and the
    rows written."""
    holder = sqlite3.connect(db_file)  # while it is open, closing the writer leaves the log
    holder.execute("SELECT count(*) FROM sqlite_master").fetchone()
    writer = sqlite3.connect(db_file)
    writer.execute("PRAGMA wal_autocheckpoint = 0")
    rows = 60
    with writer:
        writer.execute("CREATE TABLE filler (x BLOB)")
        writer.executemany("INSERT INTO filler VALUES (randomblob(3000))", [()] * rows)
    page_size = writer.execute("PRAGMA page_size").fetchone()[0]
    writer.close()
    wal = db_file.with_name(db_file.name + "-wal").read_bytes()
    page_one = _last_frame_of_page(wal, page_size, 1)
    with open(db_file, "r+b") as fh:
        fh.write(page_one)
    return holder, rows


def test_a_journal_mid_checkpoint_is_healthy_and_is_opened_not_moved_aside(tmp_path):
    db_file = tmp_path / "data" / "companion.sqlite3"
    store = open_store(db_file)
    try:
        made = loops.create_loop(store.db, "Acme", "Engineer")
    finally:
        store.close()
    holder, rows = _mid_checkpoint(db_file)
    try:
        header = db_file.read_bytes()[:100]
        page_size = int.from_bytes(header[16:18], "big")
        promised = page_size * int.from_bytes(header[28:32], "big")
        assert db_file.stat().st_size < promised  # what a raw read sees: "truncated"

        assert health(db_file) == (None, True)
        assert health(db_file, full=False)[0] is None

        store = open_store(db_file)
        try:
            assert store.moved_aside is None and store.notices == []
            assert [lp.id for lp in loops.list_loops(store.db)] == [made]
            assert store.db.execute("SELECT count(*) FROM filler").fetchone()[0] == rows
        finally:
            store.close()
        assert db_file.exists() and not list(db_file.parent.glob("*.damaged-*"))
    finally:
        holder.close()


def test_a_journal_cut_short_with_no_log_behind_it_is_still_truncated(tmp_path):
    db_file = tmp_path / "companion.sqlite3"
    store = open_store(db_file)
    try:
        for n in range(300):
            loops.create_loop(store.db, f"Company {n}", "Engineer")
    finally:
        store.close()
    data = db_file.read_bytes()
    db_file.write_bytes(data[: len(data) // 2])
    problem, checked = health(db_file)
    assert problem is not None and problem.startswith("is truncated") and not checked
