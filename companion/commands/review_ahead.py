"""`companion review --ahead MINUTES [--json]`: a review pass sized to the minutes left,
the cards that gain the most recall at the next round per minute, lowest recall first."""

from __future__ import annotations

import argparse
import json

from companion.commands.common import CommandError, open_journal, say
from companion.core.review.ahead import review_ahead
from companion.core.text import count_of
from companion.core.timeutil import to_local


def minutes(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = 0.0
    if not 0 < value <= 24 * 60:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of minutes above 0")
    return value


def run(args, ctx, now) -> int:
    open_journal(ctx)
    try:
        ahead = review_ahead(ctx.db, now, args.ahead)
    except ValueError as exc:  # a stored row the scheduler cannot read
        raise CommandError(f"cannot plan the review pass: {exc}") from None
    zone = to_local(now).tzinfo  # each date at its own offset
    say(
        json.dumps(as_json(ahead, zone), indent=2) if args.json else as_text(ahead, zone),
        data=args.json,
    )
    return 0


def _stamp(moment, zone) -> str | None:
    return moment.astimezone(zone).isoformat(timespec="seconds") if moment else None


def as_json(ahead, zone) -> dict:
    return {
        "minutes": ahead.minutes,
        "estimated_minutes": ahead.estimated_minutes,
        "round_at": _stamp(ahead.round_at, zone),
        "items": [
            {
                "kind": i.kind,
                "id": i.id,
                "title": i.title,
                "recall_at_round": i.recall_at_round,
                "recall_if_reviewed": i.recall_if_reviewed,
                "minutes": i.minutes,
                "due_if_reviewed": _stamp(i.due_if_reviewed, zone),
            }
            for i in ahead.items
        ],
    }


def as_text(ahead, zone) -> str:
    head = f"Review for {ahead.minutes:g} minutes"
    if ahead.round_at:
        head += f" before the round at {ahead.round_at.astimezone(zone):%a %d %b %H:%M}"
    if not ahead.items:
        return f"{head}: nothing to gain by reviewing now."
    lines = [f"{head}: {count_of(len(ahead.items), 'card')}, about {ahead.estimated_minutes:g} min"]
    for i in ahead.items:
        lines.append(
            f"{i.recall_at_round:4.0%} -> {i.recall_if_reviewed:4.0%}  {i.kind:5}  "
            f"{i.minutes:g} min  {i.title}"
        )
    return "\n".join(lines)
