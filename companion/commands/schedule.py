"""`companion schedule import FILE.ics`: the recruiter's invitation becomes a loop."""

from __future__ import annotations

from pathlib import Path

from companion.commands.common import CommandError, open_journal


def register(sub) -> None:
    parser = sub.add_parser("schedule", help="import a calendar invitation as a loop")
    inner = parser.add_subparsers(dest="schedule_command", metavar="ACTION", required=True)
    imp = inner.add_parser(
        "import",
        help="make a loop with its rounds from an .ics invitation",
        description="Each timed event becomes a round, its type guessed from the title. "
        "Importing the same file twice adds nothing.",
    )
    imp.add_argument("file", type=Path, metavar="FILE.ics", help="the invitation")
    imp.add_argument("--company", help="the company (default: from the events' titles)")
    imp.add_argument("--role", default="", help="the role you interview for")
    imp.set_defaults(func=run_import)


def run_import(args, ctx) -> int:
    from companion.core.day.invitation import import_invitation
    from companion.core.day.rules import day_rules

    open_journal(ctx)
    try:
        result = import_invitation(
            ctx.db,
            args.file.expanduser(),
            day_rules(ctx.content),
            company=args.company,
            role=args.role,
        )
    except ValueError as exc:
        raise CommandError(str(exc)) from None
    from companion.core.stories.pack import story_pack
    from companion.core.stories.rounds import prefill_missing

    prefill_missing(ctx.db, story_pack(ctx.content), ctx.now())  # the rounds' expected topics
    for message in result.messages:
        print(f"note: {message}")
    print(result.summary)
    return 0
