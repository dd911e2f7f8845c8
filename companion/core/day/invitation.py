"""A recruiter's calendar invitation (.ics) becomes a loop with its scheduled rounds.

Each event stands alone: a good one is imported, a bad one is named (line, UID, summary)
with its reason. A later copy of an event already imported (its UID) moves or cancels
that round instead of adding one (:mod:`companion.core.day.invite_updates`)."""

from __future__ import annotations

import dataclasses
import datetime as dt
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from companion.core.day import loops
from companion.core.day.ics import read_ics
from companion.core.day.invite_company import company_of, registered_domain, shared_host
from companion.core.day.invite_company import guess_company as guess_company  # re-exported
from companion.core.day.invite_company import titles_company as titles_company  # re-exported
from companion.core.day.invite_people import candidate_address, round_people, stored_people
from companion.core.day.invite_series import resolve
from companion.core.day.invite_updates import apply_update, rounds_by_uid
from companion.core.day.model import DayRules
from companion.core.day.schedule import import_events
from companion.core.text import MAX_TEXT, count_of
from companion.core.timeutil import local_now, to_local

if TYPE_CHECKING:
    from sqlite_utils import Database


@dataclass(frozen=True)
class InvitationResult:
    loop_id: int  # 0 when the file changed no loop (a cancellation of nothing imported)
    loop_created: bool
    added: int
    duplicates: int
    messages: tuple[str, ...]
    summary: str
    moved: int = 0
    cancelled: int = 0
    refused: int = 0
    unsure: tuple[str, ...] = ()  # the attendees one of whom is the user, when not known

    @property
    def imported(self) -> int:
        """Events that went in (added, already there, moved or cancelled)."""
        return self.added + self.duplicates + self.moved + self.cancelled


def import_invitation(
    db: Database,
    path: Path,
    rules: DayRules,
    *,
    company: str | None = None,
    role: str = "",
    me: str = "",
    now: dt.datetime | None = None,
) -> InvitationResult:
    """Make (or find) the loop for the invitation and add its timed events as rounds.
    The same file imported twice adds nothing: the loop is found again by company and
    first day (or by its events' UIDs), and a round already at an event's time is skipped.
    ``me`` is the user's address, left out of the people."""

    events, problems = read_ics(path)  # raises IcsError (a ValueError) naming the file
    return import_invitation_events(
        db, path, events, problems, rules, company=company, role=role, me=me, now=now
    )


def import_invitation_events(
    db: Database,
    path: Path,
    events: list,
    problems: list,
    rules: DayRules,
    *,
    company: str | None = None,
    role: str = "",
    me: str = "",
    now: dt.datetime | None = None,
    into: int | None = None,
) -> InvitationResult:
    """:func:`import_invitation` for events already read from ``path``. A ValueError
    (naming the file and every refused event) when nothing at all can be imported.
    ``into``: the loop new events go to (the Today page's), unless they update others."""
    path = Path(path)
    now = now or local_now()
    refusals = [f"{path.name}, {p}" for p in problems]
    if events and all(e.reply for e in events):
        raise ValueError(
            f"{path}: an attendee's reply (METHOD:REPLY), not an invitation; nothing to import."
        )
    events, series_notes = resolve([e for e in events if not e.reply])
    timed = [e for e in events if not e.all_day]
    if not timed:
        all_day = sum(1 for e in events if e.all_day)
        why = "; ".join(
            [f"{count_of(all_day, 'all-day event')} only, with no start time"] * bool(all_day)
            + [str(p) for p in problems[:3]]
        )
        raise ValueError(
            f"{path}: no event with a start time; nothing to import"
            + (f" ({why}{'; …' if len(problems) > 3 else ''})." if why else ".")
        )
    # find-or-make and the rounds in one write transaction: the same file imported by two
    # processes at once made the loop twice (both looked before either wrote)
    with db.atomic():
        result = _import(db, path, events, timed, rules, company, role, me, now, refusals, into)
    if series_notes:
        result = dataclasses.replace(result, messages=(*series_notes, *result.messages))
    if not result.imported:
        raise ValueError("\n".join([*result.messages, f"{path}: nothing could be imported."]))
    return result


