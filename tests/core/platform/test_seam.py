"""No desktop-only call outside the platform seam: an AST scan of the package (fast, in
every run) and `make lint`'s mypy comparison (tests/platform_lint.py) on a planted call."""

from __future__ import annotations

import ast
import textwrap
from pathlib import Path

import platform_lint
import pytest

PACKAGE = Path(__file__).resolve().parents[3] / "companion"
SEAM = (PACKAGE / "core" / "platform", PACKAGE / "ui" / "platform")
# what exists on one desktop only: POSIX's ids, locks, signals-as-liveness, mounts...
OS_ONLY = {
    "geteuid", "getuid", "getegid", "getgid", "kill", "killpg", "statvfs", "fork",
    "setsid", "fchown", "O_DIRECTORY", "O_NOFOLLOW",
}  # fmt: skip
MODULES_ONLY = {"fcntl", "pwd", "grp", "termios", "resource", "msvcrt", "winreg", "_winapi"}
CTYPES_ONLY = {"windll", "WinDLL", "oledll", "WINFUNCTYPE"}


def desktop_only_calls(source: str) -> list[str]:
    """``os.geteuid``, ``import fcntl``, ``ctypes.windll``... in ``source``, by line."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            if (node.value.id == "os" and node.attr in OS_ONLY) or (
                node.value.id == "ctypes" and node.attr in CTYPES_ONLY
            ):
                found.append(f"{node.lineno}: {node.value.id}.{node.attr}")
        elif isinstance(node, ast.Import | ast.ImportFrom):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else []
            names += [node.module or ""] if isinstance(node, ast.ImportFrom) else []
            found += [f"{node.lineno}: import {n}" for n in names if n in MODULES_ONLY]
    return sorted(found, key=lambda line: int(line.split(":")[0]))


def test_the_scan_finds_what_it_looks_for():
    planted = (
        "import os, fcntl\nfrom pwd import getpwuid\nos.geteuid()\nimport ctypes\nctypes.windll\n"
    )
    assert desktop_only_calls(planted) == [
        "1: import fcntl", "2: import pwd", "3: os.geteuid", "5: ctypes.windll",
    ]  # fmt: skip
    assert desktop_only_calls("import os\nos.getpid()\nos.name\n") == []


def test_no_desktop_only_call_outside_the_seam():
    outside = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        if any(path.is_relative_to(seam) for seam in SEAM):
            continue
        calls = desktop_only_calls(path.read_text(encoding="utf-8"))
        if calls:
            outside[str(path.relative_to(PACKAGE.parent))] = calls
    assert outside == {}, "call these through companion/core/platform or companion/ui/platform"


@pytest.mark.slow
def test_make_lint_fails_on_a_new_geteuid_and_passes_it_guarded(tmp_path):
    bare = tmp_path / "bare.py"
    bare.write_text("import os\n\ndef mine(st):\n    return st.st_uid == os.geteuid()\n")
    guarded = tmp_path / "guarded.py"
    guarded.write_text(
        textwrap.dedent(
            """
            import os, sys

            def mine(st):
                if sys.platform == "win32":
                    return True
                return st.st_uid == os.geteuid()
            """
        )
    )
    cache = str(tmp_path / "cache")
    found = platform_lint.platform_only([str(bare)], cache)
    assert [line.split(": error:")[0] for line in found["win32"]] == [f"{bare}:4"]
    assert found["darwin"] == []  # macOS has it
    assert platform_lint.platform_only([str(guarded)], cache) == {"win32": [], "darwin": []}
    assert platform_lint.main([str(bare)]) == 1
