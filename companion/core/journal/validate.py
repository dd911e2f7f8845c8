"""Checking a journal file before anything is imported: the schema check that names the
place of the first problem (``loops[2].flubs[0].severity``), one loop at a time.

A checked file becomes a :class:`CheckedJournal`: plain rows per table, ready to insert
table by table (:mod:`.importer`). The strict JSON reader is :mod:`.stream`; the field
checks are :mod:`.check_fields` (careful) and :mod:`.quick_check` (the export's own
plain values); the format itself is described in :mod:`companion.core.journal.files`.
"""

from __future__ import annotations

import datetime as dt
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
    STRIPPED,
    VERSION,
    check_group,
    check_keys,
    fail,
    field_list,
    field_stamp,
    field_text,
)
from companion.core.journal.quick_check import NotPlain, plain_reader
from companion.core.journal.stream import STREAMED, JournalImportError, load_json, scan_document
from companion.core.review.transfer import ReviewImportError, check_review
from companion.core.stories.transfer import StoriesImportError, check_stories
from companion.core.text import (
    FieldTextError,
    clean_field,
    json_may_hold_lone_surrogate,
    json_plain,
    topic_key,
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
    plain_text: bool = False  # json_plain said so of the file's bytes
    surrogate_keys: bool = False  # the file may hold a lone surrogate: its keys are checked

    def __post_init__(self) -> None:
        self._plain_rows = plain_reader(self.default_stamp, self.plain_text)

    def add_loop(self, n: int, loop: dict) -> None:
        if self.surrogate_keys:
            check_keys(loop, f"loops[{n}]")
        if not self._add_plain(loop):
            self._add_checked(n, loop)

    def _add_checked(self, n: int, loop: dict) -> None:
        """The careful check of one loop, field by field; a problem names its place."""
        where = f"loops[{n}]"
        clean = {"company": field_text(loop, "company", where, required=True).strip()}
        for key in ("role", "status", "notes"):
            clean[key] = field_text(loop, key, where)
        clean["status"] = clean["status"] or "planned"
        for key in ("starts_on", "ends_on"):
            clean[key] = field_stamp(loop, key, where)
        created = field_stamp(loop, "created_at", where, nullable=False)
        clean["created_at"] = created or self.default_stamp
        group = check_group(loop, where)
        self.loops.append((*(clean[k] for k in LOOP_FIELDS), bool(created)))
        self._add_group(len(self.loops) - 1, group)

    def _add_plain(self, loop: dict) -> bool:
        """Add a loop whose every value is plain (the export's own shape: text as text, no
        character to strip, times that parse) the quick way, as :meth:`add_loop` would; or
        add nothing and return False, and the careful check names the place."""
        try:
            row, rounds, entries, asked_them, thank_you = self._plain_rows(loop, len(self.loops))
        except NotPlain:
            return False
        self.loops.append(row)
        self.rounds += rounds
        for name, rows in entries.items():
            self.entries[name] += rows
        self.asked_them += asked_them
        if thank_you is not None:
            self.thank_yous.append(thank_you)
        return True

    def _add_group(self, loop: int | None, group: dict) -> None:
        for r in group["rounds"]:
            self.rounds.append((loop, r["ref"], *(r[k] for k in ROUND_FIELDS)))
        for name, (_table, fields, optional) in ENTRY_KINDS.items():
            rows = self.entries[name]
            for e in group[name]:
                dated = bool(e["created_at"])
                if not dated:
                    e["created_at"] = self.default_stamp
                rows.append((loop, e["round"], *(e[k] for k in (*fields, *optional)), dated))
        for q in group["asked_them"]:
            self.asked_them.append((loop, q["round"], q["text"], q["audience"], q["asked_at"]))
        ty = group["thank_you"]
        if ty is not None and loop is not None:
            self.thank_yous.append((loop, ty["to_whom"], ty["draft"], ty["sent_at"]))

    def finish(self, data: dict) -> None:
        """Check and add what follows the loops: unfiled rows and study marks."""
        if self.surrogate_keys:
            check_keys({k: None for k in data}, "journal")  # its own keys; then each part's
            for key, part in data.items():
                if key != "loops":
                    if isinstance(part, str):
                        check_keys({key: part}, "journal")
                    else:
                        check_keys(part, key)
        unfiled = data.get("unfiled")
        if unfiled is None:
            unfiled = {}
        elif not isinstance(unfiled, dict):
            fail("unfiled", "must be an object or null")
        for n, m in enumerate(field_list(data, "study_marks", "journal")):
            w = f"study_marks[{n}]"
            topic = field_text(m, "topic", w)
            at = field_stamp(m, "studied_at", w, nullable=False)
            self.study_marks.append(
                (
                    field_text(m, "topic_key", w) or topic_key(topic),
                    topic,
                    field_text(m, "source", w) or "journal",
                    at or self.default_stamp,
                    bool(at),
                )
            )
        self._add_group(None, check_group(unfiled, "unfiled"))
        self.review = _review(data)
        self.stories = _stories(data)
        self.takes = _takes(data)
        self.stripped = STRIPPED[0]


def _cleaned(value, where: str):
    """``value`` (a part of the file: the stories, the review) with every string under the
    field rule, as the loops' fields are: control characters stripped and counted, a lone
    surrogate refused with its place. The part's own checker sees clean text."""
    if isinstance(value, str):
        try:
            kept, removed = clean_field(value)
        except FieldTextError as exc:
            fail(where, str(exc))
        STRIPPED[0] += removed
        return kept
    if isinstance(value, list):
        return [_cleaned(item, f"{where}[{n}]") for n, item in enumerate(value)]
    if isinstance(value, dict):
        return {key: _cleaned(item, f"{where}.{key}") for key, item in value.items()}
    return value


def _stories(data: dict) -> dict:
    """The story bank part (checked by its own module, companion.core.stories)."""

    try:
        return check_stories(_cleaned(data.get("stories"), "stories"))
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


def _review(data: dict) -> dict:
    """The review cards and log (checked by their own module, companion.core.review)."""

    try:
        return check_review(_cleaned(data.get("review"), "review"))
    except ReviewImportError as exc:
        raise JournalImportError(str(exc)) from None
    except RecursionError:
        raise JournalImportError("review: nests too deeply") from None


def _start(
    head: dict, now: dt.datetime | None, plain: bool = False, surrogates: bool = True
) -> CheckedJournal:
    _check_head(head)
    STRIPPED[0] = 0
    return CheckedJournal(
        default_stamp=_default_stamp(head, now), plain_text=plain, surrogate_keys=surrogates
    )


def parse_journal(
    data: object, now: dt.datetime | None = None, *, surrogates: bool = True
) -> CheckedJournal:
    """Check a loaded journal document; return its rows or raise JournalImportError.
    ``surrogates``: the file may hold a lone surrogate (False only when its bytes say
    not: :func:`~companion.core.text.json_may_hold_lone_surrogate`)."""
    if isinstance(data, CheckedJournal):
        return data
    checked = _start(data, now, surrogates=surrogates)
    for n, loop in enumerate(field_list(data, "loops", "journal")):
        checked.add_loop(n, loop)
    checked.finish(data)
    return checked


def check_text(
    text: str, now: dt.datetime | None = None, *, plain: bool = False, surrogates: bool = True
) -> CheckedJournal:
    """Parse and check a journal file's text, one loop at a time (see :mod:`.stream`);
    ``plain`` and ``surrogates``: what :func:`~companion.core.text.json_plain` and
    :func:`~companion.core.text.json_may_hold_lone_surrogate` said of its bytes."""
    state: dict[str, CheckedJournal] = {}

    def on_head(head: dict) -> None:
        state["checked"] = _start(head, now, plain, surrogates)

    def on_loop(n: int, loop: object) -> None:
        if not isinstance(loop, dict):
            fail(f"journal.loops[{n}]", "must be an object")
        state["checked"].add_loop(n, loop)

    head = scan_document(text, on_head, on_loop)
    if head is None:  # not an object, or loops before the format: read and check it whole
        return parse_journal(load_json(text), now, surrogates=surrogates)
    if head.get("loops") is not STREAMED:
        return parse_journal(head, now, surrogates=surrogates)
    checked = state["checked"]
    checked.finish(head)
    return checked


def read_journal(path: Path, now: dt.datetime | None = None) -> CheckedJournal:
    """A journal file read through the bounded reader and checked, as rows ready to
    import; a bad file raises :class:`JournalImportError` naming it and the place."""

    path = Path(path)
    try:
        data = read_limited(path, "journal")
        plain, surrogates = json_plain(data), json_may_hold_lone_surrogate(data)
        text = data.decode("utf-8-sig")  # a BOM before the JSON is allowed (RFC 8259 8.1)
        del data  # not held beside the text: a 200 MB file must stay within 5x its size
    except FileReadError as exc:
        raise JournalImportError(str(exc)) from None
    except UnicodeDecodeError as exc:
        raise JournalImportError(f"{path} is not UTF-8 text (byte {exc.start}).") from None
    try:
        return check_text(text, now, plain=plain, surrogates=surrogates)
    except JournalImportError as exc:
        raise JournalImportError(f"{path}: {exc}") from None
