"""Adding a checked journal file to the database, table by table: all loops, then all
rounds, then each kind of entry, with the search index filled once at the end
(:func:`.bulk.index_afterwards`; per-row index writes made a 20,000-loop import take
375 s).

Which rows are already here (importing a file twice adds nothing):
- a loop with a ``created_at``: same company and created_at;
- a loop without one: same company, role, dates, status and notes;
- unfiled rounds and entries: same content (an undated entry: same content but its time);
- a study mark: same topic and studied_at (undated: any mark of the same topic).
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from dataclasses import dataclass

from sqlite_utils import Database

from companion.core.about.takes import import_takes
from companion.core.content.audiences import audience_of
from companion.core.journal.bulk import index_afterwards
from companion.core.journal.check_fields import collector_paused
from companion.core.journal.validate import (
    ENTRY_KINDS,
    LOOP_FIELDS,
    ROUND_FIELDS,
    CheckedJournal,
    parse_journal,
)
from companion.core.review.transfer import import_review
from companion.core.selfcheck import planner
from companion.core.stories.transfer import import_stories
from companion.core.text import count_of, topic_key
from companion.core.timeutil import to_stored_utc

_LOOP_CONTENT = tuple(k for k in LOOP_FIELDS if k != "created_at")


@dataclass
class ImportReport:
    loops_added: int = 0
    loops_skipped: int = 0
    entries_added: int = 0
    asked_them_skipped: int = 0  # questions you asked kept with no loop to put them in
    entries_skipped: int = 0  # unfiled rows already here (importing twice adds nothing)
    reviews_added: int = 0  # review log entries not here yet
    stories_added: int = 0  # story bank rows not here yet (companion.core.stories.transfer)
    takes_added: int = 0  # kept rehearsal takes not here yet (companion.core.about.takes)
    control_chars_removed: int = 0

    def summary(self) -> str:
        """The one line the command and the Journal page both say after an import."""
        were = "was" if self.loops_skipped == 1 else "were"
        parts = [
            count_of(self.loops_added, "loop"),
            count_of(self.entries_added, "entry", "entries"),
        ]
        parts += [  # the other parts of a journal, said when the file brought some
            count_of(n, noun)
            for n, noun in (
                (self.reviews_added, "review"),
                (self.stories_added, "story bank row"),
                (self.takes_added, "rehearsal take"),
            )
            if n
        ]
        said = ", ".join(parts[:-1]) + f" and {parts[-1]}"
        return f"Imported {said}; {count_of(self.loops_skipped, 'loop')} {were} already here."

    def warnings(self) -> list[str]:
        """What was changed or left out on the way in, a line each."""
        out = []
        if self.control_chars_removed:
            out.append(f"Removed {count_of(self.control_chars_removed, 'control character')}.")
        if self.asked_them_skipped:
            out.append(
                f"{count_of(self.asked_them_skipped, 'question')} you asked could not be "
                "imported (planner not available or refused them)."
            )
        return out


def import_checked(db: Database, doc: CheckedJournal) -> ImportReport:
    """Add a checked file in one transaction (a savepoint inside an open one)."""
    report = ImportReport(control_chars_removed=doc.stripped)
    with collector_paused(), db.atomic(), index_afterwards(db):
        loop_ids = _insert_loops(db, doc, report)
        round_ids = _insert_rounds(db, doc, loop_ids, report)
        _insert_entries(db, doc, loop_ids, round_ids, report)
        updated = to_stored_utc()  # one time for the import's thank-yous, not one each
        db.conn.executemany(
            "INSERT INTO thank_yous(loop_id, to_whom, draft, sent_at, updated_at) "
            "VALUES (?, ?, ?, ?, ?)",
            (
                (loop_ids[t[0]], *t[1:], updated)
                for t in doc.thank_yous
                if loop_ids[t[0]] is not None
            ),
        )
        _insert_asked_them(db, doc, loop_ids, round_ids, report)
        _insert_study_marks(db, doc)

        report.reviews_added = import_review(db, doc.review)

        report.stories_added = import_stories(db, doc.stories, dt.datetime.now(dt.UTC))

        report.takes_added = import_takes(db, doc.takes)
    return report


def import_journal_data(db: Database, data: object, now: dt.datetime | None = None):
    """Check a loaded journal document (or take a checked one) and add it."""
    return import_checked(db, parse_journal(data, now))


def _insert_loops(db: Database, doc: CheckedJournal, report: ImportReport) -> list[int | None]:
    """The new id of each loop of the file, None for one already here."""
    dated: set[tuple] = set()
    undated: set[tuple] = set()
    cols = ", ".join(LOOP_FIELDS)
    for row in db.execute(f"SELECT {cols} FROM loops"):
        dated.add((row[0], row[-1]))
        undated.add(row[:-1])
    next_id = _next_id(db, "loops")
    ids: list[int | None] = []
    new: list[tuple] = []
    for row in doc.loops:
        values, has_time = row[:-1], row[-1]
        key = (values[0], values[-1]) if has_time else values[:-1]
        if key in (dated if has_time else undated):
            report.loops_skipped += 1
            ids.append(None)
            continue
        ids.append(next_id)
        new.append((next_id, *values))
        next_id += 1
    db.conn.executemany(f"INSERT INTO loops(id, {cols}) VALUES (?{', ?' * len(LOOP_FIELDS)})", new)
    report.loops_added += len(new)
    return ids


def _next_id(db: Database, table: str) -> int:
    """The id SQLite would give the next row (none of these tables is AUTOINCREMENT):
    naming it lets one executemany add the rows, inside the write transaction."""
    return db.conn.execute(f"SELECT COALESCE(MAX(id), 0) + 1 FROM {table}").fetchone()[0]


def _insert_rounds(db, doc: CheckedJournal, loop_ids, report) -> dict[tuple, int]:
    """(loop index or None, ref) -> round id; unfiled rounds already here are reused."""
    pool: dict[tuple, list[int]] = {}
    for row in db.execute(
        f"SELECT id, {', '.join(ROUND_FIELDS)} FROM rounds WHERE loop_id IS NULL ORDER BY id"
    ).fetchall():
        pool.setdefault(tuple(row[1:]), []).append(row[0])
    next_id = _next_id(db, "rounds")
    ids: dict[tuple, int] = {}
    new: list[tuple] = []
    for loop, ref, *fields in doc.rounds:
        if loop is None:
            same = pool.get(tuple(fields))
            if same:
                ids[(None, ref)] = same.pop(0)
                report.entries_skipped += 1
                continue
            loop_id = None
        else:
            loop_id = loop_ids[loop]
            if loop_id is None:
                continue
        ids[(loop, ref)] = next_id
        new.append((next_id, loop_id, *fields))
        next_id += 1
    db.conn.executemany(
        f"INSERT INTO rounds(id, loop_id, {', '.join(ROUND_FIELDS)}) "
        f"VALUES (?, ?{', ?' * len(ROUND_FIELDS)})",
        new,
    )
    return ids


def _insert_entries(db, doc: CheckedJournal, loop_ids, round_ids, report) -> None:
    keys: dict[str, str] = {}  # topic -> topic_key: a journal repeats its topics a lot

    def key_of(topic: str) -> str:
        key = keys.get(topic)
        if key is None:
            key = keys[topic] = topic_key(topic)
        return key

    for name, (table, fields, optional) in ENTRY_KINDS.items():
        stamp_at = 1 + fields.index("created_at")  # in (round_id, *fields, *optional)
        cols = ["loop_id", "round_id", *fields, *optional]
        keyed = table in ("flubs", "weak_topics")
        if keyed:
            cols.append("topic_key")
        have = Counter()
        have_undated = Counter()
        for r in db.execute(
            f"SELECT {', '.join(cols[1 : 2 + len(fields) + len(optional)])} FROM {table} "
            "WHERE loop_id IS NULL"
        ).fetchall():
            have[tuple(r)] += 1
            have_undated[r[:stamp_at] + r[stamp_at + 1 :]] += 1

        def rows(name=name, keyed=keyed, stamp_at=stamp_at, have=have, have_undated=have_undated):
            for loop, ref, *values, dated in doc.entries[name]:
                if loop is not None:
                    loop_id = loop_ids[loop]
                    if loop_id is None:
                        continue
                else:
                    loop_id = None
                    content = (round_ids.get((None, ref)), *values)
                    pool = have if dated else have_undated
                    key = content if dated else content[:stamp_at] + content[stamp_at + 1 :]
                    if pool[key] > 0:
                        pool[key] -= 1
                        report.entries_skipped += 1
                        continue
                report.entries_added += 1
                row = [loop_id, round_ids.get((loop, ref)), *values]
                if keyed:
                    row.append(key_of(values[0]))
                yield row

        db.conn.executemany(
            f"INSERT INTO {table}({', '.join(cols)}) VALUES ({', '.join('?' * len(cols))})",
            rows(),
        )


def _insert_asked_them(db, doc: CheckedJournal, loop_ids, round_ids, report) -> None:
    if not doc.asked_them:
        return
    for loop, ref, text, audience, asked_at in doc.asked_them:
        if loop is not None and loop_ids[loop] is None:
            continue  # the loop was already here
        if loop is None:
            report.asked_them_skipped += 1
            continue
        at = dt.datetime.fromisoformat(asked_at) if asked_at else dt.datetime.now(dt.UTC)
        audience = audience_of(audience)
        try:
            planner.record_asked(db, loop_ids[loop], text, audience, round_ids.get((loop, ref)), at)
        except ValueError:  # the planner refused it (e.g. a duplicate); keep the rest
            report.asked_them_skipped += 1
            continue
        report.entries_added += 1


def _insert_study_marks(db, doc: CheckedJournal) -> None:
    have = {tuple(r) for r in db.execute("SELECT topic_key, studied_at FROM study_marks")}
    topics = {key for key, _at in have}
    for key, topic, source, at, dated in doc.study_marks:
        if ((key, at) in have) if dated else (key in topics):
            continue
        db.execute(
            "INSERT INTO study_marks(topic_key, topic, source, studied_at) VALUES (?, ?, ?, ?)",
            [key, topic, source, at],
        )
