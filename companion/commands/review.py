"""`companion review [--at ISO-8601] [--json] [--limit N]`: what to review now, ranked by
predicted recall at the next loop's first round (lowest first)."""

from __future__ import annotations

import datetime as dt
import json

from companion.commands import review_ahead, whole_number
from companion.commands.common import CommandError, open_journal, parse_moment, say
from companion.core.review.queue import review_list
from companion.core.text import count_of


def register(parser) -> None:
    parser.description = (
        "List the quiz questions and study topics to review now: those due, and "
        "before a loop everything due by its first round, each with its due time and its "
        "predicted recall at that round (FSRS), lowest first."
    )
    parser.add_argument(
        "--at",
        metavar="ISO-8601",
        help="list as of this moment (e.g. 2026-12-01T20:00); a time without a zone is "
        "this machine's local time on that date; default: now",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument(
        "--limit",
        type=whole_number(1, what="a count of items"),
        metavar="N",
        help="at most N items",
    )
    parser.add_argument(
        "--ahead",
        type=review_ahead.minutes,
        metavar="MINUTES",
        help="a review pass that fits in MINUTES, most recall gained at the round first",
    )
    parser.set_defaults(func=run)


def run(args, ctx) -> int:
    now = parse_moment(args.at) if args.at else ctx.now()
    if getattr(args, "ahead", None):
        return review_ahead.run(args, ctx, now)
    open_journal(ctx)
    try:
        listed = review_list(ctx.db, now, limit=args.limit, questions=ctx.content.quiz())
    except ValueError as exc:  # a stored row the scheduler cannot read
        raise CommandError(f"cannot list the reviews: {exc}") from None
    say(
        json.dumps(as_json(listed, now), indent=2) if args.json else as_text(listed, now),
        data=args.json,
    )
    return 0


def _stamp(moment: dt.datetime | None) -> str | None:
    return moment.isoformat(timespec="seconds") if moment else None


def _local(moment: dt.datetime | None, at: dt.datetime) -> dt.datetime | None:
    """``moment`` on this machine's clock (``at``'s zone), not the invitation's."""
    return moment.astimezone(at.tzinfo) if moment else None


def as_json(listed, now: dt.datetime | None = None) -> dict:
    """Every time on this machine's clock (``now``'s zone), as the app shows it."""
    here = now or listed.at
    return {
        "next_round_at": _stamp(_local(listed.next_round_at, here)),
        "items": [
            {
                "kind": item.kind,
                "id": item.id,
                "title": item.title,
                "recall_at_round": item.recall_at_round,
                "due": _stamp(item.due.astimezone(here.tzinfo)),
                "new": item.new,
            }
            for item in listed.items
        ],
    }


def as_text(listed, now: dt.datetime | None = None) -> str:
    if listed.next_round_at:
        first = _local(listed.next_round_at, now or listed.at)
        head = f"Review before the loop (first round {first:%a %d %b %H:%M})"
    else:
        head = "Review now (no loop starts ahead)"  # one may be under way
    if not listed.items:
        return f"{head}: nothing to review."
    lines = [f"{head}: {count_of(len(listed.items), 'item')}, {listed.due_now} due now"]
    for item in listed.items:
        due = item.due.astimezone(listed.at.tzinfo)
        flag = " (flagged)" if item.flagged else " (new)" if item.new else ""
        lines.append(
            f"{item.recall_at_round:4.0%}  {item.kind:5}  due {due:%a %d %b %H:%M}  "
            f"{item.title}{flag}"
        )
    return "\n".join(lines)
