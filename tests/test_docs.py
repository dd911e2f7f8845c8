"""Consistency checks in the style of sqlite-utils' test_docs.py."""

from __future__ import annotations

import argparse
import re
from pathlib import Path

import pytest

from companion.cli import build_parser

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")


def _commands(parser: argparse.ArgumentParser, prefix: str = "companion") -> list[str]:
    found = []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                found.append(f"{prefix} {name}")
                found.extend(_commands(sub, f"{prefix} {name}"))
    return found


COMMANDS = _commands(build_parser())
OPTIONS = [
    opt
    for action in build_parser()._actions
    for opt in action.option_strings
    if opt.startswith("--") and action.help != argparse.SUPPRESS and opt != "--help"
]


def test_there_are_commands_to_check():
    assert "companion doctor" in COMMANDS
    assert "companion content check" in COMMANDS


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_is_documented_in_the_readme(command):
    assert re.search(rf"`{re.escape(command)}\b", README), f"README does not document `{command}`"


@pytest.mark.parametrize("option", OPTIONS)
def test_every_global_option_is_documented(option):
    assert f"`companion {option}" in README or f"{option}" in README


def test_quick_start_is_two_commands():
    quick = README.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    commands = re.findall(r"^\s*make \w+", quick, flags=re.M)
    assert [c.strip() for c in commands] == ["make run", "make test"]


def test_every_resource_the_code_names_exists():
    from companion.core.paths import resources_dir
    from companion.ui.pages import PAGES

    icons = resources_dir() / "icons"
    for name in [p.icon for p in PAGES] + ["app"]:
        assert (icons / f"{name}.svg").is_file(), f"missing icon {name}.svg"
