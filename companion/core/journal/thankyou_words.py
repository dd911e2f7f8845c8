"""Words for the thank-you note: a greeting a person would write, a topic in words.

The guide says to thank the recruiter or the hiring manager; the note greets one person by
first name ("Hi Priya,"), never the field as typed ("Priya Raman (hiring manager)"), and
leaves a visible placeholder when no one is named. A topic stored as a slug ("lru-cache")
is said in words ("the LRU cache").
"""

from __future__ import annotations

import re

NAME_PLACEHOLDER = "[name]"

# short words said letter by letter; a slug spells them in lower case
ACRONYMS = {
    "api", "apis", "aws", "cap", "cdn", "ci", "cd", "cpu", "crdt", "css", "db", "dns", "gc",
    "gcp", "gpu", "grpc", "http", "https", "id", "io", "ip", "json", "jvm", "jwt", "k8s",
    "kv", "lb", "lru", "lfu", "ml", "oop", "os", "p99", "qps", "rest", "rpc", "s3", "sdk",
    "slo", "sla", "sli", "sql", "sre", "ssl", "tcp", "tls", "ttl", "udp", "ui", "url", "ux",
    "vm", "vpc", "xml",
}  # fmt: skip
_TITLES = {"dr", "dr.", "mr", "mr.", "ms", "ms.", "mrs", "mrs.", "prof", "prof."}


def first_person(recipients: str) -> str:
    """The one person of a recipient field: 'Priya Raman (hiring manager), Kim' -> 'Priya
    Raman'; '' when none is named."""
    first = re.split(r",|;|/|\band\b|&", recipients or "")[0]
    first = re.sub(r"\(.*?\)|\[.*?\]|<.*?>|\S+@\S+", " ", first)
    first = re.split(r"\s[-–—:]\s", first)[0]
    return " ".join(first.split())


def greeting(recipients: str) -> str:
    """'Hi Priya,' for 'Priya Raman (hiring manager)'; 'Hi [name],' for no one."""
    person = first_person(recipients)
    if not person:
        return f"Hi {NAME_PLACEHOLDER},"
    words = person.split()
    if words[0].lower() in _TITLES and len(words) > 1:
        name = f"{words[0]} {words[-1]}"  # Dr. Okafor
    else:
        name = words[0]
    return f"Hi {name},"


def topic_in_words(topic: str) -> str:
    """'lru-cache' -> 'the LRU cache'; 'rate_limiting' -> 'rate limiting'; words stay."""
    text = " ".join(topic.split())
    if not re.search(r"[-_]", text) or " " in text:
        return text
    words = [w for w in re.split(r"[-_]+", text) if w]
    said = [w.upper() if w.lower() in ACRONYMS else w for w in words]
    phrase = " ".join(said)
    last = words[-1].lower() if words else ""
    if len(words) > 1 and not last.endswith(("s", "ing")) and last not in ACRONYMS:
        phrase = "the " + phrase  # a thing: "the LRU cache"
    return phrase
