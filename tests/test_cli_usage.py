"""Usage errors in one line, for every command's parser: `companion: <command>: <what is
wrong>; see companion <command> --help`, exit 2, no usage block, no traceback."""

from __future__ import annotations

import argparse

import pytest

from companion.cli import build_parser, main


def _paths(parser: argparse.ArgumentParser, prefix: tuple[str, ...] = ()):
    yield prefix
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from _paths(sub, (*prefix, name))


PATHS = list(_paths(build_parser()))


def test_every_command_parser_is_walked():
    assert len(PATHS) > 30 and ("mic", "list") in PATHS and ("journal", "import") in PATHS


def _usage_error(argv, capsys) -> str:
    try:
        code = main(argv)
    except SystemExit as done:
        code = done.code
    err = capsys.readouterr().err
    assert code == 2, err
    assert err.count("\n") == 1 and "Traceback" not in err and "usage:" not in err, err
    return err.rstrip("\n")


def _form(path: tuple[str, ...]) -> tuple[str, str]:
    command = " ".join(path)
    if not command:
        return "companion: ", "; see companion --help"
    return f"companion: {command}: ", f"; see companion {command} --help"


@pytest.mark.parametrize("path", PATHS, ids=" ".join)
def test_a_bad_option_is_one_line_naming_its_command(path, data_dir, capsys):
    err = _usage_error([*path, "--no-such-option"], capsys)
    start, end = _form(path)
    assert err.startswith(start) and err.endswith(end), err
    assert "--no-such-option" in err or "required" in err, err


@pytest.mark.parametrize("path", [p for p in PATHS if p], ids=" ".join)
def test_an_empty_data_dir_is_one_line_in_the_same_form(path, capsys):
    err = _usage_error([*path, "--data-dir", ""], capsys)
    start, end = _form(path)
    assert err.startswith(start) and err.endswith(end), err


@pytest.mark.parametrize(
    "argv, command",
    [
        (["today", "--at", ""], "today"),
        (["stories", "export", "-o", ""], "stories export"),
        (["cue", "--round", "no-such-type"], "cue"),
    ],
)
def test_a_commands_own_usage_check_takes_the_same_form(argv, command, data_dir, capsys):
    err = _usage_error(argv, capsys)
    assert err.startswith(f"companion: {command}: ") and err.count(f"{command}: ") == 1, err
    assert err.endswith(f"; see companion {command} --help"), err
