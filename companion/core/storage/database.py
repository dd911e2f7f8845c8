"""sqlite-utils' view of the journal's connection, for the code that writes or queries
through it. Imported only when first needed (see ``store.Store.db``)."""

from __future__ import annotations

import contextlib

from sqlite_utils import Database


class JournalDatabase(Database):
    """sqlite-utils' Database whose outermost ``atomic()`` takes the write lock up front
    (``BEGIN IMMEDIATE``): a second process then waits on the busy timeout instead of
    failing at once with "database is locked" when its read turns into a write.
    ``commits`` counts the transactions it committed (an error after one must not say
    that nothing was saved)."""

    commits = 0

    @contextlib.contextmanager
    def atomic(self):
        if self.conn.in_transaction:
            with super().atomic():
                yield self
            return
        self.conn.execute("BEGIN IMMEDIATE")
        try:
            yield self
        except BaseException:
            self.rollback()
            raise
        else:
            try:
                self.conn.execute("COMMIT")
            except BaseException:
                self.rollback()
                raise
            self.commits += 1
