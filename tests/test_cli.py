"""The foundation's commands: --version, doctor, content check, the GUI fast path."""

from __future__ import annotations

import sqlite3
import subprocess
import sys

import pytest
from demo_journal import companion_with_demo

from companion import __version__
from companion.cli import _gui_fast_path, main
from companion.commands import COMMANDS


def test_version(capsys):
    with pytest.raises(SystemExit) as done:
        main(["--version"])
    assert done.value.code == 0
    assert __version__ in capsys.readouterr().out


def test_doctor_only_reports_on_a_fresh_folder(tmp_path, capsys):
    fresh = tmp_path / "fresh"
    assert main(["--data-dir", str(fresh), "doctor"]) == 0
    out = capsys.readouterr().out
    assert "no journal yet" in out and out.rstrip().endswith("healthy")
    assert not fresh.exists()  # a check creates nothing


def test_doctor_repair_creates_a_fresh_journal(data_dir, capsys):
    assert main(["--data-dir", str(data_dir), "doctor", "--repair"]) == 0
    out = capsys.readouterr().out
    assert "integrity: ok" in out
    assert "journal mode: wal" in out
    assert str(data_dir) in out
    assert out.rstrip().endswith("healthy")
    assert (data_dir / "companion.sqlite3").stat().st_mode & 0o777 == 0o600
    assert data_dir.stat().st_mode & 0o777 == 0o700


def test_doctor_reports_a_damaged_database_and_repair_moves_it_aside(data_dir, capsys):
    db_file = data_dir / "companion.sqlite3"
    db_file.write_bytes(b"\x00junk" * 200)
    before = sorted(p.name for p in data_dir.iterdir())
    assert main(["--data-dir", str(data_dir), "doctor"]) == 1
    out = capsys.readouterr().out
    assert "is not an SQLite database" in out and "doctor --repair" in out
    assert "UNHEALTHY" in out
    assert sorted(p.name for p in data_dir.iterdir()) == before  # nothing moved
    assert db_file.read_bytes() == b"\x00junk" * 200
    assert main(["--data-dir", str(data_dir), "doctor", "--repair"]) == 0
    out = capsys.readouterr().out
    assert "repaired:" in out and "moved aside" in out
    assert list(data_dir.glob("companion.sqlite3.damaged-*"))


def test_doctor_never_writes_to_an_existing_journal(data_dir, capsys):
    assert companion_with_demo(["--data-dir", str(data_dir), "demo", "--loops", "2"]) == 0
    db_file = data_dir / "companion.sqlite3"
    conn = sqlite3.connect(db_file)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    before = {p.name: p.read_bytes() for p in data_dir.iterdir() if p.is_file()}
    assert main(["--data-dir", str(data_dir), "doctor"]) == 0
    assert main(["--data-dir", str(data_dir), "journal", "import", str(data_dir / "nope")]) == 1
    after = {p.name: p.read_bytes() for p in data_dir.iterdir() if p.is_file()}
    assert after.get("companion.sqlite3") == before["companion.sqlite3"]
    capsys.readouterr()


def test_doctor_is_unhealthy_for_a_newer_database(data_dir, capsys):
    conn = sqlite3.connect(data_dir / "companion.sqlite3")
    conn.execute("PRAGMA user_version = 999")
    conn.execute("CREATE TABLE x (y)")
    conn.commit()
    conn.close()
    assert main(["--data-dir", str(data_dir), "doctor"]) == 1
    assert "newer version" in capsys.readouterr().out


def test_doctor_lists_content_errors_from_the_user_folder(data_dir, capsys):
    (data_dir / "content").mkdir()
    (data_dir / "content" / "bad.md").write_text("no front matter\n", encoding="utf-8")
    assert main(["--data-dir", str(data_dir), "doctor"]) == 1
    assert "bad.md:1:" in capsys.readouterr().out


def test_content_check_passes_on_the_shipped_pack(capsys):
    assert main(["content", "check"]) == 0
    assert "0 errors" in capsys.readouterr().out


def test_content_check_of_a_missing_folder_says_so(tmp_path, capsys):
    assert main(["content", "check", str(tmp_path / "nope")]) == 2
    assert "is not a folder" in capsys.readouterr().err


def test_data_dir_option_wins_over_the_environment(data_dir, tmp_path, monkeypatch, capsys):
    other = tmp_path / "other"
    monkeypatch.setenv("COMPANION_HOME", str(data_dir))
    assert main(["--data-dir", str(other), "doctor", "--repair"]) == 0
    assert (other / "companion.sqlite3").exists()
    assert not (data_dir / "companion.sqlite3").exists()


@pytest.mark.parametrize(
    "argv, expected",
    [
        ([], (None, None)),
        (["--data-dir", "/x"], ("/x", None)),
        (["--data-dir=/x", "--page", "journal"], ("/x", "journal")),
    ],
)
def test_plain_gui_launches_take_the_fast_path(argv, expected):
    args = _gui_fast_path(argv)
    assert args is not None
    assert (str(args.data_dir) if args.data_dir else None, args.page) == expected


