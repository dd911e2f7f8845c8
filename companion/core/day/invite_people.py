"""Who an invitation's rounds are with: the candidate (the user) left out, the organizer
(usually the recruiter) kept apart, and the remaining people as the interviewer."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from companion.core.content.audiences import round_role
from companion.core.day.invite_company import registered_domain, shared_host
from companion.core.day.invite_fields import Person

#: the preference holding the user's own address, asked once (the first import with several
#: people invited) so the other attendees can be named as the interviewers
ME_PREF = "invite.my_address"


def my_address(settings) -> str:
    """The user's own address as kept (``settings``: the database's), "" if never asked."""
    return str(settings.get(ME_PREF, "") or "")


def remember_my_address(settings, address: str) -> None:
    settings.set(ME_PREF, address.strip().lower())


def candidate_address(
    me: str, invites: Sequence[Sequence[Person]], organizers: Iterable[str] = ()
) -> str:
    """The user's address: ``me`` when given, else the one attendee every event of the
    loop invites (organizers aside) when there are at least two events, else the one
    attendee whose domain is not the organizers' company domain (``organizers``: their
    addresses); "" when not known."""
    me = (me or "").strip().lower()
    if me:
        return me
    if len(invites) >= 2:
        shared = set.intersection(*({p.email for p in people if p.email} for people in invites))
        if len(shared) == 1:
            return next(iter(shared))
    return _outsider(invites, organizers)


def _outsider(invites: Sequence[Sequence[Person]], organizers: Iterable[str]) -> str:
    """The one attendee at another domain than the company's, which the organizers'
    addresses share (not a mail provider's): the interviewers are the company's own, the
    candidate writes from elsewhere (a free-mail address, their own domain)."""
    company = {registered_domain(a) for a in organizers if a}
    if len(company) != 1 or shared_host(next(iter(company))) or "" in company:
        return ""
    addresses = {p.email for people in invites for p in people if p.email}
    elsewhere = {a for a in addresses if registered_domain(a) not in company}
    return next(iter(elsewhere)) if len(elsewhere) == 1 else ""


@dataclass(frozen=True)
class RoundPeople:
    organizer: str  # the organizer's name (or address); "" when the user organized it
    interviewers: tuple[str, ...]  # the remaining people's names
    people: str  # JSON of everyone the event names, for a later import to match
    unsure: tuple[str, ...] = ()  # the addresses one of which is the user's, when unknown


def round_people(organizer: Person | None, attendees: Iterable[Person], me: str) -> RoundPeople:
    """The round's people without the user: the organizer, and the attendees who are
    neither the user nor the organizer as its interviewers (the organizer when no one
    else is left: an interviewer who sent the invitation). With the user not known,
    one other attendee is the user (an invitation goes to the candidate); with several,
    nobody is named and ``unsure`` lists them."""
    attendees = list(attendees)
    org_email = organizer.email if organizer else ""
    everyone = ([organizer] if organizer else []) + [p for p in attendees if p != organizer]
    people = json.dumps(
        [{"name": p.name, "email": p.email, "organizer": bool(p is organizer)} for p in everyone],
        ensure_ascii=False,
    )
    others = [p for p in attendees if not (org_email and p.email == org_email) and p != organizer]
    unsure: tuple[str, ...] = ()
    if me:
        others = [p for p in others if p.email != me]
    elif len(others) == 1:
        me, others = others[0].email, []
    elif others:
        unsure, others = tuple(p.email or p.name for p in others), []
    org_name = organizer.label if organizer and organizer.email != me else ""
    names = tuple(p.label for p in others)
    if not names and org_name and not unsure:
        names = (org_name,)
    return RoundPeople(org_name, names, people, unsure)


def stored_people(text: str) -> tuple[Person | None, list[Person]]:
    """(organizer, other attendees) a round keeps (its ``people`` JSON); (None, []) when
    empty or unreadable."""
    try:
        rows = json.loads(text or "[]")
        people = [(Person(str(r.get("name", "")), str(r.get("email", ""))), r) for r in rows]
    except (ValueError, TypeError, AttributeError):
        return None, []
    organizer = next((p for p, r in people if r.get("organizer")), None)
    return organizer, [p for p, r in people if not r.get("organizer")]


def interviewers_by_role(rounds) -> dict[str, str]:
    """The loop's people by interviewer role ("hiring-manager" -> "Priya Raman"), from its
    rounds that are not skipped (a hiring-manager round is the hiring manager's): the
    planner names whom each audience's questions are for."""
    out: dict[str, list[str]] = {}
    for rnd in rounds:
        role = round_role(rnd.interviewer_role, rnd.type)
        name = (rnd.interviewer_name or "").strip()
        if role and name and not rnd.skipped_at and name not in out.get(role, []):
            out.setdefault(role, []).append(name)
    return {role: ", ".join(names) for role, names in out.items()}
