"""Checking a journal file before anything is imported: the file is read whole through
the bounded reader (:func:`~companion.core.fileio.read_limited`, 256 MiB at most) and
parsed strictly (:func:`load_json`), then checked field by field into plain rows
(:class:`.check_fields.FieldCheck`), so the first problem is named by its place
(``loops[2].flubs[0].severity``) before anything is written.

A checked file becomes a :class:`CheckedJournal`: plain rows per table, ready to insert
table by table (:mod:`.importer`); the format itself is described in
:mod:`companion.core.journal.files`.
"""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import dataclass, field
from pathlib import Path

from companion.core.about.takes import TakesImportError, check_takes
from companion.core.fileio import FileReadError, read_limited
from companion.core.journal.check_fields import (
    ENTRY_KINDS,
    JOURNAL_FORMAT,
    LOOP_FIELDS,
    MAX_YEAR,
    MIN_YEAR,
    ROUND_FIELDS,
    VERSION,
    FieldCheck,
    JournalImportError,
    check_keys,
    collector_paused,
    fail,
    field_list,
)
from companion.core.review.transfer import ReviewImportError, check_review
from companion.core.stories.transfer import StoriesImportError, check_stories
from companion.core.text import (
    FieldTextError,
    clean_field,
    json_may_hold_lone_surrogate,
    json_plain,
)
from companion.core.timeutil import to_stored_utc

__all__ = [
    "ENTRY_KINDS",
    "JOURNAL_FORMAT",
    "LOOP_FIELDS",
    "ROUND_FIELDS",
    "VERSION",
    "CheckedJournal",
    "JournalImportError",
    "load_json",
    "parse_journal",
    "read_journal",
]

# --- strict JSON ----------------------------------------------------------------------

MAX_INT_DIGITS = 18  # a bigger whole number fits no SQLite column


def _parse_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_INT_DIGITS:
        raise JournalImportError(f"a number with {len(text)} digits is not a journal value")
    return int(text)


def _parse_float(text: str) -> float:
    value = float(text)
    if value in (float("inf"), float("-inf")):  # 1e400: strict JSON has no infinity
        raise JournalImportError(f"the number {text[:40]} is too large to be a journal value")
    return value


def _parse_constant(name: str):
    raise JournalImportError(f"{name} is not a journal value")


def _no_duplicates(pairs: list[tuple[str, object]]) -> dict:
    out = dict(pairs)
    if len(out) != len(pairs):
        seen: set[str] = set()
        for key, _value in pairs:
            if key in seen:
                raise JournalImportError(f"the key {key[:40]!r} appears twice in one object")
            seen.add(key)
    return out


_DECODER = json.JSONDecoder(
    object_pairs_hook=_no_duplicates,
    parse_int=_parse_int,
    parse_float=_parse_float,
    parse_constant=_parse_constant,
)


def load_json(text: str) -> object:
    """Parse a whole journal file strictly: duplicate keys, huge numbers, NaN/Infinity and
    nesting deeper than Python's recursion limit are refused with
    :class:`JournalImportError`, and a syntax error names its line and column."""
    try:
        return _DECODER.decode(text)
    except JournalImportError:
        raise
    except json.JSONDecodeError as exc:
        raise JournalImportError(
            f"not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})."
        ) from None
    except RecursionError:
        raise JournalImportError("it nests too deeply; not a journal export") from None
    except ValueError as exc:
        raise JournalImportError(str(exc).split("\n")[0]) from None


# --- the document ---------------------------------------------------------------------


def _check_head(data: object) -> None:
    if not isinstance(data, dict) or data.get("format") != JOURNAL_FORMAT:
        raise JournalImportError(
            f'This is not an Interview Companion journal export (no "format": "{JOURNAL_FORMAT}").'
        )
    version = data.get("version")
    if type(version) is not int or version != VERSION:  # not True, not 1.0
        raise JournalImportError(
            f"This journal file is version {version!r}; this app reads version {VERSION}."
        )


def _default_stamp(head: dict, now: dt.datetime | None) -> str:
    """What a missing created_at or studied_at becomes: the file's own exported_at when it
    is a sane time, else now. It is shown, never used as a key (see CheckedJournal)."""
    value = head.get("exported_at")
    if isinstance(value, str):
        try:
            if MIN_YEAR <= dt.datetime.fromisoformat(value).year <= MAX_YEAR:
                return value
        except ValueError:
            pass
    return to_stored_utc(now)


@dataclass
class CheckedJournal:
    """A checked journal file as plain rows per table, in file order, ready to insert
    table by table. ``loop`` is an index into :attr:`loops` (None: unfiled); ``ref`` is a
    round's number inside its loop. Every row that can lack its time ends in ``dated``:
    False when the file left the time out (it was set to :attr:`default_stamp`), so the
    import keys that row by its content instead of by a time that changes per import."""

    default_stamp: str
    loops: list[tuple] = field(default_factory=list)  # (*LOOP_FIELDS, dated)
    rounds: list[tuple] = field(default_factory=list)  # (loop, ref, *ROUND_FIELDS)
    # name -> [(loop, ref, *fields, *optional, dated)]
    entries: dict[str, list[tuple]] = field(
        default_factory=lambda: {name: [] for name in ENTRY_KINDS}
    )
    thank_yous: list[tuple] = field(default_factory=list)  # (loop, to_whom, draft, sent_at)
    asked_them: list[tuple] = field(default_factory=list)  # (loop, ref, text, audience, asked_at)
    study_marks: list[tuple] = field(default_factory=list)  # (key, topic, source, at, dated)
    review: dict = field(default_factory=dict)  # checked by companion.core.review.transfer
    stories: dict = field(default_factory=dict)  # checked by companion.core.stories.transfer
    takes: list = field(default_factory=list)  # checked by companion.core.about.takes
    stripped: int = 0  # control characters removed


