"""The typed fields of a content pack: what each number, time and id may hold.

``check_section`` is run on every file as it loads (``load_content``): a value that is
not of its documented type or range is an error naming the file and the line, and the
section is skipped like any other broken file, so the app never runs on ``seconds: ten``.
``section_warnings`` reports what is valid but doubtful (pitch segments that do not add
up to the pack's own target). The table in ``content/README.md`` documents the same rules.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from companion.core.content.audiences import AUDIENCES
from companion.core.content.checklist_actions import CHECKLIST_ACTIONS
from companion.core.content.items import ContentError, Item, Section

PITCH_SEGMENT_IDS = ("identity", "evidence", "depth", "why-role", "hand-back")
LINKS = tuple(CHECKLIST_ACTIONS)
DEFAULT_PITCH_TARGET = (60, 90)  # seconds; used only when a pack gives no `target:`

_ID = re.compile(r"^[a-z0-9][a-z0-9-]*$")
_WHOLE = re.compile(r"^\d+$")
_NUMBER = re.compile(r"^\d+(?:\.\d+)?$")
_RANGE = re.compile(r"^(\d+)\s*-\s*(\d+)$")

Check = Callable[[str], str | None]  # a value -> the problem with it, or None


def whole_value(digits: str) -> int:
    """The whole number ``digits`` (matched by ``_WHOLE``) names. int() refuses more than
    4,300 digits; a number that long is above every bound here, so past 18 digits (after
    leading zeros) it reads as 10**18, which each check then refuses as out of range."""
    digits = digits.lstrip("0") or "0"
    return int(digits) if len(digits) <= 18 else 10**18


def whole(lo: int, hi: int, unit: str = "") -> Check:
    """A whole number from lo to hi."""
    suffix = f" {unit}" if unit else ""

    def check(value: str) -> str | None:
        if not _WHOLE.match(value):
            return f"must be a whole number{suffix}, got {value!r}"
        if not lo <= whole_value(value) <= hi:
            return f"must be from {lo} to {hi}{suffix}, got {value}"
        return None

    return check


def number(lo: float, hi: float, unit: str, *, above_zero: bool = False) -> Check:
    """A number (decimals allowed, never negative) up to hi."""

    def check(value: str) -> str | None:
        if not _NUMBER.match(value):
            return f"must be a number of {unit} (0 or more), got {value!r}"
        amount = float(value)
        if above_zero and amount <= 0:
            return f"must be more than 0 {unit}, got {value}"
        if not lo <= amount <= hi:
            return f"must be from {lo:g} to {hi:g} {unit}, got {value}"
        return None

    return check


def whole_or_range(lo: int, hi: int, unit: str) -> Check:
    """A whole number or a range such as ``2-3``, each end from lo to hi."""

    def check(value: str) -> str | None:
        match = _RANGE.match(value)
        ends = [value] if match is None else [match.group(1), match.group(2)]
        if not all(_WHOLE.match(end) for end in ends):
            return f"must be a whole number of {unit} or a range like 2-3, got {value!r}"
        a, b = whole_value(ends[0]), whole_value(ends[-1])
        if not (lo <= a <= hi and lo <= b <= hi):
            return f"must be from {lo} to {hi} {unit}, got {value}"
        if a > b:
            return f"the range {value} runs backwards"
        return None

    return check


def range_of(lo: int, hi: int, unit: str) -> Check:
    """A range ``a-b`` of whole numbers (a single number means a-a)."""
    inner = whole_or_range(lo, hi, unit)

    def check(value: str) -> str | None:
        problem = inner(value)
        return problem.replace("a whole number of", "a range of") if problem else None

    return check


def identifier(value: str) -> str | None:
    if not _ID.match(value):
        return f"must use only a-z, 0-9 and '-', got {value!r}"
    return None


def identifiers(value: str) -> str | None:
    """A comma-separated list of ids (story tags, round types)."""
    parts = [part.strip() for part in value.split(",")]
    if not any(parts):
        return "is empty"
    for part in parts:
        if problem := identifier(part):
            return problem
    return None


def one_of(choices: tuple[str, ...]) -> Check:
    def check(value: str) -> str | None:
        return None if value in choices else f"must be one of {', '.join(choices)}; got {value!r}"

    return check


def list_of(choices: tuple[str, ...]) -> Check:
    def check(value: str) -> str | None:
        parts = [p.strip() for p in value.split(",") if p.strip()]
        wrong = [p for p in parts if p not in choices]
        if not parts or wrong:
            shown = ", ".join(repr(p) for p in wrong) or "nothing"
            return f"lists {shown}; use one or more of {', '.join(choices)}"
        return None

    return check


def text(value: str) -> str | None:
    return None if value.strip() else "is empty"


# Front-matter keys with a type, by kind (other keys are kept as free text).
SECTION_FIELDS: dict[str, dict[str, Check]] = {
    "checklist": {
        "reminder": text,
        "start_soon": text,
        "warm_up_minutes": whole(1, 120, "minutes"),
    },
    "pitch": {"target": range_of(1, 600, "seconds")},
    "nudges": {"minutes": whole(1, 600, "minutes"), "steps": identifier},
    "questions": {"pick": range_of(1, 20, "questions")},
    "summary": {"next": text},
    "stories": {
        "seconds": whole(10, 600, "seconds"),
        "min_stories": whole(1, 100, "stories"),
        "max_stories": whole(1, 100, "stories"),
        "expect_from_study": whole(0, 20, "topics"),
        "card_rounds": identifiers,
        "surprise_severity": whole(1, 3),
        "tags": identifiers,
    },
    "rounds": {
        "minutes": whole(1, 600, "minutes"),
        "wrap_up_before_end": whole(1, 60, "minutes"),
        "take_over_within": whole(1, 60, "minutes"),
        "wrap_up": text,
        "time_up": text,
    },
}

# Item fields with a type, by kind.
ITEM_FIELDS: dict[str, dict[str, Check]] = {
    "checklist": {
        "link": one_of(LINKS),
        "minutes_before": whole(0, 1440, "minutes"),
        "within_hours": number(0, 720, "hours", above_zero=True),
        "after_midnight": one_of(("first",)),
        "rounds": one_of(("first", "each")),
        "minutes": whole(1, 600, "minutes"),
    },
    "pitch": {
        "id": one_of(PITCH_SEGMENT_IDS),
        "seconds": whole(1, 600, "seconds"),
        "heading": text,
    },
    "steps": {
        "id": identifier,
        "minutes": whole_or_range(0, 180, "minutes"),
        "minutes_by": one_of(("guide", "ours")),
    },
    "nudges": {
        "at": number(0, 600, "minutes"),
        "before_end": number(0, 600, "minutes"),
        "after_step": identifier,
    },
    "questions": {"audience": list_of(AUDIENCES)},
    "recovery": {"silence_seconds": whole(5, 120, "seconds"), "nudge": text},
    "quiz": {"id": identifier},
    "stories": {
        "id": identifier,
        "tags": identifiers,
        "rounds": identifiers,
        "audience": list_of(AUDIENCES),
        "answer_with": one_of(("pitch",)),
    },
    "rounds": {
        "id": identifier,
        "key": whole(1, 9),
        "minutes": whole(1, 600, "minutes"),
        "audience": list_of(AUDIENCES),
        "nudges": identifier,
        "also": text,
    },
}
REQUIRED_ITEM_FIELDS: dict[str, tuple[str, ...]] = {
    "pitch": ("id", "seconds"),
    "stories": ("id", "tags"),
}
UNIQUE_ITEM_FIELDS: dict[str, tuple[str, ...]] = {
    "pitch": ("id",),
    "steps": ("id",),
    "quiz": ("id",),
    "stories": ("id",),
    "rounds": ("id", "key"),
}


def check_section(section: Section) -> list[ContentError]:
    """Every typed field of one section that is missing, malformed or out of range."""

    path = section.source or Path("<memory>")
    errors: list[ContentError] = []

    def report(line: int, message: str) -> None:
        errors.append(ContentError(path, line, message))

    for key, check in SECTION_FIELDS.get(section.kind, {}).items():
        value = section.meta.get(key)
        if value is not None and (problem := check(value)):
            report(section.meta_lines.get(key, 1), f"{key}: {problem}")
    fields = ITEM_FIELDS.get(section.kind, {})
    seen: dict[str, dict[str, int]] = {key: {} for key in UNIQUE_ITEM_FIELDS.get(section.kind, ())}
    for item in section.items:
        for key in REQUIRED_ITEM_FIELDS.get(section.kind, ()):
            if not item.get(key):
                report(item.line, f"item {item.text!r} needs '{key}:'")
        for key, value in item.fields.items():
            line = item.field_lines.get(key, item.line)
            check = fields.get(key)
            if check is not None and (problem := check(value)):
                report(line, f"{key}: {problem}")
            elif key in seen:
                if value in seen[key]:
                    report(line, f"{key}: {value!r} is already used on line {seen[key][value]}")
                else:
                    seen[key][value] = line
    if section.kind == "nudges":
        errors.extend(_check_nudge_times(section, path))
    errors.extend(_check_silence_lines(section, path))
    errors.extend(_check_hours_words(section, path))
    return errors


_HOURS = re.compile(r"\b(?:(\d+(?:\.\d+)?)\s*(?:h|hours?)|(the|an|one)\s+hour)\b", re.I)


def _check_hours_words(section: Section, path: Path) -> list[ContentError]:
    """An item whose words state its own ``within_hours:`` ("within 24 hours") states the
    same number; ``{capture_window}`` or ``{thank_you_window}`` in the text always agrees."""
    errors = []
    for item in section.items:
        field = item.get("within_hours")
        said = _HOURS.search(item.text)
        if field is None or said is None or not _NUMBER.match(field):
            continue
        hours = float(said.group(1)) if said.group(1) else 1.0
        if hours != float(field):
            line = item.field_lines.get("within_hours", item.line)
            message = (
                f"within_hours: {field} but the item says {said.group(0)!r}; "
                "write {capture_window} or {thank_you_window} to follow the field"
            )
            errors.append(ContentError(path, line, message))
    return errors


# "silent for 20 seconds", "20 s of silence": a line that names the silence limit
_SILENCE_WORDS = re.compile(r"\b(silent|silence|quiet)\b", re.I)
_SECONDS = re.compile(r"\b(\d{1,4})\s*(?:s|sec|secs|seconds?)\b", re.I)


def _check_silence_lines(section: Section, path: Path) -> list[ContentError]:
    """A line that states the silence limit in words carries it as ``silence_seconds:``
    (a recovery item), and the words and the field agree: the card listens by the field."""
    errors = []
    for item in section.items:
        said = _SECONDS.search(item.text) if _SILENCE_WORDS.search(item.text) else None
        field = item.get("silence_seconds")
        line = item.field_lines.get("silence_seconds", item.line)
        if said and field is None:
            if section.kind == "recovery":
                message = f"the silence line {item.text!r} needs 'silence_seconds: {said.group(1)}'"
            else:
                message = (
                    f"the silence line {item.text!r} names a limit; put it in a recovery "
                    "item with 'silence_seconds:'"
                )
            errors.append(ContentError(path, item.line, message))
        elif (
            said
            and field is not None
            and _WHOLE.match(field)
            and whole_value(field) != int(said.group(1))
        ):
            message = f"silence_seconds: {field} but the line says {said.group(1)} seconds"
            errors.append(ContentError(path, line, message))
    return errors


def _check_nudge_times(section: Section, path: Path) -> list[ContentError]:

    errors = []
    length = section.meta.get("minutes", "")
    minutes = whole_value(length) if _WHOLE.match(length) else None
    for item in section.items:
        given = [key for key in ("at", "before_end", "after_step") if item.get(key) is not None]
        if not given:
            message = f"nudge {item.text!r} needs 'at:', 'before_end:' or 'after_step:'"
            errors.append(ContentError(path, item.line, message))
        elif len(given) > 1:
            message = "a nudge takes one of 'at:', 'before_end:' or 'after_step:'"
            errors.append(ContentError(path, item.line, message))
        elif given[0] == "after_step" and not section.meta.get("steps"):
            message = "'after_step:' needs 'steps:' in the front matter (the steps section)"
            errors.append(ContentError(path, item.line, message))
        elif (
            minutes is not None
            and given[0] != "after_step"
            and _NUMBER.match(item.fields[given[0]])
            and float(item.fields[given[0]]) >= minutes
        ):
            line = item.field_lines.get(given[0], item.line)
            message = f"{given[0]}: must be under the round's {minutes} minutes"
            errors.append(ContentError(path, line, message))
    return errors


def parse_range(value: str | None) -> tuple[int, int] | None:
    """``"60-90"`` -> (60, 90), ``"45"`` -> (45, 45); None for anything else."""
    match = _RANGE.match((value or "").strip())
    if match:
        return whole_value(match.group(1)), whole_value(match.group(2))
    if value and _WHOLE.match(value.strip()):
        return whole_value(value.strip()), whole_value(value.strip())
    return None


def section_warnings(section: Section) -> list[ContentError]:
    """Valid but doubtful: a pitch whose segments do not add up to its own target."""

    if section.kind != "pitch":
        return []
    lo, hi = parse_range(section.meta.get("target")) or DEFAULT_PITCH_TARGET
    total = sum(int(i.get("seconds") or 0) for i in section.items if _seconds_ok(i))
    if lo <= total <= hi:
        return []
    where = section.meta_lines.get("target", 1)
    return [
        ContentError(
            section.source or Path("<memory>"),
            where,
            f"the pitch segments add up to {total} s, outside the target {lo}-{hi} s",
        )
    ]


def _seconds_ok(item: Item) -> bool:
    return bool(_WHOLE.match(item.get("seconds") or ""))
