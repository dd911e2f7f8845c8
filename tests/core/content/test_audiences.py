"""The interviewer audiences, declared once: how a role is read from words, filed, and
named (tests/test_names_once.py checks no module keeps its own list of them)."""

from __future__ import annotations

import pytest

from companion.core.content.audiences import (
    AUDIENCES,
    audience_of,
    audience_person,
    audience_title,
    round_role,
)
from companion.core.day.invite_fields import role_in
from companion.core.day.loops import INTERVIEWER_ROLES


@pytest.mark.parametrize(
    ("words", "role"),
    [
        ("Hiring manager chat", "hiring-manager"),
        ("HM screen", "hiring-manager"),
        ("Chat with a peer engineer", "peer"),
        ("Meet the VP", "leadership"),
        # two audiences named: the hiring manager first, then leadership, then a peer
        ("Engineering director, with an engineer from the team", "leadership"),
        ("Hiring manager (director of engineering)", "hiring-manager"),
        ("Recruiter call", ""),
    ],
)
def test_an_invitation_names_one_role(words: str, role: str) -> None:
    assert role_in(words) == role


def test_a_question_of_an_unknown_role_is_a_peers() -> None:
    assert [audience_of(r) for r in ("", "recruiter", *AUDIENCES)] == ["peer", "peer", *AUDIENCES]


def test_a_hiring_manager_round_is_the_hiring_managers_unless_set() -> None:
    assert round_role("", "hiring-manager") == "hiring-manager"
    assert round_role("peer", "hiring-manager") == "peer"
    assert round_role("", "coding") == ""


def test_each_audience_is_named_and_picked() -> None:
    assert ("", *AUDIENCES) == INTERVIEWER_ROLES
    assert audience_title("leadership") == "Senior leadership"
    assert audience_person("leadership") == "senior leader"
    assert audience_title("custom") == "custom"  # an unknown id is shown as it is
