"""Every line a command writes goes through one writer (core/text.py `say`): a
stranger's escape sequence never reaches the terminal raw, and a terminal that is not
UTF-8 gets text it can show, never a traceback."""

from __future__ import annotations

import ast
import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from companion.cli import main
from companion.core.day.loops import add_round, create_loop

COMMANDS = Path(__file__).parents[2] / "companion"
HOSTILE = "Acme\x1b]0;pwned\x07\x1b[2J\x1b]52;c;ZWNobyBoaQ==\x07\x9b31m\u202e"


def _raw_writes(path: Path) -> list[int]:
    """Lines of ``path`` that print or write to stdout/stderr without the writer."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    lines = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        if isinstance(func, ast.Name) and func.id == "print":
            lines.append(node.lineno)
        elif isinstance(func, ast.Attribute) and func.attr in ("write", "buffer"):
            target = ast.unparse(func.value)
            if target.startswith(("sys.stdout", "sys.stderr", "sys.__stdout__")):
                lines.append(node.lineno)
    return lines


def test_no_command_writes_past_the_one_writer():
    files = [*sorted((COMMANDS / "commands").glob("*.py")), COMMANDS / "cli.py"]
    files.append(COMMANDS / "selftest.py")
    found = {}
    for path in files:
        lines = _raw_writes(path)
        if path.name == "common.py":  # re-exports the writer; writes nothing itself
            assert lines == [], lines
            continue
        if lines:
            found[path.name] = lines
    assert found == {}


def test_the_scan_finds_a_raw_print(tmp_path):
    sample = tmp_path / "cmd.py"
    sample.write_text("import sys\nprint('x')\nsys.stdout.write('y')\nsys.stderr.write('z')\n")
    assert _raw_writes(sample) == [2, 3, 4]


def _hostile_journal(ctx):
    loop_id = create_loop(ctx.db, HOSTILE, "Engineer \u2014 backend", starts_on="2026-12-02")
    add_round(ctx.db, loop_id, "design")
    ctx.db.close()


@pytest.mark.parametrize("command", [["today", "--at", "2026-12-02T09:00"], ["debrief"]])
def test_an_escape_sequence_in_the_journal_is_shown_not_obeyed(data_dir, ctx, capsys, command):
    _hostile_journal(ctx)
    assert main(["--data-dir", str(data_dir), *command]) == 0
    out = capsys.readouterr().out
    assert "Acme" in out
    assert not any(c in out for c in "\x1b\x07\x9b\u202e")
    assert "\\u001b]0;pwned\\u0007" in out


@pytest.mark.parametrize("command", [["today", "--json"], ["debrief", "--json"]])
def test_json_output_keeps_the_text_and_stays_safe(data_dir, ctx, capsys, command):
    _hostile_journal(ctx)
    assert main(["--data-dir", str(data_dir), *command]) == 0
    out = capsys.readouterr().out
    assert not any(c in out for c in "\x1b\x07\x9b\u202e")
    assert any(HOSTILE in text for text in _strings(json.loads(out)))


def _strings(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict | list):
        for item in value.values() if isinstance(value, dict) else value:
            yield from _strings(item)


@pytest.mark.parametrize("encoding", ["ascii", "latin-1"])
@pytest.mark.parametrize("command", [["today", "--at", "2026-12-02T09:00"], ["debrief"]])
def test_a_terminal_that_is_not_utf8_gets_text_not_a_traceback(
    data_dir, ctx, monkeypatch, encoding, command
):
    _hostile_journal(ctx)
    out = io.TextIOWrapper(io.BytesIO(), encoding=encoding, errors="strict")
    monkeypatch.setattr(sys, "stdout", out)
    assert main(["--data-dir", str(data_dir), *command]) == 0
    out.flush()
    text = out.buffer.getvalue().decode(encoding)
    assert "Engineer - backend" in text or command == ["debrief"]
    assert "Acme" in text


def test_json_on_an_ascii_terminal_parses_back_to_the_same_text(data_dir, ctx, monkeypatch):
    _hostile_journal(ctx)
    out = io.TextIOWrapper(io.BytesIO(), encoding="ascii", errors="strict")
    monkeypatch.setattr(sys, "stdout", out)
    assert main(["--data-dir", str(data_dir), "debrief", "--json"]) == 0
    out.flush()
    assert json.loads(out.buffer.getvalue())["loops"][0]["company"] == HOSTILE


def test_a_usage_error_does_not_echo_an_escape_sequence(capsys, data_dir):
    with pytest.raises(SystemExit) as exit_:
        main(["--data-dir", str(data_dir), "about", "takes", "\x1b]0;x\x07"])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert "\x1b" not in err and "\\u001b]0;x\\u0007" in err


def test_the_installed_command_on_an_ascii_terminal(data_dir, ctx):
    _hostile_journal(ctx)
    done = subprocess.run(
        [sys.executable, "-m", "companion", "--data-dir", str(data_dir), "debrief"],
        capture_output=True,
        env={"PYTHONIOENCODING": "ascii", "PATH": "/usr/bin:/bin", "HOME": str(data_dir)},
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert b"\x1b" not in done.stdout and b"Acme" in done.stdout
