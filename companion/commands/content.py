"""`companion content check [DIR]`: validate a content folder."""

from __future__ import annotations

import os
from pathlib import Path

from companion.commands.common import CommandError, say
from companion.core.content.loader import content_files, default_folders, load_content
from companion.core.paths import shipped_content_dir, user_content_dir
from companion.core.text import count_of


def register(parser) -> None:
    inner = parser.add_subparsers(dest="content_command", metavar="ACTION", required=True)
    check = inner.add_parser(
        "check", help="validate a content folder (default: shipped content plus your own)"
    )
    check.add_argument("dir", nargs="?", type=Path, help="folder of .md content files")
    check.set_defaults(func=run_check)


def run_check(args, ctx) -> int:
    if args.dir is not None:
        if not args.dir.is_dir():
            raise CommandError(f"{args.dir} is not a folder", exit_code=2)
        # a pack may point at shipped sections, so check it on top of them and report
        # only what is wrong in the pack itself
        folders = [args.dir]
        content, errors = load_content([shipped_content_dir(), args.dir])
        mine = {os.path.realpath(p) for p in content_files(args.dir)}  # loops: no raise
        errors = [e for e in errors if os.path.realpath(e.path) in mine]
        warnings = [w for w in content.warnings if os.path.realpath(w.path) in mine]
    else:
        folders = list(default_folders(user_content_dir(ctx.data_dir)))
        content, errors = load_content(folders)
        warnings = content.warnings
    files = sum(len(content_files(Path(f))) for f in folders)
    for error in errors:
        say(f"error: {error}", err=True)
    for warning in warnings:
        say(f"warning: {warning}", err=True)
    say(
        f"{count_of(files, 'file')}, {count_of(len(content.sections), 'section')}, "
        f"{count_of(len(content.round_types()), 'round type')}, "
        f"{count_of(len(content.quiz()), 'quiz question')}, "
        f"{count_of(len(errors), 'error')}, {count_of(len(warnings), 'warning')}"
    )
    return 1 if errors else 0
