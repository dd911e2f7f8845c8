"""``-`` as a file name: standard input where a file is read, standard output where one is
written (the convention of cat, tar, curl). The core reads and writes files (bounded
reads, atomic writes), so standard input is copied into a private file first, at most
the size the core accepts for that kind of file, and a file written for standard
output is copied to it, then removed."""

from __future__ import annotations

import contextlib
import shutil
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

from companion.commands.common import CommandError, output_path
from companion.core.fileio import KIND_NAMES, LIMITS
from companion.core.text import say

STDIO = "-"
#: how a message names standard input or output instead of the private file's path
STDIN_NAME = "standard input"
STDOUT_NAME = "standard output"


def is_stdio(name: object) -> bool:
    return name is not None and str(name) == STDIO


def add_output(parser) -> None:
    """The required ``-o FILE`` of an export whose ``-`` is standard output (Markdown
    there unless ``--format`` says otherwise)."""
    parser.add_argument(
        "-o",
        "--output",
        required=True,
        metavar="FILE",
        help="the file to write; - for standard output (Markdown unless --format says otherwise)",
    )


@contextlib.contextmanager
def stdin_file(kind: str, filename: str) -> Iterator[Path]:
    """Standard input as a private file named ``filename`` (the core reads files); more
    than the core accepts of ``kind`` is refused with one line."""
    limit = LIMITS[kind]
    stream = getattr(sys.stdin, "buffer", None)
    if stream is None:
        raise CommandError("standard input is closed; give a file name instead of -", 2)
    data = stream.read(limit + 1)
    if len(data) > limit:
        raise CommandError(
            f"{STDIN_NAME} holds more than {KIND_NAMES[kind]} may ({limit:,} bytes); "
            "nothing was read."
        )
    with tempfile.TemporaryDirectory(prefix="companion-stdin-") as folder:
        path = Path(folder) / filename
        path.write_bytes(data)
        path.chmod(0o600)
        yield path


@contextlib.contextmanager
def stdout_file(filename: str) -> Iterator[Path]:
    """A private file to write; once the block ends without an error, its bytes go to
    standard output."""
    with tempfile.TemporaryDirectory(prefix="companion-stdout-") as folder:
        path = Path(folder) / filename
        yield path
        if sys.stdout is None:  # closed: nothing takes it
            return
        sys.stdout.flush()
        out = getattr(sys.stdout, "buffer", None)
        if out is None or sys.stdout.isatty():
            # a terminal shows a stranger's escape sequence, never obeys it (and a test's
            # text capture has no bytes); a pipe or a file gets the bytes -o FILE holds
            try:
                text = path.read_text(encoding="utf-8").replace("\r\n", "\n")
            except UnicodeDecodeError:  # a PDF: no use on a terminal
                raise CommandError(
                    f"{filename} is not text and standard output is a terminal; send it "
                    f"to a file or a program (-o - > {filename}). Nothing was written."
                ) from None
            say(text, data=True, end="")
            return
        with path.open("rb") as fh:
            shutil.copyfileobj(fh, out)
        out.flush()


def named(message: str, path: Path, name: str = STDIN_NAME) -> str:
    """``message`` naming ``name`` where it named the private file ``path`` (by its path
    or by its file name)."""
    return message.replace(str(path), name).replace(path.name, name)


def as_given(message: str, path: Path, argument: object) -> str:
    """``message`` about the file read for ``argument``: naming standard input where it
    named the private copy when ``argument`` was ``-``; else as it is, with the file's own
    path (a FIFO named on the command line is that FIFO, not standard input)."""
    return named(message, path) if is_stdio(argument) else message


@contextlib.contextmanager
def output_target(name: object, filename: str, *, data_dir=None) -> Iterator[tuple[Path, str]]:
    """(the file to write, how messages name it) for ``-o NAME``: standard output for
    ``-``, else the checked file (:func:`~companion.commands.common.output_path`). A
    write that fails is one line naming it."""
    shown = STDOUT_NAME if is_stdio(name) else str(name)
    try:
        if is_stdio(name):
            with stdout_file(filename) as path:
                yield path, STDOUT_NAME
        else:
            path = output_path(name, data_dir=data_dir)
            shown = str(path)
            yield path, shown
    except OSError as exc:
        raise CommandError(f"cannot write {shown}: {exc.strerror or exc}") from None


def report(message: str, name: object) -> None:
    """The command's own line: on standard error when standard output holds the data."""
    say(message, err=is_stdio(name))