def _cleaned(value, where: str, fields: FieldCheck):
    """``value`` (a part of the file: the stories, the review) with every string under the
    field rule, as the loops' fields are: control characters stripped and counted, a lone
    surrogate refused with its place. The part's own checker sees clean text."""
    if isinstance(value, str):
        try:
            kept, removed = clean_field(value)
        except FieldTextError as exc:
            fail(where, str(exc))
        fields.stripped += removed
        return kept
    if isinstance(value, list):
        return [_cleaned(item, f"{where}[{n}]", fields) for n, item in enumerate(value)]
    if isinstance(value, dict):
        return {key: _cleaned(item, f"{where}.{key}", fields) for key, item in value.items()}
    return value


def _stories(data: dict, fields: FieldCheck) -> dict:
    """The story bank part (checked by its own module, companion.core.stories)."""

    try:
        return check_stories(_cleaned(data.get("stories"), "stories", fields))
    except StoriesImportError as exc:
        raise JournalImportError(str(exc)) from None
    except RecursionError:
        raise JournalImportError("stories: nests too deeply") from None


def _takes(data: dict) -> list:
    """The kept rehearsal takes (checked by their own module, companion.core.about)."""

    try:
        return check_takes(data.get("rehearsal_takes"))
    except TakesImportError as exc:
        raise JournalImportError(str(exc)) from None


def _review(data: dict, fields: FieldCheck) -> dict:
    """The review cards and log (checked by their own module, companion.core.review)."""

    try:
        return check_review(_cleaned(data.get("review"), "review", fields))
    except ReviewImportError as exc:
        raise JournalImportError(str(exc)) from None
    except RecursionError:
        raise JournalImportError("review: nests too deeply") from None


def _surrogate_keys_outside_loops(data: dict) -> None:
    """Refuse a lone surrogate in the file's own keys or anywhere in a part other than
    the loops (each loop is looked at before it is checked), naming its place."""
    check_keys({k: None for k in data}, "journal")
    for key, part in data.items():
        if key != "loops":
            if isinstance(part, str):
                check_keys({key: part}, "journal")
            else:
                check_keys(part, key)


def parse_journal(
    data: object,
    now: dt.datetime | None = None,
    *,
    surrogates: bool = True,
    plain: bool = False,
    consume: bool = False,
) -> CheckedJournal:
    """Check a loaded journal document; return its rows or raise JournalImportError.
    What the file's bytes say, when they were seen: ``surrogates``, some string may
    hold a lone surrogate (:func:`~companion.core.text.json_may_hold_lone_surrogate`);
    ``plain``, no string holds a character the field rule strips or refuses
    (:func:`~companion.core.text.json_plain`). ``consume``: the document is the
    caller's to spend, and each loop is let go once its rows are taken (the rows then
    reuse its memory: about 0.15 s of CPU at 20,000 loops)."""
    if isinstance(data, CheckedJournal):
        return data
    _check_head(data)
    fields = FieldCheck(_default_stamp(data, now), plain)
    checked = CheckedJournal(default_stamp=fields.default)
    loops = field_list(data, "loops", "journal")
    for n, loop in enumerate(loops):
        where = f"loops[{n}]"
        if surrogates:
            check_keys(loop, where)
        checked.loops.append(fields.loop(loop, where))
        fields.group(loop, where, n, checked)
        if consume:
            loops[n] = None
    if surrogates:
        _surrogate_keys_outside_loops(data)
    unfiled = data.get("unfiled")
    if unfiled is None:
        unfiled = {}
    elif not isinstance(unfiled, dict):
        fail("unfiled", "must be an object or null")
    checked.study_marks = fields.study_marks(data)
    fields.group(unfiled, "unfiled", None, checked)
    checked.review = _review(data, fields)
    checked.stories = _stories(data, fields)
    checked.takes = _takes(data)
    checked.stripped = fields.stripped
    return checked


def read_journal(path: Path, now: dt.datetime | None = None) -> CheckedJournal:
    """A journal file read through the bounded reader and checked, as rows ready to
    import; a bad file raises :class:`JournalImportError` naming it and the place."""

    path = Path(path)
    try:
        data = read_limited(path, "journal")
        plain, surrogates = json_plain(data), json_may_hold_lone_surrogate(data)
        text = data.decode("utf-8-sig")  # a BOM before the JSON is allowed (RFC 8259 8.1)
        del data  # not held beside the text and the parsed document
    except FileReadError as exc:
        raise JournalImportError(str(exc)) from None
    except UnicodeDecodeError as exc:
        raise JournalImportError(f"{path} is not UTF-8 text (byte {exc.start}).") from None
    try:
        with collector_paused():
            doc = load_json(text)
            del text
            return parse_journal(doc, now, surrogates=surrogates, plain=plain, consume=True)
    except JournalImportError as exc:
        raise JournalImportError(f"{path}: {exc}") from None
