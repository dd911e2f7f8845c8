"""`companion journal export|import --format json FILE`: the whole journal, round-trip."""

from __future__ import annotations

from pathlib import Path

from companion.commands.common import CommandError, open_journal, say
from companion.commands.stdio import (
    STDIN_NAME,
    is_stdio,
    named,
    output_target,
    report,
    stdin_file,
)
from companion.core.journal.files import export_journal
from companion.core.journal.importer import import_checked
from companion.core.journal.validate import JournalImportError, read_journal
from companion.core.text import count_of

#: what each command's --help and the README's section on it both say
#: (tests/test_cli_usage.py compares them)
DOCUMENTED = {
    "companion journal export": ("-o", "standard output", "json"),
    "companion journal import": ("checked", "all", "twice adds nothing", "standard input"),
}


def register(parser) -> None:
    inner = parser.add_subparsers(dest="journal_command", metavar="ACTION", required=True)
    exp = inner.add_parser(
        "export",
        help="write the whole journal to a JSON file",
        description="Write the whole journal (loops, entries, stories, review cards and "
        "their log, takes) as JSON, format interview-companion-journal v1. -o - writes it "
        "to standard output, and the line that says what was written goes to standard "
        "error.",
    )
    exp.add_argument(
        "--format", "-f", choices=("json",), default="json", help="json (the only one)"
    )
    exp.add_argument(
        "-o", "--output", metavar="FILE", help="the file to write; - for standard output"
    )
    exp.add_argument("file", nargs="?", help="the file to write (or use -o)")
    exp.set_defaults(func=run_export)
    imp = inner.add_parser(
        "import",
        help="add a journal JSON export to this journal",
        description="Add journal exports to this journal. Every file is checked first, "
        "then all are added in one transaction, or none; a bad file changes nothing and "
        "the error names the place. Importing the same file twice adds nothing. - reads "
        "standard input.",
    )
    imp.add_argument(
        "--format", "-f", choices=("json",), default="json", help="json (the only one)"
    )
    imp.add_argument(
        "-i", "--input", type=Path, metavar="FILE", help="the file to read; - for standard input"
    )
    imp.add_argument(
        "file",
        nargs="*",
        type=Path,
        help="the files to read (or use -i); all or none; - for standard input",
    )
    imp.set_defaults(func=run_import)


def run_export(args, ctx) -> int:
    if args.output is not None and args.file is not None:  # one of them would be ignored
        raise CommandError(
            f"journal export: {args.file} is one file too many: the journal goes to "
            f"-o {args.output}",
            exit_code=2,
        )
    out = args.output if args.output is not None else args.file
    if out is None:
        raise CommandError(
            "journal export: say where to write the journal: -o FILE (- for standard "
            "output); see companion journal export --help",
            exit_code=2,
        )
    with output_target(out, "journal.json", data_dir=ctx.data_dir) as (path, name):
        open_journal(ctx, read_only=True)
        count = export_journal(ctx.db, path, ctx.now())
    report(f"Wrote {count_of(count, 'loop')} to {name}.", out)
    return 0


def run_import(args, ctx) -> int:
    """Every file is checked first; then all are added in one transaction, so a bad file
    among several imports nothing."""

    sources = ([args.input] if args.input is not None else []) + list(args.file or [])
    if not sources:
        raise CommandError("say which file to import: -i FILE", exit_code=2)
    if sum(is_stdio(src) for src in sources) > 1:
        raise CommandError("standard input (-) can be read once; name it once", exit_code=2)
    try:
        docs = [(src, _read(src, ctx.now())) for src in sources]
    except JournalImportError as exc:
        raise CommandError(f"{exc} Nothing was imported.") from None
    open_journal(ctx)
    reports = []
    with ctx.db.atomic():
        for src, data in docs:
            try:
                reports.append((src, import_checked(ctx.db, data)))
            except JournalImportError as exc:
                raise CommandError(f"{src}: {exc} Nothing was imported.") from None
    for src, done in reports:
        name = f"{STDIN_NAME if is_stdio(src) else src}: " if len(reports) > 1 else ""
        say(f"{name}{done.summary()}")
        for line in done.warnings():
            say(f"{name}{line}", err=True)
    return 0


def _read(src: Path, now):
    """The checked journal of ``src``; ``-`` is standard input."""
    if not is_stdio(src):
        return read_journal(src.expanduser(), now)
    with stdin_file("journal", "journal.json") as path:
        try:
            return read_journal(path, now)
        except JournalImportError as exc:
            raise JournalImportError(named(str(exc), path)) from None
