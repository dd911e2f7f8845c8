"""Consistency checks in the style of sqlite-utils' test_docs.py."""

from __future__ import annotations

import argparse
import re
from pathlib import Path

import pytest

from companion.cli import build_parser

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
DOCS = ROOT / "docs"
README_MAX_LINES = 450  # the users' guide; what developers read lives in docs/


def _commands(parser: argparse.ArgumentParser, prefix: str = "companion") -> list[str]:
    found = []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                found.append(f"{prefix} {name}")
                found.extend(_commands(sub, f"{prefix} {name}"))
    return found


COMMANDS = _commands(build_parser())
GLOBAL = {"--data-dir"}  # on every command; documented once, in the Commands table


def _parsers(parser: argparse.ArgumentParser, prefix: str = "companion"):
    yield prefix, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from _parsers(sub, f"{prefix} {name}")


def _options(parser: argparse.ArgumentParser, top: bool) -> list[tuple[str, ...]]:
    """Each documented option of a parser, as all its spellings (``-o``, ``--output``)."""
    return [
        tuple(action.option_strings)
        for action in parser._actions
        if action.option_strings
        and action.help != argparse.SUPPRESS
        and "--help" not in action.option_strings
        and (top or not GLOBAL & set(action.option_strings))
    ]


OPTIONS = [
    (command, spellings)
    for command, parser in _parsers(build_parser())
    for spellings in _options(parser, command == "companion")
]


def readme_section(command: str) -> str:
    """What the README says about one command: its rows of the Commands table, every
    paragraph that names it in code (`companion about export ...`) and its usage lines."""
    name = re.escape(command)
    blocks = re.split(r"\n\s*\n", README)
    table = [
        line for line in README.splitlines() if re.match(rf"\| `{name}(?![\w-])(?! [a-z])", line)
    ]
    if command == "companion":
        table = [line for line in README.splitlines() if re.match(r"\| `companion -", line)]
    paragraphs = [  # a table is read row by row above, not as one block
        b
        for b in blocks
        if not b.lstrip().startswith("|") and re.search(rf"`{name}(?![\w-])(?! [a-z])", b)
    ]
    usage = [  # the indented usage lines of a section: "    companion about analyze [FILE] ..."
        line for line in README.splitlines() if re.match(rf" {{4}}{name}(?![\w-])(?! [a-z])", line)
    ]
    return "\n".join(table + paragraphs + usage)


def test_there_are_commands_to_check():
    assert "companion doctor" in COMMANDS
    assert "companion content check" in COMMANDS


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_is_documented_in_the_readme(command):
    assert re.search(rf"`{re.escape(command)}\b", README), f"README does not document `{command}`"


@pytest.mark.parametrize(
    ("command", "spellings"), OPTIONS, ids=[f"{c} {s[-1]}" for c, s in OPTIONS]
)
def test_every_option_is_documented_with_its_command(command, spellings):
    section = readme_section(command)
    assert section, f"README has no section for `{command}`"
    assert any(re.search(rf"{re.escape(s)}(?![\w-])", section) for s in spellings), (
        f"README documents `{command}` without {' / '.join(spellings)}"
    )


def test_an_option_documented_under_another_command_does_not_count():
    # --wpm belongs to `companion about analyze`, not to `companion about export`
    assert re.search(r"--wpm(?![\w-])", README)
    assert not re.search(r"--wpm(?![\w-])", readme_section("companion about export"))


def test_quick_start_is_two_commands():
    quick = README.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    commands = re.findall(r"^\s*make \w+", quick, flags=re.M)
    assert [c.strip() for c in commands] == ["make run", "make test"]


def test_the_readme_is_for_users_and_short():
    lines = README.count("\n")
    assert lines < README_MAX_LINES, f"README.md has {lines} lines; move detail to docs/"
    for section in ("Install", "Platforms", "The day", "Voice", "Commands", "Troubleshooting"):
        assert f"\n## {section}" in README, f"README has no {section} section"
    assert "Your data" in README and "privacy" in README


def test_the_readme_keeps_no_lab_notes():
    """Dated runs and benchmark tables belong in docs/performance.md, current figures only."""
    assert not re.search(r"\b20\d\d-\d\d-\d\d\b", README), "a dated note in README.md"
    assert "benchmarks/" not in README and "| ratio |" not in README


def _doc(name: str) -> str:
    return (DOCS / name).read_text(encoding="utf-8")


def test_the_docs_hold_what_developers_read():
    architecture, development, performance = (
        _doc(n) for n in ("architecture.md", "development.md", "performance.md")
    )
    assert "import-linter" in architecture and "    companion/" in architecture
    for make in ("make test-fast", "make fuzz", "make bench"):
        assert make in development, f"docs/development.md does not say `{make}`"
    for figure in ("Today's plan drawn", "callgrind", "Redraws per action", "make bench-long"):
        assert figure in performance, f"docs/performance.md does not give {figure}"
    developers = (ROOT / "DEVELOPERS.md").read_text(encoding="utf-8")
    assert "walk of the day" in developers.lower()
    for make in ("make run", "make test", "make test-fast", "make fuzz", "make bench"):
        assert make in developers, f"DEVELOPERS.md does not say `{make}`"


def test_every_relative_link_in_the_docs_leads_to_a_file():
    for page in [ROOT / "README.md", ROOT / "DEVELOPERS.md", *DOCS.glob("*.md")]:
        text = page.read_text(encoding="utf-8")
        for target in re.findall(r"\]\((?!https?:)([^)#]+)(?:#[^)]*)?\)", text):
            assert (page.parent / target).exists(), f"{page.name} links to missing {target}"


def test_every_resource_the_code_names_exists():
    from companion.core.paths import resources_dir
    from companion.ui.pages import PAGES

    icons = resources_dir() / "icons"
    for name in [p.icon for p in PAGES] + ["app"]:
        assert (icons / f"{name}.svg").is_file(), f"missing icon {name}.svg"
