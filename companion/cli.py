"""Command-line entry: the GUI by default, sub-commands for headless jobs."""

from __future__ import annotations

import sys
import types
from collections.abc import Sequence
from pathlib import Path

from companion import APP_NAME, __version__
from companion.commands import COMMANDS, whole_number
from companion.core.paths import DataDirError, argument_problem, resolve_data_dir
from companion.core.text import say
from companion.ui.process.launch import run_gui
from companion.ui.process.launch_context import LaunchContext


def build_parser(extra: Sequence[types.ModuleType] = (), *, lazy: bool = False):
    """The command line. ``lazy``: a command's module is imported when the command line
    names it, so running one command loads no other (how :func:`main` parses); without
    it every command is declared (for walking them all: the docs' and usage tests).
    ``extra``: command modules from outside the app (the demo generator of benchmarks/),
    each with ``COMMAND``, ``HELP`` and ``register(parser)`` like the app's own."""
    # argparse loads here, not at the top: a plain GUI launch never builds the parser
    import argparse
    import importlib

    class OneLineParser(argparse.ArgumentParser):
        """A usage error in one line, exit 2: `companion: <command>: <what is wrong>; see
        companion <command> --help` (sub-commands' parsers are made of this class too)."""

        def error(self, message: str):
            self.exit(2, f"companion: {usage_line(self.prog, message)}\n")

        def _print_message(self, message, file=None):
            """Help and errors through the one writer: they may echo what was typed."""
            if message:
                say(message, err=file is not sys.stdout and file is not None, end="")

        def parse_known_args(self, args=None, namespace=None):
            namespace, extras = super().parse_known_args(args, namespace)
            if extras and self.prog != "companion":  # said by the command they were given to
                self.error(f"unrecognized arguments: {' '.join(extras)}")
            return namespace, extras

    class Commands(argparse._SubParsersAction):
        """The commands, listed (in `companion --help`) from their one-line help, each
        declared by its own module's ``register(parser)`` when first named."""

        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            self.undeclared: dict[str, str | types.ModuleType] = {}

        def add(self, name: str, line: str, module: str | types.ModuleType) -> None:
            self.add_parser(name, help=line)
            self.undeclared[name] = module
            if not lazy:
                self.declare(name)

        def declare(self, name: str) -> None:
            module = self.undeclared.pop(name, None)
            if module is None:  # declared already
                return
            if isinstance(module, str):
                module = importlib.import_module(module)  # seam: commands
            command = self.choices[name]
            module.register(command)
            _accept_data_dir_everywhere(command)

        def __call__(self, parser, namespace, values, option_string=None):
            self.declare(values[0])
            super().__call__(parser, namespace, values, option_string)

    parser = OneLineParser(
        prog="companion",
        description=f"{APP_NAME}: a local-first companion for the day of an interview loop.",
    )
    parser.add_argument("--version", action="version", version=f"companion {__version__}")
    parser.add_argument(
        "--data-dir",
        metavar="DIR",
        help="keep data in DIR instead of the default folder (also: COMPANION_HOME)",
    )
    parser.add_argument(
        "--self-test",
        action="store_true",
        help="load content, open a temporary database, paint the main window offscreen, exit",
    )
    parser.add_argument("--page", help=argparse.SUPPRESS)  # start on a page (screenshots)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", action=Commands)
    for name, line in COMMANDS.items():
        sub.add(name, line, f"companion.commands.{name}")
    for module in extra:
        sub.add(module.COMMAND, module.HELP, module)
    return parser


def usage_line(prog: str, message: str) -> str:
    """A usage error as one line, `<command>: <what is wrong>; see companion <command>
    --help` (after the "companion: " prefix), for argparse's errors and the commands' own
    (a leading "<command>: " in ``message`` is said once)."""
    command = prog.removeprefix("companion").strip()
    message = " ".join(message.split()).rstrip(".")
    for said in (command, command.partition(" ")[0]):
        if said and message.startswith(f"{said}: "):
            message = message[len(said) + 2 :]
            break
    if message.endswith(f"see {prog} --help"):
        return message if not command else f"{command}: {message}"
    where = f"{command}: " if command else ""
    return f"{where}{message}; see {prog} --help"


def _accept_data_dir_everywhere(command) -> None:
    """`companion today --data-dir DIR` reads as well as `companion --data-dir DIR today`;
    and a bare ``type=int`` gets the bounds of :func:`whole_number` (for a command's
    parser and each of its own sub-commands')."""
    import argparse

    command.set_defaults(usage_prog=command.prog)  # the deepest command's, for its errors
    for action in command._actions:  # every integer bounded by one parser
        if action.type is int:
            action.type = whole_number()
    has_own = any("--data-dir" in a.option_strings for a in command._actions)
    if not has_own:
        command.add_argument(
            "--data-dir",
            metavar="DIR",
            default=argparse.SUPPRESS,
            help="keep data in DIR instead of the default folder",
        )
    for action in command._actions:
        if isinstance(action, argparse._SubParsersAction):
            for inner in action.choices.values():
                _accept_data_dir_everywhere(inner)


