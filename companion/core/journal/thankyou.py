"""Thank-you notes after a loop: the recipient, a draft filled from the notes, sent or not."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from sqlite_utils import Database

from companion.core.day.loops import get_loop
from companion.core.journal.thankyou_words import greeting, topic_in_words
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


def mark_thank_you_sent(db: Database, loop_id: int, at: dt.datetime) -> None:
    save_thank_you(db, loop_id, sent_at=at)


def specific_topic(db: Database, loop_id: int) -> str | None:
    """One specific thing discussed in the loop, for the thank-you: the most mentioned
    topic of what they asked, else what went well, else a question (never a flub)."""
    row = db.execute(
        "SELECT topic, COUNT(*) AS n FROM asked WHERE loop_id = ? AND topic != '' "
        "GROUP BY lower(topic) ORDER BY n DESC, MIN(id) LIMIT 1",
        [loop_id],
    ).fetchone()
    if row:
        return row[0]
    row = db.execute(
        "SELECT text FROM went_well WHERE loop_id = ? ORDER BY id LIMIT 1", [loop_id]
    ).fetchone()
    if row:
        return _short(row[0])
    row = db.execute(
        "SELECT question FROM asked WHERE loop_id = ? ORDER BY id LIMIT 1", [loop_id]
    ).fetchone()
    return _short(row[0]) if row else None


def _short(text: str, limit: int = 90) -> str:
    text = " ".join(text.split()).rstrip("?.!")
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def default_recipient(db: Database, loop_id: int) -> str:
    """The interviewers by name, the hiring manager first (the guide: thank the recruiter
    or the hiring manager)."""
    rows = db.execute(
        "SELECT interviewer_name, interviewer_role FROM rounds WHERE loop_id = ? "
        "AND interviewer_name != '' ORDER BY id",
        [loop_id],
    ).fetchall()
    ordered = sorted(rows, key=lambda r: r[1] != "hiring-manager")  # stable: else by id
    return ", ".join(dict.fromkeys(r[0] for r in ordered))


def draft_thank_you(db: Database, loop_id: int) -> str:
    """A one-paragraph thank-you filled from the notes, naming one specific topic."""
    loop = get_loop(db, loop_id)
    if loop is None:
        raise ValueError(f"Loop {loop_id} does not exist.")
    who = thank_you(db, loop_id).to_whom or default_recipient(db, loop_id)
    hello = greeting(who)
    role = f"the {loop.role} role" if loop.role else "the role"
    topic = specific_topic(db, loop_id)
    topic = topic_in_words(topic) if topic else topic
    about = (
        f"I especially enjoyed our conversation about {topic}; it gave me a clear picture "
        "of the problems the team is working on."
        if topic
        else "I especially enjoyed our conversation about [one specific topic you discussed]."
    )
    return (
        f"{hello}\n\nThank you for taking the time to talk with me about {role} at "
        f"{loop.company}. {about} It left me even more excited about the chance to join, and "
        "I would be glad to follow up on anything that would help.\n\nBest regards,"
    )
