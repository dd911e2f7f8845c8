"""Study-list exports: Markdown checklist, spreadsheet-safe CSV, Anki text, JSON.

Every file is written atomically and private (0600) through
:func:`companion.core.storage.files.atomic_write_text`.

CSV
    UTF-8 with a byte-order mark (so Excel detects UTF-8), RFC 4180 quoting, one row per
    topic. A cell starting with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return (or
    their full-width forms) is prefixed with ``'`` so no spreadsheet runs it as a formula.

Anki
    Plain text with Anki's file headers (``#separator:tab``, ``#html:false``, ``#deck:``,
    ``#notetype:Basic``, ``#columns:Front	Back	Tags``, ``#tags column:3``); one Basic
    note per topic, three tab-separated fields. The front is a question in words (a
    self-check question as written, else built from the flub's own line or the guide
    item); the back is the answer (the quiz answer or the guide item) and its "Say:" line. A field that holds a tab, a newline or a
    double quote, or begins with ``#``, is wrapped in double quotes with inner quotes
    doubled, so Anki reads it as one field. Tags: ``interview-companion``,
    ``company::<Name>`` and ``round::<type>``, spaces replaced by ``_``.

JSON (schema ``interview-companion-study-list``, version 1)::

    {
      "format": "interview-companion-study-list",
      "version": 1,
      "generated_at": "2026-12-01T08:00:00+00:00",      // UTC, ISO 8601
      "items": [
        {
          "rank": 1,                                      // 1 = study first
          "key": "consistent hashing",                    // grouping key; "quiz:<id>" for quiz items
          "topic": "Consistent hashing",
          "sources": ["flub", "weak", "quiz"],            // where it came from (subset)
          "times": 3,                                     // how often it came up
          "last_seen": "2026-11-30T15:10:00+00:00",       // UTC, ISO 8601
          "worst": 3,                                     // how bad: 1 minor, 2 noticeable, 3 bad
          "score": 9.37,                                  // the rank score (see studylist.py)
          "companies": ["Acme"],
          "round_types": ["design"],
          "details": ["Forgot virtual nodes"],            // flub details / weak-topic notes
          "guide": {"section_id": "traps", "section_title": "Traps to avoid",
                    "item": "…", "say": "…"}             // or null when no section matches
        }
      ]
    }
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from sqlite_utils import Database

from companion.core.day.loops import type_names
from companion.core.storage.files import atomic_write_text
from companion.core.study.facts import MAX_NAMED, topic_facts
from companion.core.study.ranking import StudyDetail, StudyItem, study_details, study_list
from companion.core.text import CONTROL_CHARS
from companion.core.timeutil import to_stored_utc

STUDY_LIST_FORMAT = "interview-companion-study-list"
CSV_COLUMNS = [
    "rank",
    "topic",
    "times",
    "last_seen",
    "worst",
    "companies",
    "round_types",
    "details",
    "guide_section",
    "guide_item",
    "sources",
]
ANKI_DECK = "Interview Companion::Study list"
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r", "＝", "＋", "－", "＠")


def plain(value: object) -> str:
    """``value`` as text without control characters: the ones the import door strips
    (NUL and others break Markdown viewers and spreadsheets; rows stored before that
    door existed still hold them)."""
    return CONTROL_CHARS.sub("", "" if value is None else str(value))


@dataclass
class StudyRow:
    rank: int
    item: StudyItem
    detail: StudyDetail


def study_rows(db: Database, now: dt.datetime, guide=None) -> list[StudyRow]:
    items = study_list(db, now, guide=guide)
    details = study_details(db, [i.key for i in items])
    return [StudyRow(n, item, details[item.key]) for n, item in enumerate(items, 1)]


# --- CSV ---------------------------------------------------------------------------------


def csv_safe(value: object) -> str:
    """A cell that no spreadsheet will evaluate as a formula, nor cut: at most
    :data:`SPREADSHEET_CELL` characters, a longer text ending in :data:`CUT` (the JSON
    export keeps it whole)."""
    text = plain(value)
    text = "'" + text if text.startswith(_FORMULA_START) else text
    if len(text) > SPREADSHEET_CELL:
        text = text[: SPREADSHEET_CELL - len(CUT)] + CUT
    return text


SPREADSHEET_CELL = 32_767  # the most characters a cell holds in Excel and LibreOffice
CUT = " … (cut here: the JSON export has it all)"


def joined(values: Sequence[str], sep: str) -> str:
    """``values`` joined, whole ones only, as many as fit in a spreadsheet cell; the
    others counted (``; and 9,990 more``): a topic that came up in every loop of a long
    search names 10,000 companies."""
    out: list[str] = []
    size = 0
    for n, value in enumerate(values):
        size += len(sep) * bool(out) + len(value)
        if size > SPREADSHEET_CELL - 40 and out:  # room for the count
            return sep.join(out) + f"{sep}and {len(values) - n:,} more"
        out.append(value)
    return sep.join(out)


def _csv_record(row: StudyRow) -> list[object]:
    item, detail, guide = row.item, row.detail, row.item.guide
    return [
        row.rank,
        item.topic,
        item.count,
        item.last_seen,
        item.worst,
        joined(detail.companies, "; "),
        joined(detail.round_types, "; "),
        joined(detail.details, "\n"),
        guide.section_title if guide else "",
        guide.item if guide else "",
        ", ".join(sorted(item.sources)),
    ]


def render_csv(rows: Sequence[StudyRow]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n", quoting=csv.QUOTE_MINIMAL)
    writer.writerow(CSV_COLUMNS)
    for row in rows:
        writer.writerow([csv_safe(v) for v in _csv_record(row)])
    return "\ufeff" + out.getvalue()


# --- Markdown --------------------------------------------------------------------------

# parentheses are plain text in Markdown (a link needs the brackets, escaped here)
_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]<>#+!|~])")


def md_inline(text: str) -> str:
    """One line of Markdown-safe text: newlines folded, syntax characters escaped."""
    return _MD_SPECIAL.sub(r"\\\1", " ".join(plain(text).split()))


def render_markdown(
    rows: Sequence[StudyRow], now: dt.datetime, names: Mapping[str, str] | None = None
) -> str:
    """The study list as a Markdown checklist; ``names`` names the round types (ids when
    missing)."""
    lines = [f"# Study list ({now.date().isoformat()})", ""]
    if not rows:
        lines += ["Nothing to study: no open flubs or weak topics.", ""]
    for row in rows:
        item, detail = row.item, row.detail
        facts = [md_inline(fact) for fact in topic_facts(item, detail, names)]
        lines.append(f"- [ ] **{md_inline(item.topic)}** ({'; '.join(facts)})")
        for text in detail.details:
            lines.append(f"  - {md_inline(text)}")
        if item.guide:
            where = md_inline(item.guide.section_title)
            if item.guide.item:
                where += f": {md_inline(item.guide.item)}"
            lines.append(f"  - Guide: {where}")
    return "\n".join(lines).rstrip() + "\n"


# --- Anki --------------------------------------------------------------------------------


def anki_field(text: str) -> str:
    text = plain(text).replace("\r\n", "\n").replace("\r", "\n")
    if any(ch in text for ch in '\t\n"') or text.startswith("#"):
        return '"' + text.replace('"', '""') + '"'
    return text


def anki_tag(prefix: str, value: str) -> str:
    cleaned = re.sub(r"[\s\"]+", "_", value.strip()).strip("_")
    return f"{prefix}::{cleaned}" if cleaned else ""


def topic_words(topic: str) -> str:
    """A topic as words: "edge-cases" -> "edge cases"."""
    return " ".join(re.sub(r"(?<=\w)[-_](?=\w)", " ", plain(topic)).split())


def anki_front(row: StudyRow) -> str:
    """A question in words: a self-check question as written; else from the flub's own
    line, else from the guide item the topic links to."""
    item, guide = row.item, row.item.guide
    if item.key.startswith("quiz:"):  # the self-check question, as the pack words it
        question = " ".join(plain(item.topic).split())
        return question if question.endswith("?") else f"{question}?"
    topic = topic_words(item.topic)
    line = next((" ".join(plain(d).split()) for d in row.detail.details if plain(d).strip()), "")
    if line:
        return f"{topic}: “{line}”. What is wrong with that, and what do you say instead?"
    if guide is not None:
        return f"{topic}: what does {guide.section_title} tell you to say or do?"
    return f"{topic}: what do you need to know, and how would you explain it?"


def anki_back(row: StudyRow, answer: str = "") -> str:
    """The answer (the quiz answer, else the guide item), its "Say:" line, then your own
    notes, where it comes from and how often the topic came up."""
    guide = row.item.guide
    parts = [answer] if answer else []
    if guide and guide.item:
        parts.append(guide.item)
    if guide and guide.say:
        parts.append(f"Say: {guide.say}")
    if not parts:
        parts.append("No guide item matches this topic yet: write the answer here.")
    parts += [f"Your note: {d}" for d in row.detail.details if d.strip()]
    if guide:
        parts.append(f"Guide: {guide.section_title}")
    parts.append(f"Came up {row.item.count}×, worst {row.item.worst}/3")
    return "\n".join(parts)


def render_anki(
    rows: Sequence[StudyRow], deck: str = ANKI_DECK, answers: dict[str, str] | None = None
) -> str:
    """``answers``: self-check answers by question id (the pack's), for quiz cards."""
    answers = answers or {}
    deck = " ".join(deck.split()) or ANKI_DECK
    lines = [
        "#separator:tab",
        "#html:false",
        f"#deck:{deck}",
        "#notetype:Basic",
        "#columns:Front\tBack\tTags",
        "#tags column:3",
    ]
    for row in rows:
        tags = ["interview-companion"]
        # the most recent few, as the study pane names them: a tag per loop is noise
        tags += [anki_tag("company", c) for c in row.detail.companies[:MAX_NAMED]]
        tags += [anki_tag("round", t) for t in row.detail.round_types[:MAX_NAMED]]
        if "quiz" in row.item.sources:
            tags.append("self-check")
        tag_text = " ".join(dict.fromkeys(t for t in tags if t))
        lines.append(
            "\t".join(
                [
                    anki_field(anki_front(row)),
                    anki_field(anki_back(row, answers.get(row.item.key.removeprefix("quiz:"), ""))),
                    anki_field(tag_text),
                ]
            )
        )
    return "\n".join(lines) + "\n"


# --- JSON --------------------------------------------------------------------------------


def study_json(rows: Sequence[StudyRow], now: dt.datetime) -> dict:
    items = []
    for row in rows:
        item, guide = row.item, row.item.guide
        items.append(
            {
                "rank": row.rank,
                "key": item.key,
                "topic": item.topic,
                "sources": sorted(item.sources),
                "times": item.count,
                "last_seen": item.last_seen,
                "worst": item.worst,
                "score": round(item.score, 3),
                "companies": row.detail.companies,
                "round_types": row.detail.round_types,
                "details": row.detail.details,
                "guide": None
                if guide is None
                else {
                    "section_id": guide.section_id,
                    "section_title": guide.section_title,
                    "item": guide.item,
                    "say": guide.say,
                },
            }
        )
    return {
        "format": STUDY_LIST_FORMAT,
        "version": 1,
        "generated_at": to_stored_utc(now),
        "items": items,
    }


def render_json(rows: Sequence[StudyRow], now: dt.datetime) -> str:
    return json.dumps(study_json(rows, now), ensure_ascii=False, indent=2) + "\n"


# --- writing -----------------------------------------------------------------------------


def _anki(rows: Sequence[StudyRow], now: dt.datetime, guide, names) -> str:
    answers = guide.quiz_answers() if hasattr(guide, "quiz_answers") else {}
    return render_anki(rows, answers=answers)


@dataclass(frozen=True)
class ExportFormat:
    """One way the study list is written, declared once: the CLI's ``--format`` choices,
    its suffix guess and the pages' file dialogs and menus all derive from these."""

    name: str  # the --format value
    kind: str  # a file dialog's filter: "Markdown checklist (*.md)"
    menu: str  # the export menu's entry (with "…": a dialog follows)
    suffixes: tuple[str, ...]  # the one written, then any other a file named so is read as
    render: Callable[[Sequence[StudyRow], dt.datetime, object, object], str]

    @property
    def suffix(self) -> str:
        return self.suffixes[0]

    @property
    def file_filter(self) -> str:
        return f"{self.kind} (*{self.suffix})"


EXPORT_FORMATS = {
    f.name: f
    for f in (
        ExportFormat(
            "md",
            "Markdown checklist",
            "Markdown checklist…",
            (".md",),
            lambda rows, now, guide, names: render_markdown(rows, now, names),
        ),
        ExportFormat(
            "csv",
            "Spreadsheet CSV",
            "Spreadsheet (CSV)…",
            (".csv",),
            lambda rows, now, guide, names: render_csv(rows),
        ),
        ExportFormat("anki", "Anki import file", "Anki cards…", (".txt", ".tsv"), _anki),
        ExportFormat(
            "json",
            "JSON",
            "JSON…",
            (".json",),
            lambda rows, now, guide, names: render_json(rows, now),
        ),
    )
}
FORMATS = tuple(EXPORT_FORMATS)
SUFFIXES = {f.name: f.suffix for f in EXPORT_FORMATS.values()}  # the suffix each writes
DEFAULT_FORMAT = FORMATS[0]  # a file named otherwise is a Markdown checklist


def format_for(suffix: str) -> str:
    """The format a file named with ``suffix`` is written in (``-o x.csv`` is a CSV, with
    its formula guard, never Markdown under a .csv name); any other is Markdown."""
    suffix = suffix.lower()
    found = (f.name for f in EXPORT_FORMATS.values() if suffix in f.suffixes)
    return next(found, DEFAULT_FORMAT)


def _unknown(fmt: str) -> ValueError:
    return ValueError(f"Unknown export format {fmt!r}; use one of {', '.join(FORMATS)}.")


def render(fmt: str, rows: Sequence[StudyRow], now: dt.datetime, guide=None, names=None) -> str:
    if fmt not in EXPORT_FORMATS:
        raise _unknown(fmt)
    return EXPORT_FORMATS[fmt].render(rows, now, guide, names)


def export_study_list(db: Database, fmt: str, path: Path, now: dt.datetime, *, guide=None) -> int:
    """Write the study list to ``path`` in ``fmt``; returns the number of topics."""
    if fmt not in EXPORT_FORMATS:
        raise _unknown(fmt)
    rows = study_rows(db, now, guide)
    titles = guide.round_titles if guide is not None else {}
    names = type_names(db, titles)  # for people (Markdown); the data formats keep the ids
    atomic_write_text(Path(path), render(fmt, rows, now, guide, names))
    return len(rows)
