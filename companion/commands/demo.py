"""`companion demo --loops N --data-dir DIR`: fill a data folder with synthetic loops."""

from __future__ import annotations

from companion.commands.common import CommandError, open_journal, say
from companion.core.journal.demo import generate
from companion.core.text import count_of


def register(sub) -> None:
    parser = sub.add_parser(
        "demo", help="fill the data folder with realistic synthetic loops (screenshots, benchmarks)"
    )
    parser.add_argument("--loops", type=int, default=20, metavar="N", help="default: 20")
    parser.add_argument("--seed", type=int, default=7, help="random seed (default: 7)")
    parser.set_defaults(func=run)


def run(args, ctx) -> int:
    if args.loops < 0 or args.loops > 1_000_000:
        raise CommandError("--loops must be between 0 and 1,000,000", exit_code=2)

    open_journal(ctx)
    summary = generate(ctx.db, args.loops, seed=args.seed, today=ctx.now().date())
    say(
        f"Added {count_of(summary.loops, 'loop')}, {count_of(summary.rounds, 'round')} and "
        f"{count_of(summary.journal_rows, 'journal row')} to {ctx.data_dir}."
    )
    return 0
