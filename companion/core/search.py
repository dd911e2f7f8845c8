"""Full-text search over all journal text (SQLite FTS5, kept in sync by triggers).

The index is ``journal_fts`` (see ``schema/journal.py``): one row per loop, round,
question asked, flub, went-well, weak topic and thank-you, with rowid = id * 8 + kind.
What the user types is split into words and each word matches as a prefix, so results
appear while typing; FTS syntax characters are never interpreted.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from sqlite_utils import Database

KIND_LABELS = {
    "loop": "Loop",
    "round": "Round",
    "asked": "Asked",
    "flub": "Flubbed",
    "went_well": "Went well",
    "weak": "Weak topic",
    "thank_you": "Thank-you",
}
KIND_TABLES = {
    "loop": "loops",
    "round": "rounds",
    "asked": "asked",
    "flub": "flubs",
    "went_well": "went_well",
    "weak": "weak_topics",
    "thank_you": "thank_yous",
}
MARK_START, MARK_END = "\x02", "\x03"  # snippet highlight markers, replaced by the UI


@dataclass(frozen=True)
class SearchHit:
    kind: str
    ref_id: int
    loop_id: int | None
    company: str
    snippet: str  # highlighted words are wrapped in MARK_START / MARK_END

    @property
    def label(self) -> str:
        return KIND_LABELS.get(self.kind, self.kind)

    def plain_snippet(self) -> str:
        return self.snippet.replace(MARK_START, "").replace(MARK_END, "")


def fts_query(text: str) -> str:
    """Every word of ``text`` as a quoted prefix term, all required; "" if no words."""
    words = re.findall(r"\w+", text)
    return " ".join(f'"{w}"*' for w in words[:12])


def search(db: Database, text: str, *, limit: int = 50) -> list[SearchHit]:
    query = fts_query(text)
    if not query:
        return []
    rows = db.execute(
        f"""
        SELECT f.rowid, f.kind, f.loop_id,
               snippet(journal_fts, 2, '{MARK_START}', '{MARK_END}', '…', 12)
          FROM journal_fts f
         WHERE journal_fts MATCH ?
         ORDER BY rank
         LIMIT ?
        """,
        [query, limit],
    ).fetchall()
    loop_ids = {r[2] for r in rows if r[2] is not None}
    companies: dict[int, str] = {}
    if loop_ids:
        marks = ",".join("?" * len(loop_ids))
        companies = dict(
            db.execute(f"SELECT id, company FROM loops WHERE id IN ({marks})", list(loop_ids))
        )
    return [
        SearchHit(kind, rowid // 8, loop_id, companies.get(loop_id, ""), snippet)
        for rowid, kind, loop_id, snippet in rows
    ]


def rebuild_index(db: Database) -> None:
    """Re-create the index from the tables (after a bulk load that bypassed triggers)."""
    from companion.core.schema.journal import FTS_SOURCES, _coalesced

    with db.atomic():
        db.execute("DELETE FROM journal_fts")
        for kind, (code, table, loop_expr, text_expr) in FTS_SOURCES.items():
            db.execute(
                f"INSERT INTO journal_fts(rowid, kind, loop_id, body) SELECT id * 8 + {code}, "
                f"'{kind}', {loop_expr.format(r='t')}, {_coalesced(text_expr.format(r='t'), 't')} "
                f"FROM {table} AS t"
            )
