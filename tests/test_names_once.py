"""Each set of names is spelled once, in the core's declaration; everything else derives.

A literal list, tuple, set or dict (its keys, or the first of each pair) that holds two
or more names of one set, and mostly names of that set, is a second copy to keep in
agreement by hand, and so is an if/elif chain comparing one value with two or more of
them: this walks the AST of every module in companion/ and fails on either, naming the
file and line. "Mostly" because some words are also names of another kind: "dnd" is a
command as well as a checklist action, "thank-you" a change kind; a list of commands
that holds "dnd" and "stories" is no copy of the checklist's actions.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from companion.core.content.audiences import AUDIENCES
from companion.core.content.checklist_actions import CHECKLIST_ACTIONS
from companion.core.study.exports import FORMATS

PACKAGE = Path(__file__).resolve().parents[1] / "companion"
NAME_SETS = {
    "interviewer audiences": frozenset(AUDIENCES),
    "checklist actions (link: names)": frozenset(CHECKLIST_ACTIONS),
    "study-list export formats": frozenset(FORMATS),
}


def _text(node: ast.AST) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def _spelled(node: ast.AST) -> list[str]:
    """The names a collection literal spells: its string elements, a dict's keys, and the
    first of each pair in a tuple of pairs (("peer", pattern), ...)."""
    if isinstance(node, ast.Dict):
        elements = [k for k in node.keys if k is not None]
    elif isinstance(node, ast.Tuple | ast.List | ast.Set):
        elements = [e.elts[0] if isinstance(e, ast.Tuple) and e.elts else e for e in node.elts]
    else:
        return []
    return [t for t in map(_text, elements) if t is not None]


def _compared(func: ast.AST) -> dict[str, list[str]]:
    """In one function, the names each expression is compared with by ``==``
    (``if link == "a": ... elif link == "b":``), keyed by the expression's source."""
    out: dict[str, list[str]] = {}
    for node in ast.walk(func):
        if isinstance(node, ast.Compare) and all(isinstance(o, ast.Eq) for o in node.ops):
            sides = [node.left, *node.comparators]
            names = [t for t in map(_text, sides) if t is not None]
            others = [ast.unparse(s) for s in sides if _text(s) is None]
            for other in others:
                out.setdefault(other, []).extend(names)
    return out


def _copy_of(words: list[str], names: frozenset[str]) -> list[str]:
    """The names of the set ``words`` spells when they make a copy of it: two or more,
    and more than half of the words."""
    distinct = set(words)
    ours = sorted(distinct & names)
    return ours if len(ours) >= 2 and 2 * len(ours) > len(distinct) else []


def copies(tree: ast.AST, names: frozenset[str]) -> list[tuple[int, list[str]]]:
    """(line, names) of each second copy of ``names`` in ``tree``."""
    found = []
    for node in ast.walk(tree):
        if spelled := _copy_of(_spelled(node), names):
            found.append((node.lineno, spelled))
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            for compared in _compared(node).values():
                if chain := _copy_of(compared, names):
                    found.append((node.lineno, chain))
    return found


def _modules() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


@pytest.mark.parametrize("what", NAME_SETS)
def test_each_set_of_names_is_spelled_once(what: str) -> None:
    names = NAME_SETS[what]
    found = []
    for path in _modules():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for line, spelled in copies(tree, names):
            found.append(f"{path.relative_to(PACKAGE.parent)}:{line}: {', '.join(spelled)}")
    assert not found, f"a second copy of the {what}; derive it from the declaration:\n" + (
        "\n".join(found)
    )


@pytest.mark.parametrize(
    "source",
    [
        'ROLES = ("", "peer", "leadership")',
        'TITLES = {"peer": "Peer", "hiring-manager": "Hiring manager"}',
        'WORDS = (("peer", a), ("leadership", b))',
        'ok = role in ["peer", "hiring-manager"]',
        'def f(role):\n    if role == "peer":\n        pass\n    elif role == "leadership":\n'
        "        pass",
    ],
)
def test_a_second_copy_is_found(source: str) -> None:
    """The walk above finds each shape a copy takes (else it would pass on anything)."""
    assert copies(ast.parse(source), NAME_SETS["interviewer audiences"])


@pytest.mark.parametrize(
    "source",
    [
        'DEFAULT = "peer"\ndef f(role):\n    return role == "peer" or role in ("peer",)',
        # names of another kind that share two words with the set: not a copy of it
        'COMMANDS = ("today", "cue", "dnd", "stories", "journal", "about-me", "export")',
    ],
)
def test_what_is_no_copy(source: str) -> None:
    assert copies(ast.parse(source), NAME_SETS["checklist actions (link: names)"]) == []
    assert copies(ast.parse(source), NAME_SETS["interviewer audiences"]) == []
