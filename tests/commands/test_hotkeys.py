"""`companion hotkeys`: ACTION<TAB>KEYS for the bindings in force; set, reset, on, off."""

from __future__ import annotations

import pytest

from companion.cli import main
from companion.core import hotkeys as hk


def test_lists_the_defaults_one_per_line(data_dir, capsys):
    assert main(["hotkeys"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines() == [f"{a}\t{hk.DEFAULTS[a]}" for a in hk.ACTION_NAMES]


def test_set_off_on_reset(data_dir, capsys):
    assert main(["hotkeys", "set", "glance", "Ctrl+Alt+Shift+g"]) == 0
    assert main(["hotkeys", "set", "recovery", ""]) == 0
    capsys.readouterr()
    assert main(["hotkeys"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert "glance\tctrl+alt+shift+G" in lines and not any(x.startswith("recovery") for x in lines)
    assert main(["hotkeys", "off"]) == 0
    capsys.readouterr()
    assert main(["hotkeys"]) == 0
    captured = capsys.readouterr()
    assert captured.out == "" and "hotkeys are off" in captured.err
    assert main(["hotkeys", "on"]) == 0 and main(["hotkeys", "reset"]) == 0
    capsys.readouterr()
    main(["hotkeys"])
    assert capsys.readouterr().out.splitlines()[4] == "glance\tctrl+alt+G"


def test_bad_keys_are_one_line_with_exit_2(data_dir, capsys):
    assert main(["hotkeys", "set", "glance", "ctrl+alt+Nope"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "unknown key 'Nope'" in err
    assert main(["hotkeys", "set", "glance", "ctrl+alt+S"]) == 2
    assert "already bound to start-end-round" in capsys.readouterr().err


@pytest.mark.parametrize("content", [b"{not json", b"null", b"\xff\xfe", b"[1, 2]"])
def test_unreadable_preferences_do_not_lock_the_hotkeys(data_dir, capsys, content):
    prefs = data_dir / "prefs.json"
    prefs.write_bytes(content)
    prefs.chmod(0o600)
    assert main(["hotkeys"]) == 0
    captured = capsys.readouterr()
    assert captured.out.splitlines()[0] == f"show-card\t{hk.DEFAULTS['show-card']}"
    assert "using defaults" in captured.err and "NoneType" not in captured.err
    assert main(["hotkeys", "set", "glance", "ctrl+alt+shift+G"]) == 0
    err = capsys.readouterr().err
    kept = [p for p in data_dir.iterdir() if p.name.startswith("prefs.json.damaged-")]
    assert len(kept) == 1 and kept[0].read_bytes() == content and str(kept[0]) in err
    assert main(["hotkeys"]) == 0
    captured = capsys.readouterr()
    assert "glance\tctrl+alt+shift+G" in captured.out and captured.err == ""


def test_null_preferences_are_called_null(data_dir, capsys):
    (data_dir / "prefs.json").write_text("null")
    main(["hotkeys"])
    assert "hold null, not an object of settings" in capsys.readouterr().err
