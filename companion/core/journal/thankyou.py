"""Thank-you notes after a loop: the recipient, a draft filled from the notes, sent or not."""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass

from sqlite_utils import Database

from companion.core.content.audiences import HIRING_MANAGER, round_role
from companion.core.day.loops import get_loop, list_rounds
from companion.core.journal.round_order import in_time_order
from companion.core.journal.thankyou_words import first_person, greeting, topic_in_words
from companion.core.text import clean_text
from companion.core.timeutil import to_stored_utc


@dataclass(frozen=True)
class ThankYou:
    loop_id: int
    to_whom: str
    draft: str
    sent_at: str | None
    due_at: dt.datetime | None = None  # the day view's (companion.core.day.actions.thank_you_due)

    @property
    def sent(self) -> bool:
        return bool(self.sent_at)


def thank_you(db: Database, loop_id: int) -> ThankYou:
    """The note as written; when it is due is the day's rule, not this table's."""
    row = db.execute(
        "SELECT to_whom, draft, sent_at FROM thank_yous WHERE loop_id = ?", [loop_id]
    ).fetchone()
    if row is None:
        return ThankYou(loop_id, "", "", None)
    return ThankYou(loop_id, row[0], row[1], row[2])


def save_thank_you(
    db: Database,
    loop_id: int,
    *,
    to_whom: str | None = None,
    draft: str | None = None,
    sent_at: dt.datetime | None | bool = False,
) -> None:
    """Save the recipient and/or draft; ``sent_at`` a datetime marks it sent, None un-marks,
    False leaves it as it was."""
    if get_loop(db, loop_id) is None:
        raise ValueError(f"Loop {loop_id} does not exist.")
    current = thank_you(db, loop_id)
    values = {
        "to_whom": clean_text(to_whom, "The recipient") if to_whom is not None else current.to_whom,
        "draft": clean_text(draft, "The draft") if draft is not None else current.draft,
        "sent_at": current.sent_at
        if sent_at is False
        else (to_stored_utc(sent_at) if isinstance(sent_at, dt.datetime) else None),
    }
    db.execute(
        "INSERT INTO thank_yous(loop_id, to_whom, draft, sent_at, updated_at) VALUES (?, ?, ?, ?, ?) "
        "ON CONFLICT(loop_id) DO UPDATE SET to_whom = excluded.to_whom, draft = excluded.draft, "
        "sent_at = excluded.sent_at, updated_at = excluded.updated_at",
        [loop_id, values["to_whom"], values["draft"], values["sent_at"], to_stored_utc()],
    )


def specific_topic(
    db: Database, loop_id: int, round_ids: list[int] | None = None, not_topics: tuple = ()
) -> tuple[str, str] | None:
    """One specific thing discussed, for the thank-you, and where it came from: the most
    mentioned topic of what they asked ("topic"), else what went well ("went-well"), else
    a question as it was written down ("question"); never a flub. With ``round_ids``
    only what was written for those rounds counts (the person's own conversation);
    ``not_topics`` (the story pack's behavioural tags, such as "identity") are kinds of
    question, not things discussed."""
    where, params = "loop_id = ?", [loop_id]
    if round_ids is not None:
        if not round_ids:
            return None
        where += f" AND round_id IN ({','.join('?' * len(round_ids))})"
        params += list(round_ids)
    skip = "".join(" AND lower(topic) != ?" for _ in not_topics)
    row = db.execute(
        f"SELECT topic, COUNT(*) AS n FROM asked WHERE {where} AND topic != ''{skip} "
        "GROUP BY lower(topic) ORDER BY n DESC, MIN(id) LIMIT 1",
        params + [t.lower() for t in not_topics],
    ).fetchone()
    if row:
        return row[0], "topic"
    row = db.execute(
        f"SELECT text FROM went_well WHERE {where} ORDER BY id LIMIT 1", params
    ).fetchone()
    if row:
        return _short(row[0]), "went-well"
    row = db.execute(
        f"SELECT question FROM asked WHERE {where} ORDER BY id LIMIT 1", params
    ).fetchone()
    return (_short(row[0]), "question") if row else None


def _short(text: str, limit: int = 90) -> str:
    text = " ".join(text.split()).rstrip("?.!")
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


@dataclass(frozen=True)
class Recipient:
    """The one person the note thanks, as the guide says: the hiring manager, else the
    recruiter; and the rounds they were in (where the note's topic comes from)."""

    name: str  # as the rounds or the user name them; "" when not known
    role: str  # hiring-manager | recruiter | "" (someone the user typed)
    round_ids: tuple[int, ...]


