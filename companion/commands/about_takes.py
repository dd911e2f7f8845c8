"""`companion about takes [--json] [--delete ID]`: the rehearsal takes you kept with
`companion about rehearse --keep` (their figures, never audio), oldest first."""

from __future__ import annotations

import json

from companion.commands import whole_number
from companion.commands.common import CommandError, open_journal, say
from companion.core.about.takes import delete_take, figures_of, keep_take, list_takes, what_changed


def add_parser(inner) -> None:
    takes = inner.add_parser(
        "takes", help="the rehearsal takes kept (figures only), oldest first; delete one"
    )
    takes.add_argument("--json", action="store_true", help='print {"takes": [...]}')
    takes.add_argument(
        "--delete",
        type=whole_number(1, what="a take id"),
        metavar="ID",
        help="delete the take with this id",
    )
    takes.set_defaults(func=run_takes)


def keep(ctx, result, figures: dict) -> int:
    """Keep a take's figures (``companion about rehearse --keep``); returns its id."""

    open_journal(ctx)
    with ctx.db.atomic():
        return keep_take(ctx.db, figures_of(result, figures), ctx.now())


def run_takes(args, ctx) -> int:
    open_journal(ctx)
    if args.delete is not None:
        if not delete_take(ctx.db, args.delete):
            raise CommandError(f"about takes: no kept take has id {args.delete}")
        say(f"deleted take {args.delete}")
        return 0
    takes = list_takes(ctx.db)
    if args.json:
        say(json.dumps({"takes": takes}, indent=2), data=True)
        return 0
    if not takes:
        say("No takes kept yet: `companion about rehearse --audio FILE --keep` keeps one.")
        return 0
    for take in takes:
        wpm = take.get("measured_wpm")
        say(
            f"{take['id']:4}  {take['at']}  {take.get('seconds') or 0:5.1f} s  "
            f"{'-' if wpm is None else f'{wpm:.0f}'} wpm  {take.get('fillers', 0)} fillers  "
            f"{len(take.get('skipped') or [])} skipped"
        )
    if len(takes) > 1:
        say(what_changed(takes[-2], takes[-1]))
    return 0
