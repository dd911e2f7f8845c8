"""Content packs: Markdown files with a front-matter block, loaded into dataclasses.

The format is documented in ``content/README.md``. One file is one :class:`Section`;
a malformed file yields a :class:`ContentError` naming the file and line, and the rest
of the folder still loads.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from companion.core import paths
from companion.core.content.fields import AUDIENCES as AUDIENCES  # re-exported
from companion.core.content.fields import check_section, section_warnings
from companion.core.content.items import ContentError as ContentError  # re-exported
from companion.core.content.items import Item as Item  # re-exported
from companion.core.content.items import Section as Section  # re-exported
from companion.core.content.numbers import fill_numbers
from companion.core.content.plans import (
    before_round_steps,
    capture_window,
    closing_line,
    pitch_plan,
    planner_rules,
    reminder_text,
    round_defaults,
    silence_nudge,
    sleep_line,
    start_soon_text,
    thank_you_after,
)
from companion.core.fileio import FileReadError, read_limited

if TYPE_CHECKING:
    import datetime as dt

    from companion.core.content.plans import BeforeStep, PitchPlan, PlannerRules, RoundDefaults

KINDS = frozenset(
    {
        "checklist",
        "pitch",
        "steps",
        "nudges",
        "traps",
        "recovery",
        "questions",
        "closing",
        "quiz",
        "summary",
        "rounds",
        "stories",
        "note",
    }
)
PHASES = ("night-before", "morning-of", "before-round", "after-loop")
BUILTIN_SECTIONS = frozenset({"@pitch-outline", "@planned-questions", "@timebox", "@closing-topic"})

_ID_RE = re.compile(r"^[a-z0-9][a-z0-9-]*$")
_FIELD_RE = re.compile(r"^\s{2,}([a-z_]+):\s?(.*)$")
MAX_FILE_BYTES = 512 * 1024


@dataclass(frozen=True)
class RoundType:
    id: str
    title: str
    sections: tuple[str, ...]
    audience: tuple[str, ...] = ()
    key: int = 0
    nudges: str | None = None  # id of the kind: nudges section its timebox uses
    minutes: int = 0  # default round length, 0 = none
    also: tuple[str, ...] = ()  # other words an invitation names it by ("behavioral")


@dataclass(frozen=True)
class QuizQuestion:
    id: str
    question: str
    answer: str
    see: tuple[str, ...]
    set: str


@dataclass
class Content:
    sections: dict[str, Section] = field(default_factory=dict)
    warnings: list[ContentError] = field(default_factory=list)  # valid but doubtful values

    def section(self, section_id: str) -> Section | None:
        return self.sections.get(section_id)

    def by_kind(self, kind: str) -> list[Section]:
        found = [s for s in self.sections.values() if s.kind == kind]
        return sorted(found, key=lambda s: (s.order, s.id))

    def checklist(self, phase: str) -> list[Section]:
        return [s for s in self.by_kind("checklist") if s.meta.get("phase") == phase]

    def round_titles(self) -> dict[str, str]:
        """Each round type's title by its id (what the day, the Journal and the exports
        name a round of that type)."""
        return {t.id: t.title for t in self.round_types()}

    def round_types(self) -> list[RoundType]:
        rounds: list[RoundType] = []
        seen: set[str] = set()
        for section in self.by_kind("rounds"):
            for item in section.items:
                rid = item.get("id") or slug(item.text)
                if rid in seen:
                    continue
                seen.add(rid)
                rounds.append(
                    RoundType(
                        id=rid,
                        title=item.text,
                        sections=tuple(item.list("sections")),
                        audience=tuple(item.list("audience")),
                        key=item.int("key"),
                        nudges=item.get("nudges") or None,
                        minutes=item.int("minutes"),
                        also=tuple(item.list("also")),
                    )
                )
        return rounds

    def quiz(self) -> list[QuizQuestion]:
        questions = []
        for section in self.by_kind("quiz"):
            set_name = section.meta.get("set", section.id)
            for n, item in enumerate(section.items, 1):
                questions.append(
                    QuizQuestion(
                        id=item.get("id") or f"{section.id}-{n}",
                        question=item.text,
                        answer=item.get("answer", "") or "",
                        see=tuple(item.list("see")),
                        set=set_name,
                    )
                )
        return questions

    def questions_for(self, audience: str) -> list[Item]:
        return [
            item
            for section in self.by_kind("questions")
            for item in section.items
            if audience in item.list("audience")
        ]

    # Typed views of the pack's numbers (companion/core/content/plans.py); each falls
    # back to a code default only when the pack lacks a valid value.
    def pitch_plan(self) -> PitchPlan:
        return pitch_plan(self)

    def planner_rules(self) -> PlannerRules:
        return planner_rules(self)

    @property
    def capture_window(self) -> dt.timedelta:
        return capture_window(self)

    @property
    def thank_you_after(self) -> dt.timedelta:
        return thank_you_after(self)

    def before_round_steps(self) -> tuple[BeforeStep, ...]:
        return before_round_steps(self)

    def round_defaults(self) -> RoundDefaults:
        return round_defaults(self)

    def closing_line(self) -> tuple[str, str]:
        return closing_line(self)

    def silence_nudge(self):
        return silence_nudge(self)

    def start_soon_text(self) -> str:
        return start_soon_text(self)

    def sleep_line(self) -> tuple[str, str]:
        return sleep_line(self)

    def reminder_text(self, phase: str) -> str:
        return reminder_text(self, phase)

    def check_references(self) -> list[ContentError]:
        """Round types and quiz answers may only point at sections that exist."""
        errors = []
        for section in self.sections.values():
            if section.kind == "rounds":
                for item in section.items:
                    for ref in item.list("sections"):
                        if ref not in self.sections and ref not in BUILTIN_SECTIONS:
                            errors.append(
                                _err(section.source, item.line, f"unknown section {ref!r}")
                            )
                    nudges = item.get("nudges")
                    if nudges and getattr(self.sections.get(nudges), "kind", None) != "nudges":
                        errors.append(
                            _err(section.source, item.line, f"{nudges!r} is not a nudges section")
                        )
            if section.kind == "nudges" and section.meta.get("steps"):
                errors += _step_references(self, section)
            if section.kind == "quiz":
                for item in section.items:
                    for ref in item.list("see"):
                        if ref not in self.sections:
                            errors.append(
                                _err(section.source, item.line, f"unknown section {ref!r}")
                            )
        return errors


def _step_references(content: Content, section: Section) -> list[ContentError]:
    """A nudge's ``after_step:`` names a step of the section its ``steps:`` names."""
    steps = content.sections.get(section.meta["steps"])
    if steps is None or steps.kind != "steps":
        where = section.meta_lines.get("steps", 1)
        return [_err(section.source, where, f"{section.meta['steps']!r} is not a steps section")]
    ids = {item.get("id") for item in steps.items}
    return [
        _err(section.source, item.line, f"after_step: {steps.id} has no step {ref!r}")
        for item in section.items
        if (ref := item.get("after_step")) and ref not in ids
    ]


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "item"