def _gui_fast_path(argv: list[str]) -> types.SimpleNamespace | None:
    """Plain GUI launches build no parser (nor import argparse): start-up time is measured
    against a bare Qt window."""
    args = types.SimpleNamespace(data_dir=None, self_test=False, page=None, command=None)
    rest = list(argv)
    while rest:
        option = rest.pop(0)
        name, eq, value = option.partition("=")
        if name not in ("--data-dir", "--page"):
            return None
        if not eq:
            if not rest:
                return None
            value = rest.pop(0)
        if name == "--data-dir":
            args.data_dir = value  # resolved (and refused if empty) in one place
        elif not value:
            return None
        else:
            args.page = value
    return args


def _folder(args) -> Path | None:
    """The data folder of this process, resolved once here (None: it was refused)."""

    prog = getattr(args, "usage_prog", "companion")
    try:
        folder = resolve_data_dir(args.data_dir)
    except DataDirError as exc:
        _say(usage_line(prog, str(exc)))
        return None
    if getattr(args, "func", None) is not None:  # the GUI shows a dialog instead
        problem = argument_problem(folder)
        if problem:
            where = "--data-dir" if args.data_dir is not None else "COMPANION_HOME"
            said = f"{where} cannot be used as the data folder: {problem}"
            _say(usage_line(prog, said))
            return None
    return folder


def main(argv: list[str] | None = None, extra: Sequence[types.ModuleType] = ()) -> int:
    """The command line; a Ctrl+C anywhere in it (importing, parsing, working, the window
    before its own handler) ends it with 130 and no traceback."""
    try:
        return _main(argv, extra)
    except KeyboardInterrupt:
        return 130


def _main(argv: list[str] | None, extra: Sequence[types.ModuleType] = ()) -> int:
    argv = sys.argv[1:] if argv is None else argv
    args = _gui_fast_path(argv)
    if args is None:
        args = build_parser(extra, lazy=True).parse_args(argv)
    if args.self_test:
        from companion.selftest import run_self_test  # seam: commands

        return run_self_test()
    folder = _folder(args)
    if folder is None:
        return 2
    if getattr(args, "func", None) is None:
        return run_gui(args, LaunchContext(folder))  # the whole context after the first paint
    from companion.commands.common import CommandError  # seam: commands
    from companion.core.context import AppContext

    ctx = AppContext(folder)

    reserve = [bytearray(1 << 20)]  # freed on a MemoryError, so that one line can be said
    try:
        code = int(args.func(args, ctx) or 0)
        if sys.stdout is None:  # started with stdout closed: print() wrote nothing
            _say("standard output is closed, so the result could not be shown")
            return 1
        sys.stdout.flush()  # a full disk shows up here, not as a traceback at exit
        return code
    except CommandError as exc:
        usage = exc.exit_code == 2
        _say(usage_line(getattr(args, "usage_prog", "companion"), str(exc)) if usage else str(exc))
        return exc.exit_code
    except MemoryError as exc:
        reserve.clear()  # first: room to say so (the except clause itself needs a little)
        return _out_of_memory(ctx, exc)
    except BrokenPipeError:
        _silence_stdout()  # the reader left (e.g. `| head`): not an error
        return 0
    except OSError as exc:
        if _is_stdout_error(exc):
            _silence_stdout()
            _say(f"cannot write the output: {exc.strerror or exc}")
            return 1
        _say(f"{exc.strerror or exc}" + (f": {exc.filename}" if exc.filename else ""))
        return 1
    except Exception as exc:  # database errors at commit: full disk, I/O error, busy
        import sqlite3

        if not isinstance(exc, sqlite3.Error):
            raise
        from companion.core.storage.store import explain_database_error  # seam: commands

        doing = "read" if ctx.reading_only() else "save"
        _say(explain_database_error(exc, ctx.db_path, doing=doing, saved=ctx.commits()))
        return 1
    finally:
        ctx.close()


def _out_of_memory(ctx, exc: MemoryError) -> int:
    """One line for a MemoryError, said once the frames that held the big data are
    cleared (the traceback keeps them alive, and printing needs a little memory)."""
    tb = exc.__traceback__
    while tb is not None:
        try:
            tb.tb_frame.clear()
        except RuntimeError:  # a frame still running (this one's caller)
            pass
        tb = tb.tb_next
    del exc, tb
    saved = ctx.commits()
    _say(
        "ran out of memory (the input is too big for the memory this process may use); "
        + (
            f"the {saved} change{'' if saved == 1 else 's'} it had saved stay saved, "
            "the rest was not saved"
            if saved
            else "the change it was making was rolled back, nothing was saved"
        )
    )
    return 1


def _say(message: str) -> None:
    """One line on stderr (which may itself be closed: then nothing)."""
    try:
        say(f"companion: {' '.join(message.split())}", err=True)
    except (OSError, ValueError):
        pass


def _is_stdout_error(exc: OSError) -> bool:
    try:
        sys.stdout.flush()
    except (OSError, ValueError, AttributeError):
        return True
    return getattr(exc, "filename", None) is None and exc.errno in (28, 5, 9, 32)


def _silence_stdout() -> None:
    """Point stdout at /dev/null so that the interpreter's final flush cannot fail too."""
    import os

    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):
        pass


if __name__ == "__main__":
    raise SystemExit(main())
