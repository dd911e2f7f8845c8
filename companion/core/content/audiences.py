"""The interviewer audiences, declared once: who asks a question or sits in a round.

Content files tag questions and round types with these ids (``audience: peer``), a round
names its interviewer's role with one, and the planner groups the questions to ask by
them. Every other module derives its list, labels and checks from :data:`AUDIENCES`
(tests/test_names_once.py fails on a second literal list of them).
"""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class Audience:
    id: str
    title: str  # a heading: the planner's groups, a round page's "asked by"
    role: str  # the interviewer-role picker's entry
    person: str  # one of them in a sentence ("a senior leader may not ...")
    words: re.Pattern  # what an invitation or a round's title calls them
    precedence: int  # an invitation naming two: the lower wins ("Engineering director")


HIRING_MANAGER = "hiring-manager"  # the one the thank-you note looks for
ANY_ROLE = "peer"  # whom a question asked of an unknown role is filed under

_DECLARED = (
    Audience(
        HIRING_MANAGER,
        "Hiring manager",
        "Hiring manager",
        "hiring manager",
        re.compile(r"\bhiring[\s-]*manager\b|\bhm\b", re.I),
        0,
    ),
    Audience(
        ANY_ROLE, "Peer", "Peer", "peer", re.compile(r"\b(?:peer|engineer|teammate)\b", re.I), 2
    ),
    Audience(
        "leadership",
        "Senior leadership",
        "Leadership",
        "senior leader",
        re.compile(r"\b(?:director|vp|head of|leadership|cto|ceo)\b", re.I),
        1,
    ),
)
BY_ID = {audience.id: audience for audience in _DECLARED}
AUDIENCES = tuple(BY_ID)  # in the order the planner and the pickers show them
BY_PRECEDENCE = tuple(sorted(_DECLARED, key=lambda audience: audience.precedence))


def audience_of(role: str) -> str:
    """The audience a round's interviewer role asks as: an unknown or empty role (the
    recruiter, no one named) is filed as a peer's question."""
    return role if role in BY_ID else ANY_ROLE


def round_role(role: str, round_type: str) -> str:
    """A round's interviewer role: the one set, else a hiring-manager round's is the
    hiring manager (the thank-you note and the planner both read it so)."""
    return role or (HIRING_MANAGER if round_type == HIRING_MANAGER else "")


def audience_title(audience: str) -> str:
    found = BY_ID.get(audience)
    return found.title if found else audience


def audience_person(audience: str) -> str:
    """One person of that audience, for sentences ("a peer", "a senior leader")."""
    found = BY_ID.get(audience)
    return found.person if found else audience