@pytest.mark.parametrize(
    "argv", [["doctor"], ["--version"], ["--data-dir"], ["--self-test"], ["-h"]]
)
def test_anything_else_goes_through_the_parser(argv):
    assert _gui_fast_path(argv) is None


def test_unknown_command_is_a_usage_error_not_a_traceback(capsys):
    with pytest.raises(SystemExit) as done:
        main(["no-such-command"])
    assert done.value.code == 2
    assert "invalid choice" in capsys.readouterr().err


def test_data_dir_may_follow_the_command(tmp_path, capsys):
    folder = tmp_path / "after"
    assert main(["doctor", "--data-dir", str(folder), "--repair"]) == 0
    assert (folder / "companion.sqlite3").exists()
    assert main(["content", "check", "--data-dir", str(folder)]) == 0


@pytest.mark.parametrize(
    "argv",
    [
        ["export", "study-list", "--format", "csv", "-o", "{tmp}/s.csv"],
        ["journal", "export", "--format", "json", "-o", "{tmp}/j.json"],
        ["demo", "--loops", "1"],
    ],
)
def test_commands_refuse_a_journal_they_cannot_open(argv, data_dir, tmp_path, capsys):
    """A command never writes to a throwaway journal: one clear line, exit 1, file kept."""
    conn = sqlite3.connect(data_dir / "companion.sqlite3")
    conn.execute("PRAGMA user_version = 999")
    conn.execute("CREATE TABLE x (y)")
    conn.commit()
    conn.close()
    before = (data_dir / "companion.sqlite3").read_bytes()
    argv = [a.replace("{tmp}", str(tmp_path)) for a in argv]
    assert companion_with_demo(["--data-dir", str(data_dir), *argv]) == 1
    err = capsys.readouterr().err
    assert err.startswith("companion: ") and "newer version" in err and "Traceback" not in err
    assert (data_dir / "companion.sqlite3").read_bytes() == before
    assert not list(tmp_path.glob("*.csv")) and not list(tmp_path.glob("*.json"))


@pytest.mark.parametrize("command", [["export", "study-list"], ["journal", "export"]])
def test_exports_to_a_missing_folder_are_usage_errors(command, data_dir, tmp_path, capsys):
    target = tmp_path / "no" / "such" / "out.txt"
    assert main(["--data-dir", str(data_dir), *command, "-o", str(target)]) == 2
    assert f"the folder {target.parent} does not exist" in capsys.readouterr().err


@pytest.mark.parametrize(
    "command",
    [["export", "study-list"], ["journal", "export"], ["about", "export"]],
)
@pytest.mark.parametrize("target", ["", "/dev/null", "{fifo}"])
def test_exports_refuse_empty_names_devices_and_fifos(command, target, data_dir, tmp_path, capsys):
    import os
    import stat

    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    target = target.replace("{fifo}", str(fifo))
    code = main(["--data-dir", str(data_dir), *command, "-o", target])
    err = capsys.readouterr().err
    assert code in (1, 2), err
    assert err.count("\n") == 1 and err.startswith("companion") and "Traceback" not in err
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)
    assert not [p for p in tmp_path.iterdir() if p.name != "pipe" and p.name != data_dir.name]


def test_journal_import_of_several_files_imports_all_or_none(tmp_path, capsys):
    files = []
    for n in range(2):
        src = tmp_path / f"src{n}"
        assert (
            companion_with_demo(["--data-dir", str(src), "demo", "--loops", "2", "--seed", str(n)])
            == 0
        )
        files.append(tmp_path / f"j{n}.json")
        assert main(["--data-dir", str(src), "journal", "export", "-o", str(files[-1])]) == 0
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "interview-companion-journal", "version": true}')
    data = tmp_path / "data"
    argv = ["--data-dir", str(data), "journal", "import"]
    assert main([*argv, *map(str, files), str(bad)]) == 1
    assert "bad.json" in capsys.readouterr().err
    assert main([*argv, *map(str, files)]) == 0
    out = capsys.readouterr().out
    assert "j0.json: Imported 2 loops" in out and "j1.json: Imported 2 loops" in out
    assert main([*argv, *map(str, files)]) == 0
    assert "Imported 0 loops and 0 entries" in capsys.readouterr().out


@pytest.mark.parametrize(
    "argv, command",
    [
        (["debrief", "--loop", "9223372036854775808"], "debrief"),
        (["debrief", "--loop", "x"], "debrief"),
        (["export", "study-list"], "export study-list"),
        (["hotkeys", "set"], "hotkeys set"),
        (["journal", "export"], "journal export"),
        (["stories", "check", "--json", "--nope=1", "a", "b"], None),
    ],
)
def test_usage_errors_are_one_line_naming_the_command(argv, command, data_dir, capsys):
    try:
        code = main(argv)  # a command's own usage check returns 2
    except SystemExit as done:  # argparse's exits
        code = done.code
    assert code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err and "usage:" not in err
    if command:
        assert err.startswith(f"companion: {command}: ")
        assert err.rstrip().endswith(f"; see companion {command} --help")


