"""The package's shape: no import cycles between its modules, and laziness only at seams.

The layer and Qt-free rules are import-linter contracts in pyproject.toml (`make lint`);
this test adds what a layers contract cannot see: two modules of one layer importing
each other, such as a page and one of its parts, and an import of our own modules hidden
in a function body where no seam names why.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

import companion

PACKAGE = Path(companion.__file__).parent

#: The only reasons an import of our own modules may sit in a function body, each named
#: in a ``# seam: <name>`` comment on the import or the line above it. Everything else is
#: imported at the top of its module, so the import graph is the design.
SEAMS = {
    "pages": "the page registry imports a page's module when it is first shown",
    "commands": "command dispatch imports a command's module when it runs",
    "voice": "the voice stack (pocketsphinx, QtMultimedia) loads when a microphone opens",
    "desktop adapters": "a desktop's hotkey and do-not-disturb backends, from one factory",
    "qt": "the launcher loads PySide6 and the window once the single-instance lock is held",
    "after the first paint": "what the first frame does not show loads after it",
    "journal": "the store (and sqlite-utils, 10 MiB) loads when a journal is first opened",
    "schema step": "a step's own code (hashlib's OpenSSL with it) loads when it is applied",
}
#: the issue's bound (#43); the count was 544 before the seams, 95 before the session and
#: the pages imported at their top, 39 after
MAX_IMPORTS_IN_FUNCTIONS = 40
_SEAM = re.compile(r"# seam: ([a-z][a-z ]*[a-z])")


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


def _imports(path: Path, modules: set[str], lazy: bool = False) -> set[str]:
    """The companion modules ``path`` imports at module level; with ``lazy``, also those
    it imports inside functions (a lazy import still ties the two modules together)."""
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
            elif lazy and isinstance(node, ast.stmt) and hasattr(node, "body"):
                visit(node.body)  # def, class, with, for, while, match arms' bodies
                visit(getattr(node, "orelse", []))
                for case in getattr(node, "cases", []):
                    visit(case.body)
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


def import_graph(lazy: bool = False) -> dict[str, set[str]]:
    paths = sorted(PACKAGE.rglob("*.py"))
    modules = {_module_name(p) for p in paths}
    return {_module_name(p): _imports(p, modules, lazy) for p in paths}


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
    # the round lengths name the content loader's types for the checker only
    graph = import_graph()
    assert "companion.core.content.loader" not in graph["companion.core.content.lengths"]


def test_the_graph_is_read_from_the_package():
    graph = import_graph()
    assert "companion.core.journal.entries" in graph["companion.core.journal.edits"]
    assert "companion.ui.cue.header" in graph["companion.ui.cue.window"]


def test_no_import_cycles_between_companion_modules():
    cycles = find_cycles(import_graph())
    assert cycles == [], "import cycles: " + "; ".join(" <-> ".join(c) for c in cycles)


def test_no_import_cycles_counting_imports_inside_functions():
    """A lazy import may stay for start-up, but it must not hide a cycle: the graph that
    counts imports inside functions is acyclic too."""
    cycles = find_cycles(import_graph(lazy=True))
    assert cycles == [], "import cycles: " + "; ".join(" <-> ".join(c) for c in cycles)


def test_the_lazy_graph_sees_imports_inside_functions():
    lazy = import_graph(lazy=True)
    # the launcher's qt seam: the application loads once the instance lock is held
    assert "companion.ui.app" in lazy["companion.ui.process.launch"]
    assert "companion.ui.app" not in import_graph()["companion.ui.process.launch"]


CORE = "companion.core"


def core_package_edges(graph: dict[str, set[str]]) -> dict[tuple[str, str], list[str]]:
    """The imports between the core's packages (a top-level module such as ``paths``
    counts as one): (importer, imported) -> the module imports that make the edge."""

    def package(module: str) -> str | None:
        parts = module.split(".")
        return parts[2] if module.startswith(CORE + ".") and len(parts) > 2 else None

    edges: dict[tuple[str, str], list[str]] = {}
    for module, targets in sorted(graph.items()):
        for target in sorted(targets):
            here, there = package(module), package(target)
            if here and there and here != there:
                edges.setdefault((here, there), []).append(f"{module} -> {target}")
    return edges


def package_cycles(graph: dict[str, set[str]]) -> list[str]:
    """Each cycle among the core's packages, as the edges inside it with their imports."""
    edges = core_package_edges(graph)
    packages: dict[str, set[str]] = {}
    for here, there in edges:
        packages.setdefault(here, set()).add(there)
    found = []
    for group in find_cycles(packages):
        inside = [
            f"{here} -> {there} ({', '.join(imports)})"
            for (here, there), imports in sorted(edges.items())
            if here in group and there in group
        ]
        found.append("; ".join(inside))
    return found


def test_the_package_cycle_finder_names_the_edges():
    graph = {
        "companion.core.paths": {"companion.core.storage.files"},
        "companion.core.storage.files": {"companion.core.platform.files"},
        "companion.core.storage.store": {"companion.core.paths"},
        "companion.core.storage": set(),
        "companion.core.platform.files": set(),
    }
    assert package_cycles(graph) == [
        "paths -> storage (companion.core.paths -> companion.core.storage.files); "
        "storage -> paths (companion.core.storage.store -> companion.core.paths)"
    ]
    del graph["companion.core.paths"]
    assert package_cycles(graph) == []


