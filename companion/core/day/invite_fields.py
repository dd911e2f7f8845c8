"""What an invitation says beyond its time: the interviewer (DESCRIPTION) and the call
link (URL, else LOCATION). Pure text rules, shared by the .ics reader and its tests."""

from __future__ import annotations

import re

from companion.core.day.links import call_link, first_link

MAX_NAME = 80
_LABEL = (
    r"interviewers?|interviewed by|interviewing|with|host|panel(?:ist)?s?|"
    r"hiring manager|hm|recruiter"
)
_LABELLED = re.compile(rf"^\s*(?P<label>{_LABEL})\s*[:\-–—]\s*(?P<who>\S.*)$", re.I | re.M)
_WITH = re.compile(r"\bwith\s+(?P<who>[A-Z][\w.'’-]+(?:\s+[A-Z][\w.'’-]+){0,3})")
_ROLE_WORDS = (
    ("hiring-manager", re.compile(r"\bhiring[\s-]*manager\b|\bhm\b", re.I)),
    ("leadership", re.compile(r"\b(?:director|vp|head of|leadership|cto|ceo)\b", re.I)),
    ("peer", re.compile(r"\b(?:peer|engineer|teammate)\b", re.I)),
)
_PAREN = re.compile(r"\s*[(\[]([^)\]]*)[)\]]\s*$")


def interviewer_in(description: str) -> tuple[str, str]:
    """(name, role) of the interviewer a DESCRIPTION names: a labelled line
    ("Interviewer: Priya Raman (hiring manager)"), "… with Priya Raman", or a short
    description that is only a name. ("", "") when it names no one."""
    text = (description or "").strip()
    if not text:
        return "", ""
    found = _LABELLED.search(text)
    if found:
        who, label = found.group("who"), found.group("label").lower()
    elif _looks_like_a_name(text):
        who, label = text, ""
    else:
        with_ = _WITH.search(text)
        if not with_:
            return "", ""
        who, label = with_.group("who"), ""
    if first_link(who):
        who = who[: who.lower().find("http")]
    who = " ".join(who.split()).strip(" ,;:-–—")
    role = ""
    paren = _PAREN.search(who)
    if paren:
        role = _role(paren.group(1))
        if role:
            who = who[: paren.start()].strip()
    if not role:
        role = _role(label) if label not in ("with", "host", "") else ""
    if label == "recruiter":
        role = ""
    return who[:MAX_NAME].strip(), role


_NOT_NAMES = frozenset(
    "zoom teams meet meeting call video interview round onsite phone screen link join "
    "dial agenda notes chat sync the a an and of for with at in on to".split()
)


def _looks_like_a_name(text: str) -> bool:
    """A DESCRIPTION that is only a name ("Marcus Lee", "Priya Raman, Engineering
    Manager"): one short line of capitalised words, no digits, no meeting words."""
    head = text.split(",")[0].split()
    return (
        "\n" not in text
        and len(text.split()) <= 6
        and 1 <= len(head) <= 4
        and not first_link(text)
        and not text.endswith((".", "!", "?", ":"))
        and all(w[:1].isupper() and not any(c.isdigit() for c in w) for w in head)
        and not any(w.lower().strip(".'’") in _NOT_NAMES for w in head)
    )


def _role(words: str) -> str:
    for role, pattern in _ROLE_WORDS:
        if pattern.search(words or ""):
            return role
    return ""


def link_in(url: str, location: str) -> str:
    """The call link: the URL property when it is http(s), else the first http(s) address
    written in LOCATION ("Zoom https://…"); "" when neither holds one."""
    return call_link(url) or first_link(url) or first_link(location)
