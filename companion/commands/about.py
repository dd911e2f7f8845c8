"""`companion about export|analyze|rehearse`: the About-me one-pager without the window."""

from __future__ import annotations

from pathlib import Path

from companion.commands.about_source import source_text
from companion.commands.about_takes import add_parser as add_takes
from companion.commands.common import CommandError, open_journal, output_path, say
from companion.commands.pdf import export_pdf
from companion.commands.rehearse import add_parser as add_rehearse
from companion.commands.rehearse import run_rehearse
from companion.commands.stdio import add_output, is_stdio, output_target, report
from companion.core.about.export import export_html, export_markdown, format_for, pdf_size_problem
from companion.core.about.guard import RenderRefused
from companion.core.about.pitch import analyze, format_report
from companion.core.about.spoken import MAX_WPM, MIN_WPM
from companion.core.about.store import words_per_minute


def register(parser) -> None:
    inner = parser.add_subparsers(dest="about_command", metavar="ACTION", required=True)

    export = inner.add_parser("export", help="write the one-pager as PDF, HTML or Markdown")
    export.add_argument(
        "--format",
        choices=["pdf", "html", "md"],
        help="output format (default: from the file name's suffix)",
    )
    add_output(export)
    export.add_argument(
        "--page-size", choices=["a4", "letter"], default="a4", help="PDF page size (default a4)"
    )
    export.add_argument(
        "--input",
        type=Path,
        metavar="FILE",
        help="export this Markdown file instead; - for standard input",
    )
    export.set_defaults(func=run_export)

    analyze_command = inner.add_parser(
        "analyze", help="per-segment words, seconds and budget; projects lacking numbers"
    )
    analyze_command.add_argument(
        "file",
        nargs="?",
        type=Path,
        help="Markdown file (default: saved one); - for standard input",
    )
    analyze_command.add_argument(
        "--wpm", type=float, help="speaking rate in words per minute (default: your stored rate)"
    )
    analyze_command.add_argument("--json", action="store_true", help="print the analysis as JSON")
    analyze_command.set_defaults(func=run_analyze)

    add_rehearse(inner)

    add_takes(inner)
    parser.set_defaults(func=run)


def run(args, ctx) -> int:
    """Dispatch on the action (for callers that use the top-level ``func``)."""
    action = getattr(args, "about_command", None)
    if action == "export":
        return run_export(args, ctx)
    if action == "analyze":
        return run_analyze(args, ctx)
    if action == "rehearse":
        return run_rehearse(args, ctx)
    raise CommandError("about: choose an action: export, analyze or rehearse", exit_code=2)


def _error(message: str) -> int:
    raise CommandError(f"about: {message}")


def _stored_wpm(ctx) -> float:
    open_journal(ctx, read_only=True)
    return words_per_minute(ctx.db)


def run_analyze(args, ctx) -> int:
    if args.wpm is not None and not MIN_WPM <= args.wpm <= MAX_WPM:
        return _error(f"--wpm {args.wpm:g} is outside {MIN_WPM:.0f}-{MAX_WPM:.0f}.")
    text, where = source_text(ctx, args.file)
    if text is None:
        return 1
    wpm = args.wpm if args.wpm is not None else _stored_wpm(ctx)
    result = analyze(text, wpm, ctx.content.pitch_plan())
    if args.json:
        import json

        say(json.dumps(_as_json(result, where), indent=2), data=True)
    else:
        say(f"{where}:")
        say(format_report(result))
    return 0


def _as_json(result, where: str) -> dict:
    return {
        "source": where,
        "words_per_minute": result.words_per_minute,
        "segments": [
            {
                "id": s.id,
                "title": s.title,
                "present": s.present,
                "words": s.words,
                "seconds": round(s.seconds, 1),
                "budget_seconds": s.budget_seconds,
                "status": s.status,
            }
            for s in result.segments
        ],
        "total_words": result.total_words,
        "total_seconds": round(result.total_seconds, 1),
        "timing": result.timing_status,
        "projects": [
            {"title": p.title, "line": p.line + 1, "numbers": list(p.numbers)}
            for p in result.projects
        ],
        "projects_lacking_numbers": [p.title for p in result.projects_without_numbers],
        "warnings": list(result.warnings),
    }


def run_export(args, ctx) -> int:
    if not (args.output or "").strip():
        raise CommandError("about: -o is empty: give the name of a file to write", exit_code=2)
    to_stdout = is_stdio(args.output)
    output = Path(args.output).expanduser()
    if not to_stdout and output.is_dir():
        raise CommandError(
            f"about: {output} is a folder; give a file name, e.g. "
            f"{output / ('about-me.' + (args.format or 'pdf'))}",
            exit_code=2,
        )
    try:
        fmt = format_for(output, args.format or ("md" if to_stdout else None))
    except ValueError as exc:
        raise CommandError(f"about: {exc}", exit_code=2) from None
    if not to_stdout:  # a usage error (no such folder) is said before the content's
        output_path(args.output, data_dir=ctx.data_dir)
    text, _ = source_text(ctx, args.input)
    if text is None:
        return 1
    if not text.strip():
        return _error("the one-pager is empty; there is nothing to export.")
    if fmt == "pdf" and (problem := pdf_size_problem(text)):  # before the slow layout
        return _error(problem)

    with output_target(args.output, f"about-me.{fmt}", data_dir=ctx.data_dir) as (path, name):
        try:
            if fmt == "md":
                export_markdown(text, path)
            elif fmt == "html":
                export_html(text, path)
            elif warning := export_pdf(text, path, args.page_size):
                say(f"companion about: warning: {warning}", err=True)
        except RenderRefused as exc:  # before anything is written
            shown = "standard output" if to_stdout else path.name
            return _error(f"{shown}: {str(exc).rstrip('.')}; nothing was written")
        except OSError as exc:
            return _error(f"cannot write {name}: {exc.strerror or exc}; nothing was written")
    report(f"wrote {name} ({fmt})", args.output)
    return 0
