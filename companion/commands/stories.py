"""`companion stories check [FILE] [--json]` and `companion stories export --format md|pdf
-o FILE`: the story bank without the window."""

from __future__ import annotations

import json
from pathlib import Path

from companion.commands.about_source import read_markdown
from companion.commands.common import CommandError, open_journal, say
from companion.commands.pdf import export_pdf
from companion.commands.stdio import STDIN_NAME, add_output, is_stdio, output_target, report
from companion.core.about.export import export_markdown, format_for, pdf_size_problem
from companion.core.about.spoken import DEFAULT_WPM
from companion.core.about.store import words_per_minute
from companion.core.content.stories import story_pack
from companion.core.stories.check import analyze_bank
from companion.core.stories.document import STORIES
from companion.core.stories.render import StoryRenderer


def register(parser) -> None:
    inner = parser.add_subparsers(dest="stories_command", metavar="ACTION", required=True)

    check = inner.add_parser(
        "check",
        help="each story's seconds, tags and number; the questions with no story; warnings",
        description="Check the story bank (the saved one, or FILE) against the content "
        "pack: each story's told length at your speaking rate, whether its Result carries a "
        "number, the common questions no story answers, and the pack's warnings. Exits 1 "
        "when a story has errors (broken tags, a heading with no title).",
    )
    check.add_argument(
        "file",
        nargs="?",
        type=Path,
        help="Markdown file (default: saved one); - for standard input",
    )
    check.add_argument("--json", action="store_true", help="print one JSON object")
    check.set_defaults(func=run_check)

    export = inner.add_parser("export", help="write the story bank as Markdown or PDF")
    export.add_argument(
        "--format", choices=["md", "pdf"], help="output format (default: from the file name)"
    )
    add_output(export)
    export.set_defaults(func=run_export)
    parser.set_defaults(func=run)


def run(args, ctx) -> int:
    if getattr(args, "stories_command", None) == "check":
        return run_check(args, ctx)
    if getattr(args, "stories_command", None) == "export":
        return run_export(args, ctx)
    raise CommandError("stories: choose an action: check or export", exit_code=2)


def _text(ctx, path: Path | None) -> str:
    """The bank from ``path`` (through the bounded reader) or the saved one."""
    if path is not None:
        return read_markdown(path, "stories")[0]
    import sqlite3

    open_journal(ctx, read_only=True)
    try:
        return STORIES.load_text(ctx.db)
    except sqlite3.OperationalError:  # a journal older than the story bank: none saved
        return ""


def _wpm(ctx) -> float:
    try:
        open_journal(ctx, read_only=True)
        return words_per_minute(ctx.db)
    except CommandError:  # no journal yet: the default rate
        return DEFAULT_WPM


def run_check(args, ctx) -> int:
    text = _text(ctx, args.file)
    pack = story_pack(ctx.content)
    analysis = analyze_bank(text, pack, _wpm(ctx))
    if args.json:
        say(json.dumps(analysis.as_json(), ensure_ascii=False, indent=2), data=True)
    else:
        for report in analysis.reports:
            story = report.story
            number = "number" if report.has_number else "NO NUMBER"
            say(
                f"{story.title}: {report.seconds:.0f} s of {pack.seconds} s, "
                f"{number}; tags: {', '.join(story.tags) or '-'}"
            )
        if not analysis.reports:
            say("No stories yet: write one '## Story: title' per story.")
        for line in analysis.gap_lines(pack):
            say(f"gap: {line}")
        for warning in analysis.warnings:
            say(f"warning: {warning}")
    for error in analysis.errors:
        where = STDIN_NAME if is_stdio(args.file) else args.file or "stories"
        say(f"error: {where}:{error.line}: {error.message}", err=True)
    return 1 if analysis.errors else 0


def run_export(args, ctx) -> int:
    if not (args.output or "").strip():
        raise CommandError("stories: -o is empty: give the name of a file to write", exit_code=2)
    to_stdout = is_stdio(args.output)
    output = Path(args.output).expanduser()
    if not to_stdout and output.is_dir():
        raise CommandError(f"stories: {output} is a folder; give a file name", exit_code=2)
    try:
        fmt = format_for(output, args.format or ("md" if to_stdout else None))
    except ValueError as exc:
        why = str(exc).replace("pass --format pdf, html or md", "pass --format md or pdf")
        raise CommandError(f"stories: {why}", exit_code=2) from None
    if fmt not in ("md", "pdf"):
        raise CommandError(f"stories: {output.name}: export as .md or .pdf", exit_code=2)
    text = _text(ctx, None)
    if not text.strip():
        raise CommandError("stories: the story bank is empty; there is nothing to export.")
    if fmt == "pdf" and (problem := pdf_size_problem(text)):
        raise CommandError(f"stories: {problem}")
    with output_target(args.output, f"stories.{fmt}", data_dir=ctx.data_dir) as (path, name):
        try:
            if fmt == "md":
                export_markdown(text, path)
            else:  # a bank runs over one page: no warning for it
                export_pdf(text, path, "a4", StoryRenderer())
        except OSError as exc:
            raise CommandError(
                f"stories: cannot write {name}: {exc.strerror or exc}; nothing was written"
            ) from None
    report(f"wrote {name} ({fmt})", args.output)
    return 0
