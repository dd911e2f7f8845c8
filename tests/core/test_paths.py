"""Where the data folder is: --data-dir over COMPANION_HOME over the platform folder."""

from __future__ import annotations

import os
import pwd
import stat
from pathlib import Path

import pytest

from companion.core import paths


def test_data_dir_option_beats_environment(tmp_path, monkeypatch):
    monkeypatch.setenv("COMPANION_HOME", str(tmp_path / "from-env"))
    assert paths.resolve_data_dir(tmp_path / "from-option") == (tmp_path / "from-option").resolve()
    assert paths.resolve_data_dir(None) == (tmp_path / "from-env").resolve()


@pytest.mark.parametrize("empty", ["", "  "])
def test_an_empty_folder_option_is_refused(empty, monkeypatch):
    with pytest.raises(paths.DataDirError, match="--data-dir is empty"):
        paths.resolve_data_dir(empty)
    monkeypatch.setenv("COMPANION_HOME", empty)
    with pytest.raises(paths.DataDirError, match="COMPANION_HOME is empty"):
        paths.resolve_data_dir(None)


def test_paths_module_keeps_no_data_folder_global():
    """The folder is a parameter: nothing in the module may remember one."""
    assert not [name for name, value in vars(paths).items() if isinstance(value, Path)]


def test_environment_beats_platform_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("COMPANION_HOME", str(tmp_path / "env"))
    assert paths.resolve_data_dir() == (tmp_path / "env").resolve()


def test_platform_folder_is_used_last(monkeypatch):
    monkeypatch.delenv("COMPANION_HOME", raising=False)
    xdg = Path(os.environ["XDG_DATA_HOME"])  # the tripwire's scratch home
    assert paths.resolve_data_dir() == xdg / "interview-companion"


def test_derived_paths_follow_the_data_dir(tmp_path):
    root = tmp_path.resolve()
    assert paths.db_path(root) == root / "companion.sqlite3"
    assert paths.backup_dir(root) == root / "backups"
    assert paths.user_content_dir(root) == root / "content"
    assert paths.exports_dir(root) == root / "exports"


def test_cli_data_dir_option_is_applied(tmp_path, capsys):
    from companion.cli import main

    target = tmp_path / "chosen"
    main(["--data-dir", str(target), "doctor"])
    out = capsys.readouterr().out
    assert str(target.resolve()) in out


def test_cli_refuses_an_empty_data_dir(capsys):
    from companion.cli import main

    assert main(["--data-dir", "", "doctor"]) == 2
    assert main(["--data-dir="]) == 2  # the GUI's fast path too
    err = capsys.readouterr().err
    assert err.count("--data-dir is empty") == 2


def test_ensure_private_dir_creates_private_but_leaves_existing_folders_alone(tmp_path):
    fresh = paths.ensure_private_dir(tmp_path / "a" / "b")
    assert stat.S_IMODE(fresh.stat().st_mode) == 0o700
    for existing_mode in (0o755, 0o1777, 0o500):
        folder = tmp_path / f"existing-{existing_mode:o}"
        folder.mkdir()
        os.chmod(folder, existing_mode)
        paths.ensure_private_dir(folder)
        assert stat.S_IMODE(folder.stat().st_mode) == existing_mode  # not ours: kept


def test_ensure_private_dir_refuses_files_and_impossible_names(tmp_path):
    afile = tmp_path / "afile"
    afile.write_text("x")
    with pytest.raises(paths.DataDirError, match="is a file"):
        paths.ensure_private_dir(afile)
    with pytest.raises(paths.DataDirError):
        paths.ensure_private_dir(afile / "below")
    with pytest.raises(paths.DataDirError, match="too long|cannot"):
        paths.ensure_private_dir(tmp_path / ("n" * 300))


def test_folder_problem_names_what_is_wrong(tmp_path):
    afile = tmp_path / "afile"
    afile.write_text("x")
    assert paths.folder_problem(tmp_path) is None
    assert paths.folder_problem(tmp_path / "new" / "deeper") is None
    assert "is a file" in paths.folder_problem(afile)
    assert "is a file" in paths.folder_problem(afile / "x")
    assert "too long" in paths.folder_problem(tmp_path / ("n" * 300))
    assert not (tmp_path / "new").exists()  # it only looks


def test_shipped_folders_exist():
    assert paths.shipped_content_dir().is_dir()
    assert paths.resources_dir().is_dir()


def test_tripwire_fails_a_test_that_resolves_the_real_folder(monkeypatch):
    """The conftest guard must turn a lookup of the real data folder into a failure."""
    real_home = Path(pwd.getpwuid(os.getuid()).pw_dir).resolve()
    monkeypatch.delenv("COMPANION_HOME", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(real_home / ".local" / "share"))
    with pytest.raises(pytest.fail.Exception, match="real data folder"):
        paths.resolve_data_dir()


def test_tripwire_allows_the_scratch_folder(monkeypatch):
    monkeypatch.delenv("COMPANION_HOME", raising=False)
    path = paths.resolve_data_dir()  # under the scratch HOME: no failure
    assert path.is_relative_to(Path(os.environ["HOME"]))


@pytest.mark.parametrize("umask", [0o000, 0o022, 0o077])
def test_every_folder_the_app_makes_is_private_parents_included(tmp_path, umask):
    old = os.umask(umask)
    try:
        made = paths.ensure_private_dir(tmp_path / "x" / "y" / "data")
    finally:
        os.umask(old)
    for folder in (made, made.parent, made.parent.parent):
        assert stat.S_IMODE(folder.stat().st_mode) == 0o700, folder


def test_prefs_and_dnd_record_make_their_folder_private(tmp_path):
    from companion.core.dnd import record
    from companion.core.prefs import Prefs

    old = os.umask(0)
    try:
        prefs = Prefs(tmp_path / "p" / "q" / "prefs.json")
        prefs.set("main.page", "today")
        assert prefs.save() is None
        record.save(tmp_path / "d" / "e" / "dnd-state.json", record.Hold(adapter="x"))
    finally:
        os.umask(old)
    for folder in ("p", "p/q", "d", "d/e"):
        assert stat.S_IMODE((tmp_path / folder).stat().st_mode) == 0o700, folder


def test_prefs_that_are_json_but_not_an_object_are_kept_aside(tmp_path):
    from companion.core.prefs import Prefs

    path = tmp_path / "prefs.json"
    path.write_text("[1, 2, 3]")
    prefs = Prefs(path)
    assert prefs.problem and "not an object" in prefs.problem
    assert prefs.save() is None
    kept = list(tmp_path.glob("prefs.json.damaged-*"))
    assert len(kept) == 1 and kept[0].read_text() == "[1, 2, 3]"
