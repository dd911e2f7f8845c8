"""The one-pager a command works on: a Markdown file given, else the saved one. Shared by
`companion about analyze|export` and `companion about rehearse`."""

from __future__ import annotations

from pathlib import Path

from companion.commands.common import CommandError, open_journal, say
from companion.core.about.importing import read_import
from companion.core.about.store import load_document


def source_text(ctx, path: Path | None) -> tuple[str | None, str]:
    """(text, where) from ``path`` or from the saved one-pager; raises CommandError."""
    if path is not None:
        try:
            result = read_import(path)
        except ValueError as exc:
            raise CommandError(f"about: {exc}") from None
        for problem in result.problems:
            say(f"companion about: warning: {problem}", err=True)
        return result.text, str(path)

    open_journal(ctx, read_only=True)
    text = load_document(ctx.db)
    if text is None:
        raise CommandError(
            "about: no one-pager saved yet: write it on the About me page, or pass a FILE."
        )
    return text, "the saved one-pager"