def _err(path: Path | None, line: int, message: str) -> ContentError:
    return ContentError(path or Path("<memory>"), line, message)


def parse_section(text: str, path: Path | None = None) -> Section:
    """Parse one content file. Raises :class:`ContentParseError` on a malformed file."""
    lines = text.splitlines()
    if not lines or lines[0].strip() != "---":
        raise ContentParseError(1, "the file must start with a '---' front-matter line")
    meta: dict[str, str] = {}
    meta_lines: dict[str, int] = {}
    end = None
    for n, line in enumerate(lines[1:], 2):
        if line.strip() == "---":
            end = n
            break
        if not line.strip():
            continue
        key, sep, value = line.partition(":")
        if not sep or not re.fullmatch(r"[a-z_]+", key.strip()):
            raise ContentParseError(n, f"expected 'key: value' in the front matter, got {line!r}")
        meta[key.strip()] = _unquote(value.strip())
        meta_lines[key.strip()] = n
    if end is None:
        raise ContentParseError(1, "the front matter is not closed by a second '---' line")
    for key in ("id", "kind", "title"):
        if not meta.get(key):
            raise ContentParseError(1, f"the front matter needs '{key}:'")
    if not _ID_RE.match(meta["id"]):
        raise ContentParseError(1, f"id {meta['id']!r} may only use a-z, 0-9 and '-'")
    if meta["kind"] not in KINDS:
        raise ContentParseError(1, f"unknown kind {meta['kind']!r}; use one of {sorted(KINDS)}")
    if meta["kind"] == "checklist" and meta.get("phase") not in PHASES:
        raise ContentParseError(1, f"a checklist needs 'phase:' set to one of {list(PHASES)}")
    try:
        order = int(meta.get("order", "100"))
    except ValueError:
        raise ContentParseError(1, f"order must be a whole number, got {meta['order']!r}") from None

    intro: list[str] = []
    items: list[Item] = []
    current: dict | None = None
    for n, line in enumerate(lines[end:], end + 1):
        if line.startswith("- "):
            if current:
                items.append(_make_item(current))
            current = {"text": [line[2:].strip()], "fields": {}, "line": n, "lines": {}}
        elif current is not None and line[:1] in (" ", "\t") and line.strip():
            match = _FIELD_RE.match(line.expandtabs(4))
            if match:
                key, value = match.groups()
                if key in current["fields"]:
                    raise ContentParseError(n, f"field {key!r} appears twice in one item")
                current["fields"][key] = _unquote(value.strip())
                current["lines"][key] = n
                current["last"] = key
            elif current.get("last"):
                key = current["last"]
                current["fields"][key] = f"{current['fields'][key]} {line.strip()}".strip()
            else:
                current["text"].append(line.strip())
        elif not line.strip():
            continue
        elif current is None:
            intro.append(line)
        else:
            raise ContentParseError(n, "text after the item list; indent it to continue an item")
    if current:
        items.append(_make_item(current))
    for item in items:
        if not item.text:
            raise ContentParseError(item.line, "an item has no text")
    meta_rest = {k: v for k, v in meta.items() if k not in ("id", "kind", "title", "order")}
    return Section(
        id=meta["id"],
        kind=meta["kind"],
        title=meta["title"],
        items=tuple(items),
        intro="\n".join(intro).strip(),
        order=order,
        meta=meta_rest,
        source=path,
        meta_lines=meta_lines,
    )


