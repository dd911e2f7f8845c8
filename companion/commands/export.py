"""`companion export study-list --format md|csv|anki|json -o FILE`."""

from __future__ import annotations

from companion.commands.common import open_journal
from companion.commands.stdio import add_output, is_stdio, output_target, report
from companion.core.study.exports import FORMATS, export_study_list, format_for
from companion.core.study.ranking import GuideIndex
from companion.core.text import count_of

#: what `export study-list --help` and the README's section on it both say
#: (tests/test_cli_usage.py compares them)
DOCUMENTED = {"companion export study-list": (*FORMATS, "standard output")}


def register(parser) -> None:
    inner = parser.add_subparsers(dest="export_what", metavar="WHAT", required=True)
    study = inner.add_parser(
        "study-list",
        help="the ranked study list",
        description="Write the ranked study list as a Markdown checklist (md), a CSV safe "
        "to open in a spreadsheet (csv), an Anki import file (anki) or JSON (json). -o - "
        "writes it to standard output (Markdown unless --format says otherwise), and the "
        "line that says what was written goes to standard error.",
    )
    study.add_argument(
        "--format",
        "-f",
        choices=FORMATS,
        help="default: from the file's suffix (.csv, .json, .tsv or .txt for Anki), else md",
    )
    add_output(study)
    study.set_defaults(func=run)


def run(args, ctx) -> int:
    from pathlib import Path

    suffix = "" if is_stdio(args.output) else Path(args.output).suffix.lower()
    fmt = args.format or format_for(suffix)
    with output_target(args.output, f"study-list.{fmt}", data_dir=ctx.data_dir) as (out, name):
        open_journal(ctx, read_only=True)
        count = export_study_list(ctx.db, fmt, out, ctx.now(), guide=GuideIndex(ctx.content))
    report(f"Wrote {count_of(count, 'topic')} to {name} ({fmt}).", args.output)
    return 0
