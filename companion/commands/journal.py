"""`companion journal export|import --format json FILE`: the whole journal, round-trip."""

from __future__ import annotations

from pathlib import Path

from companion.commands.common import CommandError, open_journal, output_path, say
from companion.core.journal.files import export_journal
from companion.core.journal.importer import import_checked
from companion.core.journal.validate import JournalImportError, read_journal
from companion.core.text import count_of


def register(sub) -> None:
    parser = sub.add_parser("journal", help="export or import the whole journal (JSON)")
    inner = parser.add_subparsers(dest="journal_command", metavar="ACTION", required=True)
    exp = inner.add_parser("export", help="write the whole journal to a JSON file")
    exp.add_argument("--format", "-f", choices=("json",), default="json")
    exp.add_argument("-o", "--output", metavar="FILE", help="the file to write")
    exp.add_argument("file", nargs="?", help="the file to write (or use -o)")
    exp.set_defaults(func=run_export)
    imp = inner.add_parser("import", help="add a journal JSON export to this journal")
    imp.add_argument("--format", "-f", choices=("json",), default="json")
    imp.add_argument("-i", "--input", type=Path, metavar="FILE", help="the file to read")
    imp.add_argument(
        "file", nargs="*", type=Path, help="the files to read (or use -i); all or none"
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
            "journal export: say where to write the journal: -o FILE; "
            "see companion journal export --help",
            exit_code=2,
        )
    out = output_path(out, data_dir=ctx.data_dir)
    open_journal(ctx, read_only=True)
    try:
        count = export_journal(ctx.db, out, ctx.now())
    except OSError as exc:
        raise CommandError(f"cannot write {out}: {exc.strerror or exc}") from None
    say(f"Wrote {count_of(count, 'loop')} to {out}.")
    return 0


def run_import(args, ctx) -> int:
    """Every file is checked first; then all are added in one transaction, so a bad file
    among several imports nothing."""

    sources = ([args.input] if args.input is not None else []) + list(args.file or [])
    if not sources:
        raise CommandError("say which file to import: -i FILE", exit_code=2)
    try:
        docs = [(src, read_journal(src.expanduser(), ctx.now())) for src in sources]
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
    for src, report in reports:
        name = f"{src}: " if len(reports) > 1 else ""
        say(f"{name}{report.summary()}")
        for line in report.warnings():
            say(f"{name}{line}", err=True)
    return 0