def test_no_cycle_among_the_core_packages():
    """The core's packages are layers (the import-linter contract in pyproject.toml
    names their order): counting imports inside functions, no package imports one that
    imports it back, however far round. A helper two packages need lives in the lower."""
    cycles = package_cycles(import_graph(lazy=True))
    assert cycles == [], "core packages in a cycle: " + " | ".join(cycles)


def imports_in_functions() -> list[tuple[str, str]]:
    """Each import of our own modules inside a function: (``file:line``, its seam or "")."""
    found: dict[str, str] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        lines = text.splitlines()
        tree = ast.parse(text)
        # a seam's comment names the import below it and those right after it
        in_imports = {
            line
            for node in ast.walk(tree)
            if isinstance(node, ast.Import | ast.ImportFrom)
            for line in range(node.lineno, node.end_lineno + 1)
        }
        for node in ast.walk(tree):
            if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            for sub in ast.walk(node):
                ours = (
                    isinstance(sub, ast.ImportFrom)
                    and (sub.level > 0 or (sub.module or "").startswith("companion"))
                ) or (
                    isinstance(sub, ast.Import)
                    and any(alias.name.startswith("companion") for alias in sub.names)
                )
                if ours:
                    first = sub.lineno
                    while first > 1 and (
                        first - 1 in in_imports or lines[first - 2].lstrip().startswith("#")
                    ):
                        first -= 1
                    seam = _SEAM.search("\n".join(lines[first - 2 : sub.end_lineno]))
                    where = f"{path.relative_to(PACKAGE.parent)}:{sub.lineno}"
                    found[where] = seam.group(1).strip() if seam else ""  # once if nested
    return sorted(found.items())


def test_imports_inside_functions_sit_at_named_seams():
    found = imports_in_functions()
    unnamed = [where for where, seam in found if seam not in SEAMS]
    assert unnamed == [], "import at the top, or name the seam (SEAMS): " + ", ".join(unnamed)


def test_few_imports_sit_inside_functions():
    """Laziness lives at a few seams: a module that is itself imported lazily (the
    session, a page) imports at its top, and only what it loads on demand stays in a
    function."""
    found = imports_in_functions()
    assert len(found) <= MAX_IMPORTS_IN_FUNCTIONS, f"{len(found)} imports inside functions"


def test_the_seam_finder_sees_an_unnamed_import(tmp_path, monkeypatch):
    (tmp_path / "companion").mkdir()
    (tmp_path / "companion" / "mod.py").write_text(
        "def f():\n    from companion.core import text\n"
        "def g():\n    # seam: qt\n    from companion.ui import app\n"
    )
    monkeypatch.setitem(globals(), "PACKAGE", tmp_path / "companion")
    assert imports_in_functions() == [("companion/mod.py:2", ""), ("companion/mod.py:5", "qt")]


def test_the_readme_architecture_map_matches_the_tree():
    readme = (PACKAGE.parent / "docs" / "architecture.md").read_text(encoding="utf-8")
    section = readme.split("# Architecture", 1)[1].split("\n## ", 1)[0]
    for side in ("core", "ui"):
        folders = {p.name for p in (PACKAGE / side).iterdir() if (p / "__init__.py").is_file()}
        for folder in folders:
            assert f" {folder}/" in section, f"docs/architecture.md's map misses {side}/{folder}/"
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
                    assert (PACKAGE / side / name).is_dir(), (
                        f"docs/architecture.md names {side}/{name}"
                    )


def _string_literals(path: Path) -> list[str]:
    """The string constants of a module, docstrings left out."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docs = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr):
            docs.add(id(body[0].value))
    return [
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs
    ]


@pytest.mark.parametrize(
    ("name", "home"),
    [
        ("prefs.json", "core/paths.py"),
        ("backups", "core/paths.py"),
        (".instance.lock", "core/paths.py"),
        ("dnd-state.json", "core/paths.py"),
        ("today.shown_loop", "ui/day/service.py"),
    ],
)
def test_a_file_or_pref_name_is_spelled_once(name, home):
    """A name spelled in two places drifts: one module says it, the others ask it. A
    setting's key is also in its declaration (core/setting_homes.py), which
    tests/core/test_setting_homes.py holds to the module that uses it."""
    spelled = [
        str(path.relative_to(PACKAGE))
        for path in sorted(PACKAGE.rglob("*.py"))
        for text in _string_literals(path)
        if (text == name or text.endswith(f"/{name}")) and path.name != "setting_homes.py"
    ]
    assert spelled == [home]


def _guarded_imports(path: Path) -> list[str]:
    """Modules imported inside a ``try`` whose handler catches ImportError."""
    guarded = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.Try):
            continue
        names = set()
        for handler in node.handlers:
            kinds = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
            names |= {k.id for k in kinds if isinstance(k, ast.Name)}
        if not names & {"ImportError", "ModuleNotFoundError"}:
            continue
        for inner in node.body:
            for sub in ast.walk(inner):
                if isinstance(sub, ast.ImportFrom) and sub.module:
                    guarded.append(sub.module)
                elif isinstance(sub, ast.Import):
                    guarded += [alias.name for alias in sub.names]
    return guarded


def test_only_third_party_imports_are_guarded():
    """`except ImportError` around one of our own modules turns a broken module into a
    silent zero (a flagged count of 0, an export without planned questions); only an
    optional third-party import (QtMultimedia, fcntl off POSIX) may be guarded."""
    ours = [
        f"{path.relative_to(PACKAGE)}: {name}"
        for path in sorted(PACKAGE.rglob("*.py"))
        for name in _guarded_imports(path)
        if name == "companion" or name.startswith("companion.")
    ]
    assert ours == []
