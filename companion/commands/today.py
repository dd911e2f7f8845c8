"""`companion today [--at ISO-8601] [--json]`: the day model, for scripts and status bars."""

from __future__ import annotations

import datetime as dt
import json

from companion.commands.common import open_journal, parse_moment, say
from companion.core.day.actions import load_view
from companion.core.day.model import reminders_to_send
from companion.core.day.notices import notice_for
from companion.core.day.rules import day_rules
from companion.core.day.schedule import clock_text


def register(parser) -> None:
    parser.description = (
        "Print the day as the app sees it: the phase (night-before, morning-of, "
        "before-round, in-round, between-rounds, after-loop or none), the current and next "
        "round, and what is due by when."
    )
    parser.add_argument(
        "--at",
        metavar="ISO-8601",
        help="evaluate the day at this moment (e.g. 2026-12-01T09:50); a time without a "
        "zone is this machine's local time on that date; default: now",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(func=run)


def run(args, ctx) -> int:
    now = parse_moment(args.at) if args.at is not None else ctx.now()  # '' is no time
    open_journal(ctx)
    view = load_view(ctx.db, day_rules(ctx.content), now)  # every loop's rounds
    if args.json:
        say(json.dumps(as_json(view), indent=2), data=True)
    else:
        say(as_text(view))
    return 0


def _stamp(moment: dt.datetime | None, now: dt.datetime | None = None) -> str | None:
    """ISO 8601 in local time (``now``'s zone), whatever zone the invitation was in."""
    if moment is None:
        return None
    return (moment.astimezone(now.tzinfo) if now else moment).isoformat(timespec="seconds")


def upcoming(view) -> list:
    """What is still to come: a reminder whose time has passed is not listed as due."""
    return [d for d in view.due if d.due_at > view.now and d.expires_at > view.now]


def said_then(d, view) -> str:
    """A reminder to come in the words it will go out with at its time."""
    return notice_for(d, view, at=d.due_at).title


def open_thank_yous(view) -> list:
    """(loop, due by) of each loop that is over whose thank-you is still in its window
    (as Today lists them; a week on, last week's loops are not)."""
    return [(lp, by) for lp, by in view.thank_yous if view.thank_you_open(lp.id)]


def due_now(view) -> list[tuple[object, str]]:
    """What is due at this moment, with its words now (the newest step of each round's
    reminders, saying the real time left, as the desktop notification does); the older
    steps it supersedes are not listed."""

    return [(d, notice_for(d, view).title) for d in reminders_to_send(view, frozenset())]


def _round(d, now: dt.datetime) -> dict | None:
    if d is None:
        return None
    return {
        "id": d.id,
        "loop_id": d.round.loop_id,
        "company": d.company or None,
        "type": d.type,
        "title": d.title,
        "state": d.state,
        "starts_at": _stamp(d.starts_at, now),
        "ends_at": _stamp(d.ends_at, now),
        "interviewer": d.interviewer,
        "link": d.link,
    }


def as_json(view) -> dict:
    now = view.now
    return {
        "at": _stamp(view.now),
        "loop": (
            {"id": view.loop.id, "company": view.loop.company, "role": view.loop.role}
            if view.loop
            else None
        ),
        "loops": [{"id": lp.id, "company": lp.company, "role": lp.role} for lp in view.loops],
        "phase": view.phase,
        "current_round": _round(view.current, now),
        "next_round": _round(view.next, now),
        "rounds": [_round(d, now) for d in view.rounds],
        "due": [
            {
                "kind": d.kind,
                "text": f"{said_then(d, view)}: {d.text}",
                "due_at": _stamp(d.due_at, now),
            }
            for d in upcoming(view)
        ],
        "now": [
            {"kind": d.kind, "text": f"{title}: {d.text}", "due_at": _stamp(d.due_at, now)}
            for d, title in due_now(view)
        ],
        "capture_due_by": _stamp(view.capture_due_by, now),
        "thank_you_due_by": _stamp(view.thank_you_due_by, now),
        "thank_yous": [
            {"loop_id": lp.id, "company": lp.company, "due_by": _stamp(by, now)}
            for lp, by in open_thank_yous(view)
        ],
        "next_change": _stamp(view.next_change, now),
    }


def as_text(view) -> str:
    """The day in lines, every time on this machine's clock (as the app shows it)."""

    if view.loop is None:
        return "No interview loop yet: add one in the app or `companion schedule import FILE.ics`."
    now = view.now

    def when(moment: dt.datetime) -> str:  # 14:00 today, else "Thu 3 Dec 14:00"
        return clock_text(moment, now)

    def who(d) -> str:  # "Coding round with Marcus Weber", as the card says it
        return f"{d.title} with {d.interviewer}" if d.interviewer else d.title

    shown = view.open_loops() or [view.loop]  # every loop still open, as Today's title
    lines = [" + ".join(lp.label for lp in shown), f"phase: {view.phase}"]
    if view.current:
        lines.append(f"now: {who(view.current)} (until {when(view.current.ends_at)})")
    if view.next:
        lines.append(f"next: {who(view.next)} at {when(view.next.starts_at)}")
    focus = view.focus
    if focus is not None and focus.link:
        lines.append(f"call: {focus.link}")
    for _d, title in due_now(view):
        lines.append(f"due now: {title}")
    for d in upcoming(view)[:8]:
        lines.append(f"due {when(d.due_at)}: {said_then(d, view)}")
    if view.capture_due_by:
        lines.append(f"write down what was asked by {when(view.capture_due_by)}")
    for loop, by in open_thank_yous(view):
        lines.append(f"thank-you note to {loop.company} by {when(by)}")
    return "\n".join(lines)
