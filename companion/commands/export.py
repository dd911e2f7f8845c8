"""`companion export study-list --format md|csv|anki|json -o FILE`."""

from __future__ import annotations

from companion.commands.common import CommandError, open_journal, output_path, say
from companion.core.study.exports import export_study_list
from companion.core.study.ranking import GuideIndex
from companion.core.text import count_of

FORMATS = ("md", "csv", "anki", "json")
# without --format, the file's suffix says it: `-o x.csv` is a CSV (with its formula
# guard), never Markdown under a .csv name; any other suffix is Markdown, the default
SUFFIXES = {".csv": "csv", ".json": "json", ".tsv": "anki", ".txt": "anki"}


def register(sub) -> None:
    parser = sub.add_parser("export", help="export the study list (Markdown, CSV, Anki, JSON)")
    inner = parser.add_subparsers(dest="export_what", metavar="WHAT", required=True)
    study = inner.add_parser("study-list", help="the ranked study list")
    study.add_argument(
        "--format",
        "-f",
        choices=FORMATS,
        help="default: from the file's suffix (.csv, .json, .tsv or .txt for Anki), else md",
    )
    study.add_argument("-o", "--output", required=True, metavar="FILE")
    study.set_defaults(func=run)


def run(args, ctx) -> int:
    from pathlib import Path

    out = output_path(args.output, data_dir=ctx.data_dir)
    fmt = args.format or SUFFIXES.get(Path(out).suffix.lower(), "md")
    open_journal(ctx, read_only=True)
    try:
        count = export_study_list(ctx.db, fmt, out, ctx.now(), guide=GuideIndex(ctx.content))
    except OSError as exc:
        raise CommandError(f"cannot write {out}: {exc.strerror or exc}") from None
    say(f"Wrote {count_of(count, 'topic')} to {out} ({fmt}).")
    return 0