@pytest.mark.parametrize("suffix, marker", [(".csv", ","), (".json", "{")])
def test_study_list_format_follows_the_suffix(suffix, marker, data_dir, tmp_path, capsys):
    assert companion_with_demo(["demo", "--loops", "1"]) == 0
    out = tmp_path / f"list{suffix}"
    assert main(["export", "study-list", "-o", str(out)]) == 0
    text = out.read_text()
    assert not text.startswith("#") and marker in text.splitlines()[0]
    assert f"({suffix[1:]})" in capsys.readouterr().out


def test_the_command_line_loads_no_qt_until_a_window_is_asked_for():
    """Every command's parser is built for any command, so a command module that imported
    PySide6 at its top (the card's, after the import hoist) made `companion today` load Qt
    and the card's session, and a Ctrl+C in that import was lost: `companion cue` then ran
    on, or PySide6 broke half-imported (a traceback from the theme)."""
    probe = (
        "import sys\n"
        "from companion.cli import build_parser\n"
        "build_parser().parse_args(['today'])\n"
        "import companion.commands.cue\n"
        "print(sorted(m for m in sys.modules if m.startswith(('PySide6', 'companion.ui.session',"
        " 'companion.ui.app', 'pocketsphinx'))))\n"
    )
    assert _last_line(probe) == "[]"


def _last_line(code: str, *argv: str) -> str:
    """The last line ``code`` prints, run in a fresh interpreter (nothing loaded yet)."""
    out = subprocess.run([sys.executable, "-c", code, *argv], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    return out.stdout.splitlines()[-1]


_RUN = (  # `companion <argv>` in a fresh process, then a line of what it loaded
    "import sys\n"
    "from companion.cli import main\n"
    "try:\n"
    "    main(sys.argv[1:])\n"
    "except SystemExit:\n"
    "    pass\n"
)
_LOADED = (
    _RUN
    + "print('loaded:', *sorted(m for m in sys.modules if m.startswith('companion.commands.')))\n"
)


def _commands_loaded(argv: list[str]) -> set[str]:
    """The command modules (``companion.commands.<name>`` of a name in COMMANDS) that a
    fresh process running ``companion <argv>`` imported."""
    loaded = _last_line(_LOADED, *argv).removeprefix("loaded:").split()
    return {m.removeprefix("companion.commands.") for m in loaded} & set(COMMANDS)


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_a_command_imports_no_other_command(command):
    """Every command's module was imported for any command (to build its parser), so
    `companion about rehearse` paid for the study list's, the calendar's and the card's
    imports; `--help` declares the command's whole parser, so its module loads."""
    assert _commands_loaded([command, "--help"]) == {command}


@pytest.mark.parametrize(
    "argv, imported",
    [
        (["today"], {"today"}),
        (["export", "study-list", "-o", "{tmp}/list.md"], {"export"}),
        (["--help"], set()),  # the list of commands comes from COMMANDS
        (["nope"], set()),  # a usage error, as before
    ],
)
def test_running_a_command_imports_only_its_own_module(argv, imported, tmp_path):
    argv = ["--data-dir", str(tmp_path / "data"), *(a.format(tmp=tmp_path) for a in argv)]
    assert _commands_loaded(argv) == imported


def test_the_gui_path_imports_no_command_and_no_argparse():
    """A plain launch parses its few options by hand (_gui_fast_path) and starts the GUI,
    whose modules import no command (the layers contract): it stays at a bare window's
    cost."""
    probe = (
        "import sys\n"
        "from companion.cli import _gui_fast_path\n"
        "import companion.ui.process.launch\n"
        "assert _gui_fast_path(['--data-dir', 'x']) is not None\n"
        "print(sorted(m for m in sys.modules if m.startswith('companion.commands.')"
        " or m == 'argparse'))\n"
    )
    assert _last_line(probe) == "[]"


_HEAVY = _RUN + "print(sorted(m for m in ('sqlite_utils', '_hashlib') if m in sys.modules))\n"


@pytest.mark.parametrize("given_file", [True, False])
def test_a_rehearsal_never_imports_the_journals_library(tmp_path, given_file):
    """sqlite-utils is 10 and hashlib's OpenSSL 3.6 of `about rehearse`'s 40 MiB: a
    command given its one-pager as a file opens no journal, and one reading the saved
    one-pager reads it through the bare connection; neither loads them."""
    import datetime as dt
    import wave

    from companion.core.about.store import save_text
    from companion.core.context import AppContext

    take = tmp_path / "take.wav"
    with wave.open(str(take), "wb") as wav:
        wav.setnchannels(1)
        wav.setsampwidth(2)
        wav.setframerate(16000)
        wav.writeframes(b"\0\0" * 16000)  # silence: no recognizer needed
    text = "# About me\n\n## Who I am\n\nI build serving systems.\n"
    page = tmp_path / "page.md"
    page.write_text(text, encoding="utf-8")
    ctx = AppContext(tmp_path / "data")
    save_text(ctx.db, text, dt.datetime.now().astimezone(), reason="save")
    ctx.close()
    argv = ["--data-dir", str(tmp_path / "data"), "about", "rehearse", "--audio", str(take)]
    argv += ["--input", str(page)] if given_file else []
    assert _last_line(_HEAVY, *argv) == "[]"
