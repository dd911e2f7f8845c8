"""`companion debrief [--loop ID] [--json]`: per round and per loop, the topics asked
against those expected, and the prep recall (asked and expected, over asked)."""

from __future__ import annotations

import json

from companion.commands import whole_number
from companion.commands.common import CommandError, open_journal, say
from companion.core.day.loops import type_names
from companion.core.stories.debrief import all_debriefs, loop_debrief

loop_id = whole_number(1, what="a loop id")


def register(parser) -> None:
    parser.description = (
        "For each loop (or one), each round's expected topics, the #topics "
        "asked, the hits (asked and expected) and misses (asked, not expected), and the "
        "recall: hits over asked, null when nothing was asked."
    )
    parser.add_argument("--loop", type=loop_id, metavar="ID", help="only this loop")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(func=run)


def _percent(value: float | None) -> str:
    return "-" if value is None else f"{value:.0%}"


def run(args, ctx) -> int:
    import sqlite3

    open_journal(ctx, read_only=True)
    try:
        if args.loop is not None:
            one = loop_debrief(ctx.db, args.loop)
            if one is None:
                raise CommandError(f"debrief: there is no loop {args.loop}")
            loops = [one]
        else:
            loops = all_debriefs(ctx.db)
    except sqlite3.OperationalError:
        raise CommandError(
            "debrief: this journal predates expected topics; start the app once to upgrade it"
        ) from None
    if args.json:
        say(
            json.dumps({"loops": [d.as_json() for d in loops]}, ensure_ascii=False, indent=2),
            data=True,
        )
        return 0
    if not loops:
        say("No loops yet.")
    # the text names rounds as Today does; --json keeps the ids
    names = type_names(ctx.db, ctx.content.round_titles())
    for loop in loops:
        say(f"{loop.company} (loop {loop.id}): prep recall {_percent(loop.recall)}")
        for r in loop.rounds:
            say(f"  round {r.id} {names.get(r.type) or r.type}: recall {_percent(r.recall)}")
            say(f"    expected and asked: {', '.join(r.hits) or '-'}")
            say(f"    asked, not expected: {', '.join(r.misses) or '-'}")
            say(f"    expected, not asked: {', '.join(r.unasked) or '-'}")
            if r.stories:
                say(f"    stories told: {', '.join(r.stories)}")
    return 0
