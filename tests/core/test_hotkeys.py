"""Global hotkey bindings: the notation, defaults, overrides and the off switch."""

from __future__ import annotations

import pytest

from companion.core import hotkeys as hk
from companion.core.prefs import Prefs


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("ctrl+alt+Right", "ctrl+alt+Right"),
        ("Control+ALT+right", "ctrl+alt+Right"),
        ("alt+ctrl+c", "ctrl+alt+C"),
        ("Ctrl+Alt+PgDown", "ctrl+alt+PageDown"),
        ("Meta+Shift+7", "shift+super+7"),
        ("F9", "F9"),
        (" ctrl + alt + Return ", "ctrl+alt+Return"),
        ("Ctrl+Alt+[", "ctrl+alt+BracketLeft"),
        ("ctrl+alt+bracketright", "ctrl+alt+BracketRight"),
    ],
)
def test_normalise(text, want):
    assert hk.normalise(text) == want


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("", "empty"),
        ("ctrl+alt+", "empty part"),
        ("ctrl+alt+Foo", "unknown key 'Foo'"),
        ("hyper+G", "unknown modifier 'hyper'"),
        ("ctrl+ctrl+G", "ctrl given twice"),
        ("ctrl+alt", "ends with a modifier"),
        ("G", "needs ctrl, alt or super"),
        ("shift+G", "needs ctrl, alt or super"),
    ],
)
def test_bad_keys_get_one_line(text, says):
    with pytest.raises(hk.HotkeyError) as info:
        hk.parse_combo(text)
    assert says in str(info.value) and "\n" not in str(info.value)


def test_keysyms_and_portal_triggers():
    assert hk.parse_combo("ctrl+alt+G").keysym == ord("g")
    assert hk.parse_combo("ctrl+alt+Right").keysym == 0xFF53
    assert hk.parse_combo("ctrl+alt+F1").keysym == 0xFFBE
    assert hk.parse_combo("ctrl+alt+PageDown").portal_trigger() == "CTRL+ALT+Next"
    assert hk.parse_combo("super+shift+g").portal_trigger() == "SHIFT+LOGO+g"
    assert hk.parse_combo("ctrl+alt+]").keysym == 0x5D
    assert hk.parse_combo("ctrl+alt+[").portal_trigger() == "CTRL+ALT+bracketleft"


@pytest.mark.parametrize(
    ("keys", "want"),
    [
        ("ctrl+alt+T", "Ctrl+Alt+T"),
        ("super+shift+BracketLeft", "Shift+Super+["),
        ("ctrl+alt+PageDown", "Ctrl+Alt+PageDown"),
        ("", ""),
    ],
)
def test_keys_are_shown_as_people_read_them(keys, want):
    assert hk.shown(keys) == want


def test_defaults_are_distinct_valid_and_cover_every_action():
    assert (
        set(hk.DEFAULTS)
        == set(hk.ACTION_NAMES)
        == {
            "show-card",
            "next-step",
            "previous-step",
            "start-end-round",
            "glance",
            "ghost",
            "opacity-up",
            "opacity-down",
            "recovery",
            "stories",
            "preflight",
        }
    )
    assert len(set(hk.DEFAULTS.values())) == len(hk.DEFAULTS)
    for keys in hk.DEFAULTS.values():
        assert hk.normalise(keys) == keys
    bindings = hk.load_bindings(None)
    assert bindings.in_force() == hk.DEFAULTS and not bindings.problems


def test_overrides_unbinding_and_off_switch_round_trip_through_json(tmp_path):
    prefs = Prefs(tmp_path / "prefs.json")
    assert hk.rebind(prefs, "glance", "Ctrl+Alt+Shift+g") == "ctrl+alt+shift+G"
    assert hk.rebind(prefs, "recovery", "") == ""
    hk.set_enabled(prefs, False)
    assert prefs.save() is None
    again = Prefs(tmp_path / "prefs.json")
    assert again.get("hotkeys") == {
        "enabled": False,
        "bindings": {"glance": "ctrl+alt+shift+G", "recovery": ""},
    }
    bindings = hk.bindings_in_force(again)
    assert bindings.in_force() == {}
    assert bindings.keys["glance"] == "ctrl+alt+shift+G" and "recovery" not in bindings.keys
    hk.set_enabled(again, True)
    hk.reset(again)
    assert hk.bindings_in_force(again).in_force() == hk.DEFAULTS


def test_rebind_refuses_a_key_another_action_uses_and_unknown_actions(tmp_path):
    prefs = Prefs(tmp_path / "prefs.json")
    with pytest.raises(hk.HotkeyError, match="already bound to next-step"):
        hk.rebind(prefs, "glance", "ctrl+alt+PageDown")
    with pytest.raises(hk.HotkeyError, match="unknown action 'jump'"):
        hk.rebind(prefs, "jump", "ctrl+alt+J")


def test_bad_stored_values_fall_back_with_a_named_problem():
    bindings = hk.load_bindings(
        {
            "enabled": "yes",
            "bindings": {"glance": "ctrl+alt+Nope", "jump": "ctrl+alt+J", "recovery": "ctrl+alt+C"},
        }
    )
    assert bindings.enabled is True
    assert bindings.keys["glance"] == hk.DEFAULTS["glance"]
    assert "show-card" in bindings.keys and "recovery" not in bindings.keys  # duplicate dropped
    text = "\n".join(bindings.problems)
    assert "hotkeys.enabled" in text
    assert "hotkeys.bindings.glance: 'ctrl+alt+Nope': unknown key" in text
    assert "hotkeys.bindings.jump: unknown action" in text
    assert "hotkeys.bindings.recovery: ctrl+alt+C is already used by show-card" in text
    assert hk.load_bindings([1, 2]).problems == [
        "prefs hotkeys: not an object; using the default hotkeys"
    ]


def test_keys_another_program_holds_are_one_notice_and_other_problems_their_own():
    from companion.core.hotkeys import TAKEN, problems_notice

    taken = [f"ctrl+alt+{k} ({a}){TAKEN}" for k, a in (("C", "show-card"), ("G", "glance"))]
    other = "ctrl+alt+Q (quit): the keyboard layout has no Q key"
    notices = problems_notice([*taken, other])
    assert len(notices) == 2 and notices[1] == other
    assert notices[0].startswith("2 hotkeys are already taken by another program: ")
    assert "ctrl+alt+C (show-card), ctrl+alt+G (glance)" in notices[0]
    assert problems_notice(taken[:1]) == taken[:1]  # one stays as it was said
