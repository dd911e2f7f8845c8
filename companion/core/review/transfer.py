"""Review cards and their log in the journal's JSON export::

    "review": {"cards": [{"kind", "id", "title", "created_at"}],
               "log": [{"kind", "id", "rating", "reviewed_at", "source"}]}

A card's scheduling is a replay of its log, so the log is the truth and the file carries
only that: importing adds the reviews not yet here (the log's natural key) and replays
the cards it touched. Importing the same file twice adds nothing.
"""

from __future__ import annotations

import datetime as dt

from companion.core.review.cards import (
    KINDS,
    RATINGS,
    SOURCES,
    LogEntry,
    add_log,
    ensure_card,
    parse_utc,
    rebuild,
)
from companion.core.text import lone_surrogate

MIN_YEAR, MAX_YEAR = 1970, 2200


class ReviewImportError(ValueError):
    """The file's review part is wrong; the message names the place."""


def review_dict(db) -> dict:
    """Every card and review, for the export (empty before the tables exist: an export
    from a read-only journal an older version made)."""
    import sqlite3

    try:
        return _review_dict(db)
    except sqlite3.OperationalError:
        return {"cards": [], "log": []}


def _review_dict(db) -> dict:
    cards = [
        {"kind": kind, "id": ref, "title": title, "created_at": created}
        for kind, ref, title, created in db.execute(
            "SELECT kind, ref, title, created_at FROM review_cards ORDER BY key"
        )
    ]
    log = [
        {"kind": kind, "id": ref, "rating": rating, "reviewed_at": at, "source": source}
        for kind, ref, rating, at, source in db.execute(
            "SELECT c.kind, c.ref, l.rating, l.reviewed_at, l.source FROM review_log l "
            "JOIN review_cards c ON c.key = l.card_key ORDER BY l.card_key, l.reviewed_at, l.id"
        )
    ]
    return {"cards": cards, "log": log}


def _fail(where: str, message: str):
    raise ReviewImportError(f"{where}: {message}")


def _text(obj: dict, key: str, where: str, choices=None) -> str:
    value = obj.get(key, "")
    if value is None:
        value = ""
    if not isinstance(value, str):
        _fail(f"{where}.{key}", f"must be text, not {type(value).__name__}")
    problem = lone_surrogate(value)  # the journal's field rule: it cannot be stored
    if problem:
        _fail(f"{where}.{key}", problem)
    if choices is not None and value not in choices:
        _fail(f"{where}.{key}", f"{value[:40]!r} is not one of {', '.join(choices)}")
    return value


def _when(obj: dict, key: str, where: str) -> str:
    value = _text(obj, key, where)
    moment = parse_utc(value)
    if moment is None or not MIN_YEAR <= moment.year <= MAX_YEAR:
        _fail(f"{where}.{key}", f"{value[:40]!r} is not an ISO 8601 time in {MIN_YEAR}-{MAX_YEAR}")
    return moment.isoformat()


def check_review(data: object) -> dict:
    """The ``review`` part of a journal file, checked and normalised (UTC times)."""
    if data is None:
        return {"cards": [], "log": []}
    if not isinstance(data, dict):
        _fail("review", "must be an object")
    out: dict = {"cards": [], "log": []}
    for part in ("cards", "log"):
        entries = data.get(part)
        if entries is None:
            entries = []
        if not isinstance(entries, list):
            _fail(f"review.{part}", "must be a list")
        for n, entry in enumerate(entries):
            where = f"review.{part}[{n}]"
            if not isinstance(entry, dict):
                _fail(where, "must be an object")
            clean = {"kind": _text(entry, "kind", where, KINDS), "id": _text(entry, "id", where)}
            if not clean["id"]:
                _fail(f"{where}.id", "is empty")
            if part == "cards":
                clean["title"] = _text(entry, "title", where)
                clean["created_at"] = _when(entry, "created_at", where)
            else:
                clean["rating"] = _text(entry, "rating", where, RATINGS)
                clean["reviewed_at"] = _when(entry, "reviewed_at", where)
                clean["source"] = _text(entry, "source", where, SOURCES)
            out[part].append(clean)
    return out


def import_review(db, review: dict) -> int:
    """Add a checked ``review`` part (see :func:`check_review`); returns reviews added.
    The caller holds the transaction."""

    created = {(c["kind"], c["id"]): c for c in review["cards"]}
    touched: set[str] = set()
    added = 0
    nth: dict[tuple, int] = {}
    for entry in review["log"]:
        card = created.get((entry["kind"], entry["id"]))
        at = dt.datetime.fromisoformat(entry["reviewed_at"])
        first = dt.datetime.fromisoformat(card["created_at"]) if card else at
        key = ensure_card(db, entry["kind"], entry["id"], card["title"] if card else "", first)
        same = (key, entry["rating"], at, entry["source"])
        nth[same] = nth.get(same, -1) + 1  # the file's second identical review is a second
        got = add_log(db, [LogEntry(*same, nth=nth[same])])
        if got:
            touched.add(key)
            added += got
    for (kind, ref), card in created.items():  # cards with no review yet (flagged, new)
        ensure_card(db, kind, ref, card["title"], dt.datetime.fromisoformat(card["created_at"]))
    rebuild(db, sorted(touched))
    return added
