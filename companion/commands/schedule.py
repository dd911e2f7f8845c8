"""`companion schedule import FILE.ics`: the recruiter's invitation becomes a loop."""

from __future__ import annotations

import contextlib
from pathlib import Path

from companion.commands.common import CommandError, open_journal, say
from companion.commands.stdio import STDIN_NAME, as_given, is_stdio, stdin_file
from companion.core.content.stories import story_pack
from companion.core.day.invitation import import_invitation
from companion.core.day.invite_people import my_address, remember_my_address
from companion.core.day.rules import day_rules
from companion.core.stories.rounds import prefill_missing

#: what `schedule import --help` and the README's section on it both say
#: (tests/test_cli_usage.py compares them)
DOCUMENTED = {
    "companion schedule import": (
        "updates",
        "moves",
        "cancel",
        "company",
        "guess",
        "--company",
        "exit status",
        "standard input",
    )
}


def register(parser) -> None:
    inner = parser.add_subparsers(dest="schedule_command", metavar="ACTION", required=True)
    imp = inner.add_parser(
        "import",
        help="make a loop with its rounds from an .ics invitation",
        description="Each timed event becomes a round, its type guessed from the title. "
        "The company is --company, else guessed from a title part that names one, else "
        "from the organizer's mail domain (not a mail provider); the output says it was "
        "guessed and from where, and a title with nothing usable asks for --company. "
        "Updates: a later copy of an event (the same UID, a higher SEQUENCE) moves or "
        "updates its round, and the reminders follow; a cancellation (METHOD:CANCEL or "
        "STATUS:CANCELLED) skips it. A series (RRULE) is one round at its first "
        "occurrence; the change or cancellation of one occurrence (RECURRENCE-ID) touches "
        "that one only, and EXDATE is honoured. Importing the same file twice changes "
        "nothing. Exit status: 0 when any event went in (added, already there, moved or "
        "cancelled), 1 when none could, 2 for a usage error; each event not imported is "
        "named on its own line.",
    )
    imp.add_argument(
        "file", type=Path, metavar="FILE.ics", help="the invitation; - for standard input"
    )
    imp.add_argument(
        "--company",
        metavar="NAME",
        help="the company (default: guessed from the titles, else the organizer's mail "
        "domain); on a file imported before, renames its loop",
    )
    imp.add_argument("--role", default="", help="the role you interview for")
    imp.add_argument(
        "--me",
        metavar="ADDRESS",
        help="your own e-mail address in the invitations (kept for next time): the other "
        "attendees are then named as the interviewers",
    )
    imp.set_defaults(func=run_import)


def run_import(args, ctx) -> int:
    """Exit 0 when any event went in (added, already there, moved or cancelled), 1 when
    none could; each event not imported is named on its own line."""

    open_journal(ctx)
    me = (args.me or "").strip().lower()
    if me and "@" not in me:
        raise CommandError(f"--me {args.me!r} is not an e-mail address (like sam@example.com).", 2)
    if me and me != my_address(ctx.settings):
        remember_my_address(ctx.settings, me)
    with contextlib.ExitStack() as stack:
        path = args.file.expanduser()
        if is_stdio(args.file):
            path = stack.enter_context(stdin_file("calendar", STDIN_NAME))
        try:
            result = import_invitation(
                ctx.db,
                path,
                day_rules(ctx.content),
                company=args.company,
                role=args.role,
                me=me or my_address(ctx.settings),
                now=ctx.now(),
            )
        except ValueError as exc:
            raise CommandError(as_given(str(exc), path, args.file)) from None

    prefill_missing(ctx.db, story_pack(ctx.content), ctx.now())  # the rounds' expected topics
    for message in result.messages:
        say(f"note: {message}")
    if result.unsure:  # asked once: the GUI asks in a dialog, here the option says it
        say(
            f"note: several people are invited ({', '.join(result.unsure[:6])}); say which "
            "address is yours with --me ADDRESS (kept for next time) and import again to "
            "name the interviewers."
        )
    say(result.summary)
    return 0