def _people_fields(event, me: str) -> tuple[dict, tuple[str, ...]]:
    found = round_people(event.organizer, event.attendees, me)
    fields = {"organizer": found.organizer, "people": found.people}
    if found.interviewers and not event.interviewer:
        fields["interviewer_name"] = ", ".join(found.interviewers)[:MAX_TEXT]
    # an interviewer the title names needs no --me: asking for it to "name the
    # interviewers" would contradict the round that names one
    return fields, () if event.interviewer else found.unsure


def _import(db, path, events, timed, rules, company, role, me, now, refusals, into=None):
    titles = dict(rules.titles)
    known = rounds_by_uid(db, {e.uid for e in timed})
    updates = [e for e in timed if e.uid and e.uid in known]
    fresh = [e for e in timed if not (e.uid and e.uid in known)]
    messages: list[str] = []
    for e in fresh:
        if e.cancelled:
            messages.append(
                f"{path.name}, {e.named}: a cancellation of an event never imported; nothing added."
            )
    live = [e for e in fresh if not e.cancelled]
    loop_id, created, note = _the_loop(
        db, path, known, updates, live, company, role, into, me, [*titles, *titles.values()]
    )
    if note:
        messages.append(note)
    loop_rounds = loops.list_rounds(db, loop_id) if loop_id else []
    invites = [
        [p for p in e.attendees if not (e.organizer and p.email == e.organizer.email)]
        for e in timed
        if not e.cancelled
    ]
    stored = [stored_people(r.people) for r in loop_rounds if r.people and not r.skip_reason]
    invites += [attendees for _organizer, attendees in stored]
    organizers = [e.organizer.email for e in timed if e.organizer and not e.cancelled]
    organizers += [organizer.email for organizer, _attendees in stored if organizer]
    me = candidate_address(me, [i for i in invites if i], organizers)
    if me:
        _name_earlier_interviewers(db, loop_rounds, me)
    unsure: set[str] = set()
    fields_of: dict[int, dict] = {}
    for e in timed:
        fields, doubt = _people_fields(e, me)
        fields_of[id(e)] = fields
        unsure.update(doubt)
    moved = cancelled = duplicates = 0
    for e in updates:
        fields = dict(fields_of[id(e)])
        if e.link:
            fields["link"] = e.link
        if e.minutes:
            fields["length_minutes"] = e.minutes
        what, message = apply_update(db, known[e.uid], e, fields, titles, now)
        duplicates += what == "same"
        moved += what in ("moved", "updated")
        cancelled += what == "cancelled"
        if message:
            messages.append(message)
    added = 0
    if live:
        name = loops.get_loop(db, loop_id).company
        result = import_events(
            db,
            loop_id,
            live,
            types=list(rules.titles.items()),
            default_type="",
            company=name,
            fields_of=lambda e: fields_of[id(e)],
        )
        added, duplicates = result.added, duplicates + result.duplicates
        messages += result.messages
        refusals += result.refused
    messages += _all_day_notes(events)
    if loop_id and not created and (moved or added):
        _follow_rounds(db, loop_id)
    if any(e.repeats for e in events):
        messages.append("Repeating events were added once, at their first time.")
    loop = loops.get_loop(db, loop_id) if loop_id else None
    head = (
        f"{'Made' if created else 'Found'} loop {loop.company}"
        f"{' — ' + loop.role if loop.role else ''} ({loop.starts_on}): "
        if loop
        else "No loop changed: "
    )
    parts = [f"added {count_of(added, 'round')}", f"{duplicates} already there"]
    if moved:
        parts.append(f"{moved} moved or updated")
    if cancelled:
        parts.append(f"{cancelled} cancelled")
    if refusals:
        parts.append(f"{count_of(len(refusals), 'event')} not imported")
    return InvitationResult(
        loop_id,
        created,
        added,
        duplicates,
        tuple(messages + refusals),
        head + ", ".join(parts) + ".",
        moved,
        cancelled,
        len(refusals),
        tuple(sorted(unsure)),
    )


def _name_earlier_interviewers(db, rounds, me: str) -> None:
    """Rounds imported before the user's address was known, with nobody named: their
    stored people name the interviewer now."""

    for rnd in rounds:
        organizer, attendees = stored_people(rnd.people)
        if rnd.interviewer_name or not (organizer or attendees):
            continue
        found = round_people(organizer, attendees, me)
        if found.interviewers:
            loops.update_round(db, rnd.id, interviewer_name=", ".join(found.interviewers))


