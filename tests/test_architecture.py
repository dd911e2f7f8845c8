"""The package's shape: no import cycles between its modules.

The layer and Qt-free rules are import-linter contracts in pyproject.toml (`make lint`);
this test adds what a layers contract cannot see: two modules of one layer importing
each other, such as a page and one of its parts.
"""

from __future__ import annotations

import ast
from pathlib import Path

import companion

PACKAGE = Path(companion.__file__).parent


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _type_checking_only(node: ast.AST) -> bool:
    """``if TYPE_CHECKING:`` (or ``typing.TYPE_CHECKING``): its body is never executed."""
    if not isinstance(node, ast.If):
        return False
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports(path: Path, modules: set[str]) -> set[str]:
    """The companion modules ``path`` imports at module level (not inside functions)."""
    name = _module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()

    def visit(nodes) -> None:
        for node in nodes:
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    up = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join(up + ([base] if base else []))
                # "from companion.core import text" imports the module companion.core.text;
                # "from companion.core.text import clean_text" imports companion.core.text
                targets = [
                    f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base
                    for alias in node.names
                ]
            elif isinstance(node, ast.If | ast.Try):
                if not _type_checking_only(node):  # type-only imports never run
                    visit(node.body)
                visit(getattr(node, "orelse", []))
                for handler in getattr(node, "handlers", []):
                    visit(handler.body)
                visit(getattr(node, "finalbody", []))
                continue
            else:
                continue
            for target in targets:
                while target and target not in modules:
                    target = target.rpartition(".")[0]
                if target and target != name:
                    found.add(target)

    visit(ast.parse(path.read_text(encoding="utf-8")).body)
    return found


def import_graph() -> dict[str, set[str]]:
    paths = sorted(PACKAGE.rglob("*.py"))
    modules = {_module_name(p) for p in paths}
    return {_module_name(p): _imports(p, modules) for p in paths}


def find_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every strongly connected group of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def connect(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in graph.get(node, ()):
            if nxt not in index:
                connect(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            connect(node)
    return groups


def test_the_finder_sees_a_cycle():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert find_cycles(graph) == [["a", "b", "c"]]
    assert find_cycles({"a": {"b"}, "b": set()}) == []


def test_type_checking_imports_are_not_edges():
    tree = ast.parse(
        "if TYPE_CHECKING:\n    pass\nif typing.TYPE_CHECKING:\n    pass\nif x:\n    pass\n"
    )
    assert [_type_checking_only(node) for node in tree.body] == [True, True, False]
    # content.py names content_plans' types for the checker only; it imports content_fields
    graph = import_graph()
    assert "companion.core.content_plans" not in graph["companion.core.content"]
    assert "companion.core.content_fields" in graph["companion.core.content"]


def test_the_graph_is_read_from_the_package():
    graph = import_graph()
    assert "companion.core.journal.entries" in graph["companion.core.journal.edits"]
    assert "companion.ui.cue.header" in graph["companion.ui.cue.window"]


def test_no_import_cycles_between_companion_modules():
    cycles = find_cycles(import_graph())
    assert cycles == [], "import cycles: " + "; ".join(" <-> ".join(c) for c in cycles)


def test_the_readme_architecture_map_matches_the_tree():
    readme = (PACKAGE.parent / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Architecture", 1)[1].split("\n## ", 1)[0]
    for side in ("core", "ui"):
        folders = {p.name for p in (PACKAGE / side).iterdir() if (p / "__init__.py").is_file()}
        for folder in folders:
            assert f" {folder}/" in section, f"README's architecture map misses {side}/{folder}/"
    block = section.split("    companion/", 1)[1].split("\n\n", 1)[0]
    side = ""
    for line in block.splitlines():
        if line.startswith("      ") and not line.startswith("       "):
            side = line.split()[0].rstrip("/")
        elif line.startswith("        ") and not line.startswith("         ") and side:
            for name in line.split():  # the leading folder names of an entry
                if not name.endswith("/"):
                    break
                if "(coming)" not in line:
                    assert (PACKAGE / side / name).is_dir(), f"README names {side}/{name}"