def _rounds_by_start(db: Database, loop_id: int) -> list[tuple[int, str, str]]:
    """(id, interviewer name, role) of the loop's rounds, earliest first. A hiring-manager
    round whose role was left unknown is the hiring manager's."""

    return [
        (r.id, r.interviewer_name, round_role(r.interviewer_role, r.type))
        for r in in_time_order(list_rounds(db, loop_id))
        if r.skipped_at is None
    ]


def _same_person(a: str, b: str) -> bool:
    """'Priya' and 'Priya Raman (hiring manager)' are the same person."""
    a, b = first_person(a).lower().split(), first_person(b).lower().split()
    if not a or not b:
        return False
    return a == b or (len(a) == 1 or len(b) == 1) and a[0] == b[0]


def recipient(db: Database, loop_id: int, to_whom: str = "") -> Recipient:
    """Whom the note thanks: the person typed in "to whom" (its first one), else the
    hiring manager of the loop's rounds, else the recruiter (in none of the rounds)."""
    rounds = _rounds_by_start(db, loop_id)
    typed = first_person(to_whom)
    if typed:
        theirs = tuple(rid for rid, name, _role in rounds if _same_person(name, typed))
        roles = {role for rid, _name, role in rounds if rid in theirs}
        role = HIRING_MANAGER if HIRING_MANAGER in roles else ""
        if not theirs and re.search(r"\brecruit", to_whom, re.I):
            role = "recruiter"
        return Recipient(typed, role, theirs)
    managers = [(rid, name) for rid, name, role in rounds if role == HIRING_MANAGER]
    if managers:
        name = next((n for _rid, n in managers if n), "")
        ids = tuple(rid for rid, n in managers if not name or _same_person(n, name))
        return Recipient(first_person(name), HIRING_MANAGER, ids)
    return Recipient("", "recruiter", ())


def default_recipient(db: Database, loop_id: int) -> str:
    """The one person to thank by name (the guide: the recruiter or the hiring manager):
    the hiring manager's name, or "" when only the recruiter is left (not in the rounds)."""
    return recipient(db, loop_id).name


@dataclass(frozen=True)
class Draft:
    text: str
    to: Recipient
    why: str  # "" when the topic came from the person's round; else why it did not


def compose_thank_you(db: Database, loop_id: int, not_topics: tuple = ()) -> Draft:
    """A one-paragraph note to one person, naming one topic from a round they were in
    (or saying why it cannot); ``not_topics``: see :func:`specific_topic`."""
    loop = get_loop(db, loop_id)
    if loop is None:
        raise ValueError(f"Loop {loop_id} does not exist.")
    to = recipient(db, loop_id, thank_you(db, loop_id).to_whom)
    hello = greeting(to.name)
    role = f"the {loop.role} role" if loop.role else "the role"
    found = specific_topic(db, loop_id, list(to.round_ids), not_topics) if to.round_ids else None
    topic, kind = found or ("", "")
    who = to.name or ("the hiring manager" if to.role == HIRING_MANAGER else "")
    if topic:
        why = ""
    elif to.round_ids:
        why = (
            f"Nothing is written down for {who or 'their'}{'’s' if who else ''} round yet: "
            "capture it, or put in one thing you discussed."
        )
    elif not to.name:
        why = (
            "No hiring manager is named in this loop's rounds, so the note is for the "
            "recruiter, who was in none of them: put in one thing you discussed with them."
        )
    else:
        why = (
            f"{to.name} was in none of this loop's rounds, so no round's topic fits: "
            "put in one thing you discussed with them."
        )
    if kind == "question":  # "Tell me about a conflict": quoted, not "a conversation about Tell…"
        about = f"I especially enjoyed your question, “{topic}”, and the conversation it started."
    elif topic:
        about = (
            f"I especially enjoyed our conversation about {topic_in_words(topic)}; it gave me "
            "a clear picture of the problems the team is working on."
        )
    else:
        about = "I especially enjoyed our conversation about [one specific topic you discussed]."
    text = (
        f"{hello}\n\nThank you for taking the time to talk with me about {role} at "
        f"{loop.company}. {about} It left me even more excited about the chance to join, and "
        "I would be glad to follow up on anything that would help.\n\nBest regards,"
    )
    return Draft(text, to, why)
