"""A recruiter's calendar invitation (.ics) becomes a loop with its scheduled rounds."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from sqlite_utils import Database

from companion.core.day import loops
from companion.core.day.model import DayRules

_SEPARATORS = re.compile(r"\s+[-–—|:/]\s+|:\s+")


@dataclass(frozen=True)
class InvitationResult:
    loop_id: int
    loop_created: bool
    added: int
    duplicates: int
    messages: tuple[str, ...]
    summary: str


def guess_company(summaries: list[str]) -> str:
    """The words every event title shares before its separator ("Acme - Coding")."""
    heads = []
    for summary in summaries:
        parts = _SEPARATORS.split(summary.strip(), maxsplit=1)
        if len(parts) == 2 and parts[0].strip():
            heads.append(parts[0].strip())
    if heads and all(h.lower() == heads[0].lower() for h in heads):
        return heads[0]
    return ""


def import_invitation(
    db: Database,
    path: Path,
    rules: DayRules,
    *,
    company: str | None = None,
    role: str = "",
) -> InvitationResult:
    """Make (or find) the loop for the invitation and add its timed events as rounds.
    The same file imported twice adds nothing: the loop is found again by company and
    first day, and a round already at an event's time is skipped."""
    from companion.core.day.ics import read_ics

    events, problems = read_ics(path)  # raises IcsError (a ValueError) naming the file
    return import_invitation_events(db, path, events, problems, rules, company=company, role=role)


def import_invitation_events(
    db: Database,
    path: Path,
    events: list,
    problems: list[str],
    rules: DayRules,
    *,
    company: str | None = None,
    role: str = "",
) -> InvitationResult:
    """:func:`import_invitation` for events already read from ``path``."""

    timed = [e for e in events if not e.all_day]
    if not timed:
        raise ValueError(f"{path}: no event with a start time; nothing to import.")
    name = (company or "").strip() or guess_company([e.summary for e in timed])
    if not name:
        raise ValueError(
            f"{path}: the company is not in the event titles; say it with --company NAME."
        )
    first_day = min(e.start for e in timed).date().isoformat()
    last_day = max(e.start for e in timed).date().isoformat()
    # find-or-make and the rounds in one write transaction: the same file imported by two
    # processes at once made the loop twice (both looked before either wrote)
    with db.atomic():
        return _import_into_loop(db, path, events, problems, rules, name, role, first_day, last_day)


def _import_into_loop(db, path, events, problems, rules, name, role, first_day, last_day):
    from companion.core.day.schedule import import_events

    existing = next(
        (
            lp
            for lp in loops.list_loops(db)
            if lp.company.lower() == name.lower() and lp.starts_on == first_day
        ),
        None,
    )
    created = existing is None
    loop_id = (
        existing.id
        if existing
        else loops.create_loop(
            db,
            name,
            role,
            starts_on=first_day,
            ends_on=last_day if last_day != first_day else None,
        )
    )
    types = list(rules.titles.items())
    result = import_events(db, loop_id, events, types=types, default_type="", company=name)
    messages = list(result.messages) + [f"{path.name}, {p}" for p in problems]
    if any(e.repeats for e in events):
        messages.append("Repeating events were added once, at their first time.")
    verb = "Made" if created else "Found"
    summary = (
        f"{verb} loop {name}{' — ' + role if role else ''} ({first_day}): "
        f"{result.added} round(s) added, {result.duplicates} already there."
    )
    return InvitationResult(
        loop_id, created, result.added, result.duplicates, tuple(messages), summary
    )
