"""Which company an invitation is from, and where that was read.

Real titles rarely start with the company: "Interview - Virtue Market Research",
"Interview Schedule | Acme", "BuzzClan Interview :", the candidate's own name, "Web Dev
Internship". So a title is cut at its separators, and of each part the generic words
("Interview", "Schedule", "Internship"), what follows "with" (a person), a bracket and
the people the invitation names are dropped; a part that has words left names the
company when every event agrees. Else the organizer's (or the attendees' shared) mail
domain does, unless it is a mail provider or an applicant-tracking host. Nothing usable:
no guess, and the import asks for ``--company``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

# (?<!\s): a run of spaces is tried once from its start, not from each space (quadratic)
# "<>", " x ": the two parties of a scheduler's title ("Phone screen: Cobalt Labs <> Alex")
SEPARATORS = re.compile(r"(?<!\s)\s+(?:[-–—|:/]|<>|<->|[x×])\s+|:\s+|(?<!\s)\s*[|:]\s*$")
CANCELED = re.compile(r"^\s*(?:canceled|cancelled|abgesagt|annulé|updated|re|fwd?)\s*:\s*", re.I)
_BRACKETS = re.compile(r"[(\[][^()\[\]]*[)\]]")
_WITH = re.compile(r"\b(?:with|w/|mit|avec)\b.*$", re.I)
_WORD = re.compile(r"[\w&'’.+-]+")

#: words that say what an event is, never whose: a title part of only these names no one
GENERIC = frozenset(
    """
    interview interviews interviewing schedule scheduled invitation invite invited walk-in
    walk in assignment due internship intern interns round rounds screen screening call
    phone video onsite on-site virtual chat meeting technical final first second third
    1st 2nd 3rd next for and the a an of at to on your our my application applicant
    position role job jobs candidate hiring recruiter recruiting recruitment hr web dev
    devs developer development engineer engineering software senior junior sr jr lead
    frontend front-end backend back-end full stack full-stack fullstack data scientist
    analyst manager team follow-up followup debrief offer take-home take home test
    tests coding challenge exercise task project update reminder confirmed
    confirmation event online zoom teams google meet microsoft skype webex session
    discussion conversation introduction intro introductory panel loop day
    """.split()
)

#: generic words that, capitalised at the very end of a part after a name, are that name's
#: last word ("Kesselhaus Software", "Acme Data"), not the round's ("Acme Software Engineer")
NAME_TAILS = frozenset("software data engineering development".split())

#: mail providers and hosts that send for many companies: their domain names none
SHARED_HOSTS = frozenset(
    """
    gmail.com googlemail.com google.com outlook.com hotmail.com live.com msn.com
    yahoo.com ymail.com icloud.com me.com mac.com aol.com proton.me protonmail.com pm.me
    gmx.com gmx.de gmx.net web.de mail.com yandex.com yandex.ru zoho.com zohomail.com
    fastmail.com hey.com qq.com 163.com 126.com tutanota.com tuta.io hushmail.com
    greenhouse.io lever.co ashbyhq.com workday.com myworkday.com smartrecruiters.com
    icims.com jobvite.com bamboohr.com calendly.com goodtime.io gem.com modernloop.io
    teamtailor.com recruitee.com workable.com personio.de personio.com breezy.hr
    zoom.us microsoftonline.com calendar.google.com resource.calendar.google.com
    example.com example.org example.net
    """.split()
)
_SECOND_LEVEL = frozenset("co com ac org net gov edu ne or".split())


@dataclass(frozen=True)
class CompanyGuess:
    name: str  # "" when nothing names a company
    source: str  # how the note says it was found: "the title 'Interview - Acme'"


def _part_name(part: str, people: set[str], plain: frozenset[str]) -> str:
    """What is left of one title part once generic words (``plain``), people and
    brackets are gone."""
    part = _WITH.sub("", _BRACKETS.sub(" ", part))
    words = _WORD.findall(part)
    generic = [w.lower().strip(".") in plain for w in words]
    first = next((n for n, g in enumerate(generic) if not g), len(words))
    if words and words[-1].lower() in NAME_TAILS and words[-1][0].isupper():
        generic[-1] = first == len(words)  # "Kesselhaus Software": a name's own last word
    last = next((n for n in range(len(words) - 1, -1, -1) if not generic[n]), -1)
    words = words[first : last + 1]
    name = " ".join(words).strip(" .-'’")
    if not name or name.lower() in people:
        return ""
    if not any(c.isalpha() for c in name):
        return ""
    return name


def without_company(summary: str, company: str, people: Iterable[str] = ()) -> str:
    """``summary`` without the loop's company, which the loop already names, nor a part
    that is one of ``people`` (the candidate of "Cobalt Labs <> Alex"): "Technical
    Interview - Lumen Analytics" -> "Technical Interview", "BuzzClan Interview :" ->
    "Interview"; ``summary`` itself when nothing else is left."""
    if not company.strip():
        return summary
    name = re.compile(rf"(?<!\w){re.escape(company.strip())}(?!\w)", re.I)
    parts = (" ".join(name.sub(" ", part).split()) for part in SEPARATORS.split(summary))
    kept = [part.strip(" -–—|:/,") for part in parts]
    known = person_names(people)
    return " - ".join(part for part in kept if part and part.lower() not in known) or summary


def person_names(people: Iterable[str]) -> set[str]:
    """The names a title may give a person by: each whole name and its given name
    ("Alex Kim" -> "alex kim", "alex"), lower case."""
    names = {" ".join(p.lower().split()) for p in people if p and p.strip()}
    return names | {n.split()[0] for n in names if " " in n}


def plain_words(round_titles: Iterable[str] = ()) -> frozenset[str]:
    """:data:`GENERIC` and the words of the round types' titles ("System design")."""
    return GENERIC | {w.lower() for t in round_titles for w in _WORD.findall(t.replace("-", " "))}


