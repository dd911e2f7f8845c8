"""The one-pager a command works on: a Markdown file given (``-``: standard input), else
the saved one. Shared by `companion about analyze|export`, `companion about rehearse` and
(the reading of a file) `companion stories check`."""

from __future__ import annotations

from pathlib import Path

from companion.commands.common import CommandError, open_journal, say
from companion.commands.stdio import STDIN_NAME, as_given, is_stdio, stdin_file
from companion.core.about.importing import read_import
from companion.core.about.store import load_document


def source_text(ctx, path: Path | None) -> tuple[str | None, str]:
    """(text, where) from ``path`` (``-``: standard input) or from the saved one-pager;
    raises CommandError."""
    if path is not None:
        return read_markdown(path, "about")

    open_journal(ctx, read_only=True)
    text = load_document(ctx.store.conn)  # one query: no sqlite-utils (10 MiB) for it
    if text is None:
        raise CommandError(
            "about: no one-pager saved yet: write it on the About me page, or pass a FILE."
        )
    return text, "the saved one-pager"


def read_markdown(path: Path, command: str) -> tuple[str, str]:
    """(text, where) of a Markdown file a ``command`` (about, stories) is given, read as a
    one-pager is (bounded, checked, its problems as warnings); ``-`` is standard input."""
    if is_stdio(path):
        with stdin_file("one-pager", "one-pager.md") as copy:
            return _read(copy, path, command), STDIN_NAME
    return _read(path, path, command), str(path)


def _read(path: Path, given: Path, command: str) -> str:
    """The text of ``path``, read for the argument ``given`` (``-``: ``path`` is its
    private copy, named "standard input" in the messages)."""
    try:
        result = read_import(path)
    except ValueError as exc:
        raise CommandError(f"{command}: {as_given(str(exc), path, given)}") from None
    for problem in result.problems:
        say(f"companion {command}: warning: {as_given(problem, path, given)}", err=True)
    return result.text