def _make_item(raw: dict) -> Item:
    return Item(
        text=" ".join(raw["text"]).strip(),
        fields=raw["fields"],
        line=raw["line"],
        field_lines=raw["lines"],
    )


def _unquote(value: str) -> str:
    if len(value) >= 2 and value[0] == value[-1] == '"':
        return value[1:-1]
    return value


class ContentParseError(ValueError):
    def __init__(self, line: int, message: str):
        super().__init__(message)
        self.line = line
        self.message = message


def content_files(folder: Path) -> list[Path]:
    """The folder's ``*.md`` files (not README.md). Symlink loops, FIFOs and devices are
    listed too, so that loading reports them; nothing here opens a file."""
    try:
        if not folder.is_dir():
            return []
        return sorted(p for p in folder.glob("*.md") if p.name.lower() != "readme.md")
    except OSError:  # the folder itself is a symlink loop or unreadable
        return []


def load_file(path: Path) -> Section:
    try:
        raw = read_limited(path, "content")
    except FileReadError as exc:
        raise ContentParseError(1, str(exc)) from None
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise ContentParseError(line, "the file is not valid UTF-8") from None
    if "\x00" in text:
        raise ContentParseError(
            text[: text.index("\x00")].count("\n") + 1, "the file holds binary data"
        )
    return parse_section(text, path)


def load_content(folders: Iterable[Path]) -> tuple[Content, list[ContentError]]:
    """Load folders in order; a later folder's section replaces an earlier one's with the same id."""
    content = Content()
    errors: list[ContentError] = []
    for folder in folders:
        seen_here: dict[str, Path] = {}
        for path in content_files(Path(folder)):
            try:
                section = load_file(path)
            except ContentParseError as exc:
                errors.append(ContentError(path, exc.line, exc.message))
                continue
            problems = check_section(section)
            if problems:  # a wrongly typed number, time or id: skip it like a broken file
                errors.extend(problems)
                continue
            content.warnings.extend(section_warnings(section))
            if section.id in seen_here:
                errors.append(
                    ContentError(
                        path,
                        1,
                        f"id {section.id!r} is already used by {seen_here[section.id].name}",
                    )
                )
                continue
            seen_here[section.id] = path
            content.sections[section.id] = section
    errors.extend(content.check_references())

    fill_numbers(content)
    return content, errors


def default_folders(user_dir: Path) -> Sequence[Path]:
    """The shipped packs, then the user's own folder (``<data folder>/content``)."""

    return [paths.shipped_content_dir(), user_dir]