def title_company(
    summary: str,
    people: Iterable[str] = (),
    plain: frozenset[str] = GENERIC,
    domains: Iterable[str] = (),
) -> str:
    """The company one title names ("Interview - Virtue Market Research" -> "Virtue
    Market Research"); "" when no part of it names one. ``people``: the names the
    invitation gives (the candidate's, the interviewers'), never a company, nor their
    given names alone; ``plain``: the words that name no one (:func:`plain_words`);
    ``domains``: the company domains of the invitation's addresses, whose part wins
    when a title names two parties ("Alex <> Cobalt Labs" from @cobaltlabs.io)."""
    known = person_names(people)
    text = CANCELED.sub("", summary.strip())
    names = [n for n in (_part_name(p, known, plain) for p in SEPARATORS.split(text)) if n]
    labels = [d.split(".")[0].replace("-", "") for d in domains if d]
    spelled = [n for n in names if any(_spells(n, label) for label in labels)]
    return (spelled or names or [""])[0]


def _spells(name: str, label: str) -> bool:
    """Whether a domain's label spells ``name`` or its first words ("cobaltlabs" and
    "Cobalt Labs", "northwind" and "Northwind AI")."""
    words = [w.replace("-", "").replace(".", "") for w in _WORD.findall(name.lower())]
    return len(label) >= 3 and any("".join(words[:n]) == label for n in range(1, len(words) + 1))


def guess_company(
    summaries: Sequence[str],
    people: Iterable[str] = (),
    round_titles: Iterable[str] = (),
    domains: Iterable[str] = (),
) -> str:
    """The company every title names alike; "" when they name none or disagree."""
    people, plain, domains = list(people), plain_words(round_titles), list(domains)
    names = [title_company(s, people, plain, domains) for s in summaries]
    if names and names[0] and all(n.lower() == names[0].lower() for n in names):
        return names[0]
    return ""


def registered_domain(address: str) -> str:
    """ "recruiting@jobs.acme.co.uk" -> "acme.co.uk"; "" for no address."""
    host = address.rpartition("@")[2].strip().lower().rstrip(".")
    labels = [label for label in host.split(".") if label]
    if len(labels) < 2:
        return ""
    keep = 3 if len(labels) >= 3 and labels[-2] in _SECOND_LEVEL and len(labels[-1]) == 2 else 2
    return ".".join(labels[-keep:])


def shared_host(host: str) -> bool:
    """Whether mail from ``host`` says nothing of the company (a provider, an ATS)."""
    return host in SHARED_HOSTS or any(host.endswith("." + h) for h in SHARED_HOSTS)


def domain_company(addresses: Sequence[str], titles: Sequence[str] = ()) -> tuple[str, str]:
    """(company, domain) of the first address whose domain is a company's: its name as a
    title spells it when one holds it ("virtuemarketresearch.com" and "Virtue Market
    Research"), else the domain's first label capitalised."""
    for address in addresses:
        full = address.rpartition("@")[2].strip().lower()
        domain = registered_domain(address)
        if not domain or shared_host(full) or shared_host(domain):
            continue
        label = domain.split(".")[0]
        for title in titles:
            for part in SEPARATORS.split(title):
                words = _WORD.findall(part)
                for n in range(len(words)):
                    for m in range(len(words), n, -1):
                        if "".join(words[n:m]).lower().replace("-", "") == label.replace("-", ""):
                            return " ".join(words[n:m]), domain
        return label[:1].upper() + label[1:], domain
    return "", ""


def titles_company(events: Sequence, me: str = "", round_titles: Iterable[str] = ()) -> str:
    """The company the events' titles name alike (:func:`guess_company`), knowing the
    people they invite (never the company) and their addresses' company domains (the
    part of a two-party title they spell wins); "" when the titles name none."""
    people = {p.name for e in events for p in (e.organizer, *e.attendees) if p and p.name}
    people |= {getattr(e, "interviewer", "") for e in events} - {""}
    addresses = [p.email for e in events for p in (e.organizer, *e.attendees) if p and p.email]
    domains = {registered_domain(a) for a in addresses if a != me} - {""}
    domains = [d for d in sorted(domains) if not shared_host(d)]
    return guess_company([e.summary for e in events], people, round_titles, domains)


def company_of(events: Sequence, me: str = "", round_titles: Iterable[str] = ()) -> CompanyGuess:
    """The company of an invitation's events (see the module), and where it was read;
    ``round_titles``: the round types' ids and titles, which name no company."""
    summaries = [e.summary for e in events]
    name = titles_company(events, me, round_titles)
    if name:
        return CompanyGuess(name, f"the title {summaries[0][:60]!r}")
    organizers = [e.organizer.email for e in events if e.organizer and e.organizer.email != me]
    name, domain = domain_company(organizers, summaries)
    if name:
        return CompanyGuess(name, f"the organizer's address (@{domain})")
    attendees = [p.email for e in events for p in e.attendees if p.email and p.email != me]
    own = [a for a in attendees if not shared_host(registered_domain(a))]
    if len({registered_domain(a) for a in own}) == 1:  # one company's people, all alike
        name, domain = domain_company(own, summaries)
        if name:
            return CompanyGuess(name, f"the attendees' addresses (@{domain})")
    return CompanyGuess("", "")
