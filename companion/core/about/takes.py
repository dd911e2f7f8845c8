"""Takes you can compare: a recorded rehearsal's figures, kept when the user says Keep
(never its audio), listed oldest first, deleted one by one, carried by the journal's
JSON export as ``"rehearsal_takes": [{"at", "seconds", ...figures}]``.

The figures are read from the analysis generically: every number (or list of numbers)
the take's result and the command's figures hold, so a figure the analysis gains later
(off-script seconds, a measured wpm) is kept without a change here.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
import math

from companion.core.timeutil import parse_stored, to_stored_utc

NOT_FIGURES = {"audio", "source", "transcript", "verdict", "segments", "levels", "spans"}
COMPARED = (  # (figure, words for the sentence, larger is better?)
    ("answer_seconds", "time", None),
    ("measured_wpm", "rate", None),
    ("fillers", "fillers", False),
    ("off_script_seconds", "off-script time", False),
)
MAX_TAKES_IMPORTED = 10_000
MAX_TAKE_SECONDS = 30 * 60  # what `about rehearse` reads at most (voice.take.MAX_SECONDS)
MAX_COUNT = 1_000_000  # words, fillers, a rate: far above any take of half an hour
ID_LISTS = {"skipped"}  # lists of segment ids, kept as they are (others are counted)


class TakesImportError(ValueError):
    """The file's takes part is wrong; the message names the place."""


def _number(value) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def figure_range(key: str) -> tuple[float, float]:
    """The values a figure named ``key`` can have in a real take: times within the
    recording, levels in dB either side of zero, a share from 0 to 1, counts and rates
    from 0. An imported take outside them is refused (-5 s, 1e308 s)."""
    if key == "seconds" or key.endswith("_seconds") or key == "first_word":
        return 0, MAX_TAKE_SECONDS
    if key.endswith(("_db", "_dbfs")):
        return -1000, 1000
    if key.endswith("_share"):
        return 0, 1
    return 0, MAX_COUNT


def _out_of_range(key: str, value) -> str | None:
    """What is wrong with figure ``key``'s ``value`` (a number or a list of them), else None."""
    low, high = figure_range(key)
    for number in value if isinstance(value, list) else [value]:
        if _number(number) and not low <= number <= high:
            return f"should be from {low:g} to {high:g}, not {number:g}"
    return None


def _figure(value, key: str = ""):
    """``value`` when it is a figure (a number, a count of a list, a list of ids), else None."""
    if _number(value) or value is None:
        return value
    if isinstance(value, list | tuple):
        if key in ID_LISTS or (value and all(isinstance(v, str) for v in value)):
            return [str(v) for v in value]  # ids: the segments skipped
        return len(value)  # pauses and the like: how many
    return None


def figures_of(result, figures: dict) -> dict:
    """The figures to keep: the analysis result's own fields, then the command's figures
    (they win), audio and text left out; segments heard counted."""
    out: dict = {}
    fields = (
        {f.name: getattr(result, f.name) for f in dataclasses.fields(result)}
        if dataclasses.is_dataclass(result)
        else dict(getattr(result, "__dict__", {}))
    )
    for name in dir(type(result)):  # computed figures (answer_seconds, measured_wpm)
        if not name.startswith("_") and isinstance(getattr(type(result), name), property):
            fields[name] = getattr(result, name)
    for source in (fields, figures):
        for key, value in source.items():
            if key in NOT_FIGURES or key.startswith("_"):
                continue
            kept = _figure(value, key)
            if kept is not None or value is None:
                out[key] = kept
    segments = figures.get("segments") or []
    out["segments_heard"] = sum(1 for s in segments if isinstance(s, dict) and s.get("heard"))
    return out


def keep_take(db, figures: dict, at: dt.datetime) -> int:
    """Store one take; returns its id. ``seconds`` is the answer's time (first word to
    last); the recording's own length is kept as ``take_seconds``."""
    figures = dict(figures)
    length = figures.pop("seconds", None)
    figures.setdefault("take_seconds", length)
    seconds = figures.get("answer_seconds", length)
    cursor = db.execute(
        "INSERT OR IGNORE INTO rehearsal_takes (at, seconds, figures) VALUES (?, ?, ?)",
        [to_stored_utc(at), seconds, json.dumps(figures, sort_keys=True)],
    )
    return cursor.lastrowid


def list_takes(db) -> list[dict]:
    """Every kept take, oldest first: {"id", "at", "seconds", ...figures}."""
    rows = db.execute("SELECT id, at, seconds, figures FROM rehearsal_takes ORDER BY at, id")
    return [{**json.loads(f), "id": i, "at": at, "seconds": s} for i, at, s, f in rows]


def takes_or_empty(db) -> list[dict]:
    """:func:`list_takes` for the page: a database problem shows no trend, not an error."""
    import sqlite3

    try:
        return list_takes(db)
    except sqlite3.Error:
        return []


def delete_take(db, take_id: int) -> bool:
    return db.execute("DELETE FROM rehearsal_takes WHERE id = ?", [take_id]).rowcount > 0


def what_changed(previous: dict, latest: dict) -> str:
    """One sentence on the figure that moved most (relatively) since the previous take."""
    best = None
    for key, words, _better in COMPARED:
        a, b = previous.get(key), latest.get(key)
        if not (_number(a) and _number(b)) or a == b:
            continue
        change = abs(b - a) / max(abs(a), 1.0)
        if best is None or change > best[0]:
            best = (change, words, a, b)
    if best is None:
        return "Nothing changed much since the previous take."
    _change, words, a, b = best
    way = "up" if b > a else "down"
    return f"Your {words} changed most: {way} from {a:g} to {b:g} since the previous take."


# --- export and import -----------------------------------------------------------------


def takes_list(db) -> list[dict]:
    """For the export (empty before the table exists: a read-only older journal)."""
    import sqlite3

    try:
        return [{k: v for k, v in t.items() if k != "id"} for t in list_takes(db)]
    except sqlite3.OperationalError:
        return []


def check_takes(data) -> list[tuple[str, float | None, str]]:
    """(at, seconds, figures JSON) of each take in the file; a bad one names its place."""
    if data is None:
        return []
    if not isinstance(data, list) or len(data) > MAX_TAKES_IMPORTED:
        raise TakesImportError("rehearsal_takes: should be a list of takes")
    out = []
    for n, take in enumerate(data):
        where = f"rehearsal_takes[{n}]"
        if not isinstance(take, dict):
            raise TakesImportError(f"{where}: should be an object")
        at = take.get("at")
        if not isinstance(at, str) or parse_stored(at) is None:
            raise TakesImportError(f"{where}.at: should be a date and time")
        seconds = take.get("seconds")
        if seconds is not None and not _number(seconds):
            raise TakesImportError(f"{where}.seconds: should be a number")
        figures = {}
        for key, value in take.items():
            wrong = _out_of_range(key, value)
            if wrong:
                raise TakesImportError(f"{where}.{key}: {wrong}")
            if key in ("at", "seconds"):
                continue
            kept = _figure(value, key)
            if kept is None and value is not None:
                raise TakesImportError(f"{where}.{key}: should be a number")
            figures[key] = kept
        out.append((to_stored_utc(parse_stored(at)), seconds, json.dumps(figures, sort_keys=True)))
    return out


def import_takes(db, checked: list[tuple[str, float | None, str]]) -> int:
    """Add the takes not here yet; returns how many."""
    before = db.conn.total_changes
    db.conn.executemany(
        "INSERT OR IGNORE INTO rehearsal_takes (at, seconds, figures) VALUES (?, ?, ?)", checked
    )
    return db.conn.total_changes - before
