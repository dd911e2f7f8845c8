"""Every integer option goes through one bounded parser: a number SQLite cannot hold is a
usage error (one line, exit 2), never an OverflowError."""

from __future__ import annotations

import argparse

import pytest

from companion.cli import build_parser, main


def _actions(parser):
    for action in parser._actions:
        yield parser.prog, action
        if isinstance(action, argparse._SubParsersAction):
            for sub in action.choices.values():
                yield from _actions(sub)


INTEGER_OPTIONS = [
    (prog, action.option_strings[0])
    for prog, action in _actions(build_parser())
    if action.option_strings and getattr(action.type, "__qualname__", "").startswith("whole_number")
]


def test_no_option_is_parsed_by_a_bare_int():
    bare = [(prog, a.dest) for prog, a in _actions(build_parser()) if a.type is int]
    assert bare == []
    assert len(INTEGER_OPTIONS) >= 3  # the scan sees them: --delete, --loop, --limit


@pytest.mark.parametrize("prog, option", INTEGER_OPTIONS)
@pytest.mark.parametrize("value", ["9223372036854775808", "-9223372036854775808", "1" * 5000])
def test_a_number_sqlite_cannot_hold_is_a_usage_error(data_dir, capsys, prog, option, value):
    command = prog.split()[1:]
    with pytest.raises(SystemExit) as exit_:
        main(["--data-dir", str(data_dir), *command, f"{option}={value}"])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert len(err) < 300


def test_deleting_take_2_to_the_63_says_so(data_dir, capsys):
    with pytest.raises(SystemExit):
        main(["--data-dir", str(data_dir), "about", "takes", "--delete", "9223372036854775808"])
    assert "is not a take id (1 to 9,223,372,036,854,775,807)" in capsys.readouterr().err
