"""Usage errors in one line, for every command's parser: `companion: <command>: <what is
wrong>; see companion <command> --help`, exit 2, no usage block, no traceback."""

from __future__ import annotations

import argparse
import importlib
import io
import json
import re
import subprocess
import sys
from pathlib import Path

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


# --- every --help says what the docs say about that command ------------------------------

ROOT = Path(__file__).resolve().parent.parent
#: the phrases each command's --help and its docs both hold; the commands' own modules list
#: theirs (DOCUMENTED), these are the others this check covers
PHRASES = {
    "companion today": ("--at", "without a zone", "local time"),
    "companion review": ("--at", "local time"),
}
for _module in ("schedule", "journal", "export"):
    PHRASES.update(importlib.import_module(f"companion.commands.{_module}").DOCUMENTED)


def _plain(text: str) -> str:
    return " ".join(text.replace("`", "").split()).lower()


def help_text(command: str) -> str:
    parser = build_parser()
    for name in command.split()[1:]:
        (sub,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
        parser = sub.choices[name]
    return _plain(parser.format_help())


def docs_text(command: str) -> str:
    """What the docs (README.md, and docs/ once the README is split) say about
    ``command``: each part from a paragraph or usage line that names it (`companion
    schedule import`) to the next heading, wherever the docs put it."""
    named = re.compile(rf"(`|^ {{4}}){re.escape(command)}(?![\w-])(?! [a-z])")
    parts = []
    for path in [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]:
        lines = path.read_text(encoding="utf-8").splitlines()
        for n, line in enumerate(lines):
            if named.search(line) and not line.startswith("|"):
                end = next((m for m in range(n + 1, len(lines)) if lines[m].startswith("#")), None)
                parts.append("\n".join(lines[n:end]))
    return _plain("\n".join(parts))


@pytest.mark.parametrize("command", sorted(PHRASES))
def test_every_help_says_what_the_docs_say(command):
    helped, documented = help_text(command), docs_text(command)
    assert documented, f"the docs have no section for `{command}`"
    for phrase in PHRASES[command]:
        assert _plain(phrase) in helped, f"`{command} --help` does not say {phrase!r}"
        assert _plain(phrase) in documented, f"the docs of `{command}` do not say {phrase!r}"


def test_the_check_finds_a_phrase_missing_from_a_help():
    assert "standard input" in help_text("companion schedule import")
    assert "standard input" not in help_text("companion today")


@pytest.mark.parametrize(
    "command",
    [
        "companion schedule import",
        "companion journal export",
        "companion journal import",
        "companion export study-list",
    ],
)
def test_every_option_of_a_file_command_has_help(command):
    parser = build_parser()
    for name in command.split()[1:]:
        (sub,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
        parser = sub.choices[name]
    bare = [a.option_strings or a.dest for a in parser._actions if not a.help]
    assert bare == [], f"{command}: {bare} without help"


# --- '-' is standard input or output wherever a file is named ----------------------------


def _run(argv, stdin: bytes = b"", cwd=None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "companion", *argv],
        input=stdin,
        capture_output=True,
        cwd=cwd,
        timeout=120,
    )


def test_dash_is_standard_output_and_input_for_the_journal(tmp_path):
    source, copy = tmp_path / "a", tmp_path / "b"
    invite = (ROOT / "tests" / "data" / "invitations" / "teams-peer.ics").read_bytes()
    done = _run(
        ["--data-dir", str(source), "schedule", "import", "-", "--company", "Northwind"], invite
    )
    assert done.returncode == 0, done.stderr
    assert b"Made loop Northwind" in done.stdout
    exported = _run(["--data-dir", str(source), "journal", "export", "-o", "-"], cwd=tmp_path)
    assert exported.returncode == 0, exported.stderr
    assert json.loads(exported.stdout)["format"] == "interview-companion-journal"
    assert b"Wrote 1 loop to standard output." in exported.stderr
    assert not (tmp_path / "-").exists()  # no file named '-'
    imported = _run(["--data-dir", str(copy), "journal", "import", "-"], exported.stdout)
    assert imported.returncode == 0, imported.stderr
    assert imported.stdout.startswith(b"Imported 1 loop")


def test_dash_is_standard_output_for_the_study_list(tmp_path):
    done = _run(
        ["--data-dir", str(tmp_path / "d"), "export", "study-list", "-o", "-"], cwd=tmp_path
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(b"# Study list")
    assert b"to standard output (md)" in done.stderr and not (tmp_path / "-").exists()


def test_bad_standard_input_is_one_line_naming_it(tmp_path):
    done = _run(["--data-dir", str(tmp_path / "d"), "schedule", "import", "-"], b"not a calendar")
    assert done.returncode == 1
    assert done.stderr.decode().startswith("companion: standard input: line 1: not an iCalendar")
    assert done.stderr.count(b"\n") == 1
    done = _run(["--data-dir", str(tmp_path / "d"), "journal", "import", "-"], b"{")
    assert done.returncode == 1 and b"standard input: not valid JSON" in done.stderr


PITCH = "# About me\n\nBackend engineer, seven years of payments at scale.\n"


def test_dash_is_standard_output_for_the_one_pager(tmp_path):
    pitch = tmp_path / "pitch.md"
    pitch.write_text(PITCH, encoding="utf-8")
    data = ["--data-dir", str(tmp_path / "d")]
    done = _run([*data, "about", "export", "--input", str(pitch), "-o", "-"], cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert b"seven years of payments" in done.stdout  # Markdown unless --format says
    assert done.stderr == b"wrote standard output (md)\n" and not (tmp_path / "-").exists()
    pdf = _run(
        [*data, "about", "export", "--input", str(pitch), "--format", "pdf", "-o", "-"],
        cwd=tmp_path,
    )
    assert pdf.returncode == 0, pdf.stderr
    assert pdf.stdout.startswith(b"%PDF-") and pdf.stdout.rstrip().endswith(b"%%EOF")


class _Terminal(io.TextIOWrapper):
    def isatty(self) -> bool:
        return True


def test_a_terminal_shows_an_export_it_is_sent_not_obeys_it(monkeypatch):
    """On a terminal, the data sent to standard output goes through the one writer (a
    stranger's escape sequence made visible); a PDF there is refused in one line."""
    from companion.commands.common import CommandError
    from companion.commands.stdio import stdout_file

    screen = io.BytesIO()
    monkeypatch.setattr(sys, "stdout", _Terminal(screen, encoding="utf-8"))
    with stdout_file("journal.json") as path:
        path.write_text('{"company": "Acme\x1b]0;pwned\x07"}\r\n', encoding="utf-8")
    sys.stdout.flush()
    assert screen.getvalue() == b'{"company": "Acme\\u001b]0;pwned\\u0007"}\n'
    refused = pytest.raises(CommandError, match="about-me.pdf is not text")
    with refused, stdout_file("about-me.pdf") as path:
        path.write_bytes(b"%PDF-1.4\n\xe2\xe3\xcf\xd3\n")
    sys.stdout.flush()
    assert screen.getvalue().count(b"\n") == 1  # nothing of the PDF reached the screen


def test_a_pipe_gets_the_exact_bytes(monkeypatch):
    from companion.commands.stdio import stdout_file

    pipe = io.BytesIO()
    monkeypatch.setattr(sys, "stdout", io.TextIOWrapper(pipe, encoding="utf-8"))
    data = b'a,"=cmd|x"\r\n\xe2\x80\xae\x1b[2J\n'
    with stdout_file("study-list.csv") as path:
        path.write_bytes(data)
    assert pipe.getvalue() == data


def test_dash_is_standard_input_for_the_one_pager(tmp_path):
    data = ["--data-dir", str(tmp_path / "d")]
    done = _run([*data, "about", "analyze", "-", "--wpm", "150", "--json"], PITCH.encode())
    assert done.returncode == 0, done.stderr
    pitch = tmp_path / "pitch.md"
    pitch.write_text(PITCH, encoding="utf-8")
    from_file = _run([*data, "about", "analyze", str(pitch), "--wpm", "150", "--json"])
    analysis, expected = json.loads(done.stdout), json.loads(from_file.stdout)
    assert analysis.pop("source") == "standard input" and expected.pop("source") == str(pitch)
    assert analysis == expected and analysis["warnings"]  # the same analysis as of the file
    both = _run([*data, "about", "export", "--input", "-", "-o", "-"], PITCH.encode())
    assert both.returncode == 0 and both.stdout.decode() == PITCH, both.stderr
    odd = _run([*data, "about", "analyze", "-", "--wpm", "150"], b"# Me\n\xff\x01 seven\n")
    assert odd.returncode == 0, odd.stderr
    warnings = odd.stderr.decode().splitlines()
    assert warnings and all(w.startswith("companion about: warning: ") for w in warnings)
    assert "from standard input." in warnings[-1] and "one-pager.md" not in odd.stderr.decode()


def test_dash_for_the_story_bank(data_dir, tmp_path, monkeypatch, capsys):
    from companion.core.about import store as about_store
    from companion.core.context import AppContext

    bank = "## Story: Cut GPU cost\nTags: ownership\nResult: Spend fell 40%.\n"
    ctx = AppContext(data_dir)
    about_store.save_text(ctx.db, bank, ctx.now(), doc="stories")
    ctx.close()
    monkeypatch.chdir(tmp_path)
    assert main(["--data-dir", str(data_dir), "stories", "export", "-o", "-"]) == 0
    done = capsys.readouterr()
    assert done.out == bank and done.err == "wrote standard output (md)\n"
    assert not (tmp_path / "-").exists()
    broken = b"## Story: A\nTags: own!rship\nResult: 3x\n"
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(broken)))
    assert main(["--data-dir", str(data_dir), "stories", "check", "-"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("error: standard input:2: ") and "own!rship" in err


def _silent_wav(seconds: float = 1.0) -> bytes:
    import wave

    buffer = io.BytesIO()
    with wave.open(buffer, "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(16000)
        out.writeframes(b"\0\0" * int(16000 * seconds))
    return buffer.getvalue()


def test_dash_is_standard_input_for_a_take(data_dir, tmp_path, monkeypatch, capsys):
    page, take = tmp_path / "about.md", tmp_path / "take.wav"
    page.write_text(PITCH, encoding="utf-8")
    take.write_bytes(_silent_wav())
    argv = ["--data-dir", str(data_dir), "about", "rehearse", "--input", str(page), "--json"]
    assert main([*argv, "--audio", str(take)]) == 1  # silence: no speech heard
    expected = json.loads(capsys.readouterr().out)
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(take.read_bytes())))
    assert main([*argv, "--audio", "-"]) == 1
    figures = json.loads(capsys.readouterr().out)
    assert figures.pop("audio") == "standard input" and expected.pop("audio") == str(take)
    assert figures == expected and figures["verdict"] == "no speech heard"
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"RIFF\0\0")))
    assert main([*argv, "--audio", "-"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("companion: about: standard input") and "companion-stdin" not in err
    both = ["--data-dir", str(data_dir), "about", "rehearse", "--audio", "-", "--input", "-"]
    assert main(both) == 2


def test_standard_input_is_read_once_and_only_as_much_as_a_file_may_hold(
    data_dir, monkeypatch, capsys
):
    from companion.core.fileio import LIMITS

    argv = ["--data-dir", str(data_dir)]
    assert main([*argv, "journal", "import", "-", "-"]) == 2
    assert "standard input (-) can be read once" in capsys.readouterr().err
    too_big = b"BEGIN:VCALENDAR\r\n" + b"X" * LIMITS["calendar"]
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(too_big)))
    assert main([*argv, "schedule", "import", "-", "--company", "Acme"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "standard input holds more than a calendar file may" in err
    from companion.core.context import AppContext
    from companion.core.day.loops import list_loops

    ctx = AppContext(data_dir)
    assert list_loops(ctx.db) == []  # nothing of it was read, so nothing imported
    ctx.close()


@pytest.mark.parametrize(
    ("argv", "name"),
    [
        (["schedule", "import", "{path}", "--company", "Acme"], "fifo.ics"),
        (["journal", "import", "{path}"], "fifo.json"),
        (["about", "rehearse", "--audio", "{path}"], "fifo.wav"),
        (["about", "analyze", "{path}"], "fifo.md"),
        (["about", "export", "--input", "{path}", "-o", "{out}"], "fifo.md"),
        (["stories", "check", "{path}"], "fifo.md"),
    ],
)
def test_a_fifo_named_on_the_command_line_is_named_by_its_path(
    argv, name, data_dir, tmp_path, capsys
):
    """Only ``-`` is standard input: a FIFO given by name keeps its own path in the
    one-line error (it was named "standard input" by schedule import, and twice over,
    "/tmp/x//tmp/x/fifo.md", by about and stories)."""
    import os

    fifo = tmp_path / name
    os.mkfifo(fifo)
    argv = [a.replace("{path}", str(fifo)).replace("{out}", str(tmp_path / "o.md")) for a in argv]
    assert main(["--data-dir", str(data_dir), *argv]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "standard input" not in err, err
    assert f" {fifo} is a FIFO (named pipe)" in err and f"{tmp_path}/{tmp_path}" not in err


@pytest.mark.parametrize("name", ["/dev/zero", "{tmp}/sub/deep.ics"])
def test_schedule_import_names_a_device_or_a_broken_file_by_its_path(
    name, data_dir, tmp_path, capsys
):
    (tmp_path / "sub").mkdir()
    deep = tmp_path / "sub" / "deep.ics"
    deep.write_text("BEGIN:VCALENDAR\nBEGIN:VEVENT\nBEGIN:VEVENT\n" + "BEGIN:VALARM\n" * 300)
    path = name.replace("{tmp}", str(tmp_path))
    assert main(["--data-dir", str(data_dir), "schedule", "import", path]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"companion: {path}") and "standard input" not in err, err
