"""`companion stories check [FILE] [--json]` and `companion stories export --format md|pdf
-o FILE`: the story bank without the window."""

from __future__ import annotations

import json
from pathlib import Path

from companion.commands.about import _export_pdf
from companion.commands.common import CommandError, open_journal, output_path, say
from companion.core.about.export import export_markdown, format_for, pdf_size_problem
from companion.core.about.importing import read_import
from companion.core.about.spoken import DEFAULT_WPM
from companion.core.about.store import words_per_minute
from companion.core.stories.check import analyze_bank
from companion.core.stories.document import STORIES
from companion.core.stories.pack import story_pack
from companion.core.stories.render import StoryRenderer


def register(sub) -> None:
    parser = sub.add_parser("stories", help="check or export your story bank")
    inner = parser.add_subparsers(dest="stories_command", metavar="ACTION", required=True)

    check = inner.add_parser(
        "check",
        help="each story's seconds, tags and number; the questions with no story; warnings",
        description="Check the story bank (the saved one, or FILE) against the content "
        "pack: each story's told length at your speaking rate, whether its Result carries a "
        "number, the common questions no story answers, and the pack's warnings. Exits 1 "
        "when a story has errors (broken tags, a heading with no title).",
    )
    check.add_argument("file", nargs="?", type=Path, help="Markdown file (default: saved one)")
    check.add_argument("--json", action="store_true", help="print one JSON object")
    check.set_defaults(func=run_check)

    export = inner.add_parser("export", help="write the story bank as Markdown or PDF")
    export.add_argument(
        "--format", choices=["md", "pdf"], help="output format (default: from the file name)"
    )
    export.add_argument("-o", "--output", required=True, metavar="FILE")
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
        try:
            result = read_import(path)
        except ValueError as exc:
            raise CommandError(f"stories: {exc}") from None
        for problem in result.problems:
            say(f"companion stories: warning: {problem}", err=True)
        return result.text
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
        say(f"error: {args.file or 'stories'}:{error.line}: {error.message}", err=True)
    return 1 if analysis.errors else 0


def run_export(args, ctx) -> int:
    if not (args.output or "").strip():
        raise CommandError("stories: -o is empty: give the name of a file to write", exit_code=2)
    output = Path(args.output).expanduser()
    if output.is_dir():
        raise CommandError(f"stories: {output} is a folder; give a file name", exit_code=2)
    output = output_path(output, data_dir=ctx.data_dir)
    try:
        fmt = format_for(output, args.format)
    except ValueError as exc:
        why = str(exc).replace("pass --format pdf, html or md", "pass --format md or pdf")
        raise CommandError(f"stories: {why}", exit_code=2) from None
    if fmt not in ("md", "pdf"):
        raise CommandError(f"stories: {output.name}: export as .md or .pdf", exit_code=2)
    text = _text(ctx, None)
    if not text.strip():
        raise CommandError("stories: the story bank is empty; there is nothing to export.")
    try:
        if fmt == "md":
            export_markdown(text, output)
        else:
            if problem := pdf_size_problem(text):
                raise CommandError(f"stories: {problem}")

            # a bank runs over one page: no warning for it
            _export_pdf(text, output, "a4", StoryRenderer())
    except OSError as exc:
        raise CommandError(
            f"stories: cannot write {output}: {exc.strerror or exc}; nothing was written"
        ) from None
    say(f"wrote {output} ({fmt})")
    return 0
