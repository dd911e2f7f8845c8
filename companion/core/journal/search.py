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


def _words(text: str) -> list[str]:
    return re.findall(r"\w+", text)[:12]


def fts_query(text: str) -> str:
    """Every word of ``text`` as a quoted term, all required; words of two letters or
    more match as prefixes (one letter alone would match half the index)."""
    return " ".join(f'"{w}"*' if len(w) > 1 else f'"{w}"' for w in _words(text))


def _fold(text: str) -> str:
    import unicodedata

    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch)).casefold()


def snippet(body: str, words: list[str], *, width: int = 12) -> str:
    """About ``width`` words of ``body`` around the first match, matches marked."""
    tokens = re.findall(r"\w+|\W+", body)
    wanted = [_fold(w) for w in words]
    hits = [
        n
        for n, tok in enumerate(tokens)
        if tok[:1].isalnum() or tok[:1] == "_"
        if any(_fold(tok).startswith(w) for w in wanted)
    ]
    first = hits[0] if hits else 0
    start = max(0, first - width)  # tokens alternate word / gap: about width/2 words before
    end = min(len(tokens), start + 2 * width)
    out = []
    for n in range(start, end):
        tok = tokens[n]
        out.append(f"{MARK_START}{tok}{MARK_END}" if n in hits else tok)
    text = "".join(out)
    return ("…" if start > 0 else "") + text + ("…" if end < len(tokens) else "")


CANDIDATES = 1000  # rank only the newest this-many matches, so a one-letter query stays fast


def search(db: Database, text: str, *, limit: int = 50) -> list[SearchHit]:
    """The best ``limit`` matches (bm25) among the newest CANDIDATES matches."""
    query = fts_query(text)
    if not query:
        return []
    best = db.execute(
        """
        SELECT rowid FROM (
            SELECT rowid, rank FROM journal_fts WHERE journal_fts MATCH ?
             ORDER BY rowid DESC LIMIT ?)
         ORDER BY rank, rowid DESC LIMIT ?
        """,
        [query, CANDIDATES, limit],
    ).fetchall()
    if not best:
        return []
    order = {r[0]: n for n, r in enumerate(best)}
    marks = ",".join("?" * len(order))
    # rowid lookups only: asking FTS5 for snippets of these rows would re-run the MATCH
    found = db.execute(
        f"SELECT rowid, kind, loop_id, body FROM journal_fts WHERE rowid IN ({marks})", list(order)
    ).fetchall()
    found.sort(key=lambda r: order[r[0]])
    words = _words(text)
    rows = [(rowid, kind, loop_id, snippet(body, words)) for rowid, kind, loop_id, body in found]
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
