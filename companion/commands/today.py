"""`companion today [--at ISO-8601] [--json]`: the day model, for scripts and status bars."""

from __future__ import annotations

import datetime as dt
import json

from companion.commands.common import CommandError, open_journal
from companion.core.timeutil import parse_stored


def register(sub) -> None:
    parser = sub.add_parser(
        "today",
        help="the phase of the day, the current and next round, and what is due",
        description="Print the day as the app sees it: the phase (night-before, morning-of, "
        "before-round, in-round, between-rounds, after-loop or none), the current and next "
        "round, and what is due by when.",
    )
    parser.add_argument(
        "--at",
        metavar="ISO-8601",
        help="evaluate the day at this moment (e.g. 2026-12-01T09:50); default: now",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(func=run)


def parse_moment(text: str) -> dt.datetime:
    """``--at`` read by the rule for stored times (no zone: local time)."""
    moment = parse_stored(text.strip())
    if moment is None:
        raise CommandError(
            f"--at {text!r} is not an ISO-8601 time, e.g. 2026-12-01T09:50", exit_code=2
        )
    return moment


def run(args, ctx) -> int:
    from companion.core.day.actions import followed_loop, load_view
    from companion.core.day.rules import day_rules

    now = parse_moment(args.at) if args.at else ctx.now()
    open_journal(ctx)
    view = load_view(ctx.db, day_rules(ctx.content), now, followed_loop(ctx.prefs))
    if args.json:
        print(json.dumps(as_json(view), indent=2))
    else:
        print(as_text(view))
    return 0


def _stamp(moment: dt.datetime | None) -> str | None:
    return moment.isoformat(timespec="seconds") if moment else None


def _round(d) -> dict | None:
    if d is None:
        return None
    return {
        "id": d.id,
        "type": d.type,
        "title": d.title,
        "state": d.state,
        "starts_at": _stamp(d.starts_at),
        "ends_at": _stamp(d.ends_at),
    }


def as_json(view) -> dict:
    return {
        "at": _stamp(view.now),
        "loop": (
            {"id": view.loop.id, "company": view.loop.company, "role": view.loop.role}
            if view.loop
            else None
        ),
        "phase": view.phase,
        "current_round": _round(view.current),
        "next_round": _round(view.next),
        "rounds": [_round(d) for d in view.rounds],
        "due": [
            {"kind": d.kind, "text": f"{d.title}: {d.text}", "due_at": _stamp(d.due_at)}
            for d in view.due
            if d.expires_at > view.now
        ],
        "capture_due_by": _stamp(view.capture_due_by),
        "thank_you_due_by": _stamp(view.thank_you_due_by),
        "next_change": _stamp(view.next_change),
    }


def as_text(view) -> str:
    if view.loop is None:
        return "No interview loop yet: add one in the app or `companion schedule import FILE.ics`."
    lines = [f"{view.loop.label}", f"phase: {view.phase}"]
    if view.current:
        lines.append(f"now: {view.current.title} (until {view.current.ends_at:%H:%M})")
    if view.next:
        lines.append(f"next: {view.next.title} at {view.next.starts_at:%a %d %b %H:%M}")
    pending = [d for d in view.due if d.expires_at > view.now]
    for d in pending[:8]:
        lines.append(f"due {d.due_at:%a %H:%M}: {d.title}")
    if view.capture_due_by:
        lines.append(f"write down what was asked by {view.capture_due_by:%H:%M}")
    if view.thank_you_due_by:
        lines.append(f"thank-you note by {view.thank_you_due_by:%a %d %b %H:%M}")
    return "\n".join(lines)