def _all_day_notes(events) -> list[str]:
    return [
        f"Line {e.line}: {e.summary or 'an event'!r} is an all-day event "
        "with no start time; add its rounds by hand."
        for e in events
        if e.all_day
    ]


def local_day(moment: dt.datetime) -> str:
    """The machine's local date of ``moment`` (a loop is dated as its rounds are shown)."""
    return to_local(moment).date().isoformat()


def _the_loop(db, path, known, updates, live, company, role, into=None, me="", kinds=()):
    """(loop id, made now, a note) for the invitation: the loop of its events imported
    before (renamed when ``company`` says another name: the user's fix of a guess), else
    the one of that company and first day, else a new one; (0, False, "") when nothing is
    to be added to any loop. A guessed company is said, with where it was read."""
    company = (company or "").strip()
    if updates and known[updates[0].uid].loop_id:
        loop_id = known[updates[0].uid].loop_id
        loop = loops.get_loop(db, loop_id)
        if company and loop is not None and loop.company != company:
            loops.update_loop(db, loop_id, company=company)
            return loop_id, False, f"renamed loop {loop.company!r} to {company!r}."
        return loop_id, False, ""
    if not live:
        return 0, False, ""
    if into and loops.get_loop(db, into) is not None:
        return into, False, ""
    guess = company_of(live, me, kinds) if not company else None
    name = company or guess.name
    if not name:
        raise ValueError(
            f"{path}: no company in the event titles or the organizer's address; "
            "say it with --company NAME."
        )
    first_day = local_day(min(e.start for e in live))
    last_day = local_day(max(e.start for e in live))
    existing = next(
        (
            lp
            for lp in loops.list_loops(db)
            if lp.company.lower() == name.lower() and _near(lp, first_day, last_day)
        ),
        None,
    ) or (_loop_of_sender(db, live, first_day, last_day) if guess else None)
    if existing is not None:
        return existing.id, False, ""
    loop_id = loops.create_loop(
        db,
        name,
        role,
        starts_on=first_day,
        ends_on=last_day if last_day != first_day else None,
    )
    note = (
        f"the company {name!r} is a guess from {guess.source}; if it is wrong, rename "
        "the loop or import again with --company NAME (later copies of these events "
        "keep the name)."
        if guess
        else ""
    )
    return loop_id, True, note


def _loop_of_sender(db, live, first_day: str, last_day: str) -> loops.Loop | None:
    """An open loop near these dates whose rounds came from the same organizer's domain:
    a loop the user renamed after a wrong guess takes that company's next invitation."""
    domains = {registered_domain(e.organizer.email) for e in live if e.organizer}
    domains = {d for d in domains if d and not shared_host(d)}
    if not domains:
        return None
    for lp in loops.list_loops(db):
        if not _near(lp, first_day, last_day):
            continue
        for rnd in loops.list_rounds(db, lp.id):
            organizer, _others = stored_people(rnd.people)
            if organizer and registered_domain(organizer.email) in domains:
                return lp
    return None


#: an invitation within this many days of a loop of the same company belongs to it
#: (the recruiter sends one invitation a round, days apart)
SAME_LOOP_DAYS = 14


def _near(loop: loops.Loop, first_day: str, last_day: str) -> bool:
    """Whether an invitation for ``first_day``..``last_day`` belongs to ``loop``: the same
    first day, or an open loop (planned or active) less than two weeks away."""
    if loop.starts_on == first_day:
        return True
    if loop.status not in ("planned", "active") or not loop.starts_on:
        return False
    try:
        start = dt.date.fromisoformat(loop.starts_on)
        end = dt.date.fromisoformat(loop.ends_on or loop.starts_on)
        first, last = dt.date.fromisoformat(first_day), dt.date.fromisoformat(last_day)
    except ValueError:
        return False
    gap = max((first - end).days, (start - last).days, 0)
    return gap <= SAME_LOOP_DAYS


def _follow_rounds(db, loop_id: int) -> None:
    """A loop whose rounds moved is dated by them again (first and last local day)."""
    days = sorted(
        local_day(r.scheduled)
        for r in loops.list_rounds(db, loop_id)
        if r.scheduled and not r.skip_reason
    )
    if days:
        loops.update_loop(
            db, loop_id, starts_on=days[0], ends_on=days[-1] if days[-1] != days[0] else None
        )
