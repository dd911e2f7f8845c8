"""What an invitation says beyond its time: the interviewer (DESCRIPTION), the people
(ORGANIZER, ATTENDEE) and the call link (the conference properties, URL, LOCATION, else a
meeting link in DESCRIPTION). Pure text rules, shared by the .ics reader and its tests."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from companion.core.content.audiences import BY_PRECEDENCE
from companion.core.day.links import call_link, first_link, meeting_link

MAX_NAME = 80
_LABEL = (
    r"interviewers?|interviewed by|interviewing|with|host|panel(?:ist)?s?|"
    r"hiring manager|hm|recruiter"
)
# [^\S\n]*, not \s*: from every line start \s* ran over the blank lines after it (quadratic)
_LABELLED = re.compile(rf"^[^\S\n]*(?P<label>{_LABEL})\s*[:\-–—]\s*(?P<who>\S.*)$", re.I | re.M)
_WITH = re.compile(r"\bwith[^\S\n]+(?P<who>[A-Z][\w.'’-]+(?:[^\S\n]+[A-Z][\w.'’-]+){0,3})")
# no bracket inside: from every "(" of a run, [^)\]]* scanned to the end (quadratic)
_PAREN = re.compile(r"[(\[]([^()\[\]]*)[)\]]\s*$")


# the lines a calendar writes around the call link: never a person's name
_BOILERPLATE = re.compile(
    r"https?://|-::~|^\s*(?:join|dial|or dial|meeting id|meeting password|passcode|password|"
    r"pin|phone|or call|call in|find a local number|learn more|more phone numbers|"
    r"one tap mobile|microsoft teams|click here|need help|invitation from google|"
    r"you are receiving|forwarding this invitation|view all guest info|reply for|"
    r"zoom|webex|google meet|tel:)",
    re.I,
)


def _without_boilerplate(text: str) -> str:
    return "\n".join(line for line in text.splitlines() if not _BOILERPLATE.search(line))


def interviewer_in(description: str) -> tuple[str, str]:
    """(name, role) of the interviewer a DESCRIPTION names: a labelled line
    ("Interviewer: Priya Raman (hiring manager)"), "… with Priya Raman", or a short
    description that is only a name. ("", "") when it names no one; the call's own
    lines ("Join with Google Meet: https://…", dial-in numbers) are never read."""
    text = _without_boilerplate(description or "").strip()
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
        who, label = _sentence_head(with_.group("who")), ""
        if any(w.lower().strip(".'’") in _NOT_NAMES for w in who.split()):
            return "", ""
    if first_link(who):
        who = who[: who.lower().find("http")]
    who = " ".join(who.split()).strip(" ,;:-–—")
    if who.endswith(".") and len(who.split()[-1]) > 2:  # "with Priya." ends a sentence
        who = who[:-1]
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


def _sentence_head(words: str) -> str:
    """The words up to a full stop that ends a sentence ("Priya. Please" -> "Priya.");
    an initial ("R.") does not end one."""
    out = []
    for word in words.split():
        out.append(word)
        if word.endswith(".") and len(word) > 2:
            break
    return " ".join(out)


_NOT_NAMES = frozenset(
    "zoom teams meet meeting call video interview round onsite phone screen link join "
    "dial agenda notes chat sync the a an and of for with at in on to google microsoft "
    "webex skype hangouts".split()
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


def role_in(words: str) -> str:
    """The interviewer role a text names ("Hiring manager chat" -> hiring-manager)."""
    return _role(words)


def _role(words: str) -> str:
    for audience in BY_PRECEDENCE:
        if audience.words.search(words or ""):
            return audience.id
    return ""


def mentioned(
    attendees: Sequence[Person], organizer: Person | None, summary: str, description: str
) -> str:
    """The attendee the invitation's title names ("Interview: System Design (Priya
    Raman)"), else the one its description names, else the one whose given name follows
    "with" in the title ("with Priya"); "" when none, or when several are
    named alike (the candidate's name may be there too). The organizer is not one."""
    people = [p for p in attendees if p.name and p != organizer and len(p.name) > 2][:50]
    for text in (summary[:2000], _without_boilerplate(description[:20000])):
        found = [p.name for p in people if _names(text, p.name)]
        if len(found) == 1:
            return found[0]
    # "Coding interview with Priya": a given name after "with" is the attendee of that name
    said = _WITH.search(summary[:2000])
    first = said.group("who").split()[0].lower() if said else ""
    found = [p.name for p in people if first and p.name.split()[0].lower() == first]
    return found[0] if len(found) == 1 else ""


def _names(text: str, name: str) -> bool:
    return re.search(rf"(?<!\w){re.escape(name)}(?!\w)", text or "", re.I) is not None


#: the properties that hold the call link, in the order they are trusted
LINK_PROPERTIES = (
    "CONFERENCE",  # RFC 7986
    "X-GOOGLE-CONFERENCE",
    "X-MICROSOFT-SKYPETEAMSMEETINGURL",
    "X-MICROSOFT-ONLINEMEETINGCONFLINK",
    "URL",
    "LOCATION",
)


def call_link_of(props: Mapping[str, Sequence[str]]) -> str:
    """The call link of an event's properties (name -> its values): the first http(s)
    address of :data:`LINK_PROPERTIES` in order, else the first meeting link in
    DESCRIPTION; "" when none holds one."""
    for name in LINK_PROPERTIES:
        for value in props.get(name, ()):
            # a link broken over lines by its writer ("…/j/8512345\n 6789") is one link
            link = call_link(value) or call_link("".join(value.split())) or first_link(value)
            if link:
                return link
    return meeting_link("\n".join(props.get("DESCRIPTION", ())))


@dataclass(frozen=True)
class Person:
    """Someone an invitation names (ORGANIZER or ATTENDEE): their CN and address."""

    name: str
    email: str

    @property
    def label(self) -> str:
        return self.name or self.email


_NOT_PEOPLE = ("ROOM", "RESOURCE", "UNKNOWN")


def person_of(value: str, params: Mapping[str, str]) -> Person | None:
    """The person of an ORGANIZER or ATTENDEE value ("mailto:a@b") and its parameters
    (CN, CUTYPE); None for a room, a resource, or a value that names no one."""
    if str(params.get("CUTYPE", "")).upper() in _NOT_PEOPLE:
        return None
    email = str(value or "").strip()
    if email.lower().startswith("mailto:"):
        email = email[7:]
    email = email.strip().lower()
    if "@" not in email:
        email = ""
    if email.endswith("resource.calendar.google.com"):
        return None
    name = " ".join(str(params.get("CN", "") or "").strip().strip('"').split())[:MAX_NAME]
    if name.lower() == email:
        name = ""
    if not name and not email:
        return None
    return Person(name, email)
