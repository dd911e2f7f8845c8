"""Global hotkeys as data: the actions, their default keys, the ``ctrl+alt+Right``
notation, and the user's overrides kept as plain JSON values in the preferences.

No Qt here: the X11 grabber, the portal and ``companion hotkeys`` all read the bindings
in force from :func:`bindings_in_force`.

Preferences (``prefs.json``)::

    "hotkeys": {"enabled": true, "bindings": {"glance": "ctrl+alt+shift+G", "recovery": ""}}

An empty string unbinds an action; a missing action keeps its default.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

PREFS_KEY = "hotkeys"
TAKEN = " is already taken by another program"  # the X grab's refusal (ui/hotkeys/x11.py)

#: (action, what it does), in the order shown everywhere
ACTIONS: tuple[tuple[str, str], ...] = (
    ("show-card", "Show or hide the cue card"),
    ("next-step", "Next design step"),
    ("previous-step", "Previous design step"),
    ("start-end-round", "Start or end the round"),
    ("glance", "Glance mode on or off"),
    ("ghost", "Ghost mode on or off: clicks pass through the card"),
    ("opacity-up", "Card more opaque"),
    ("opacity-down", "Card more see-through"),
    ("recovery", "I'm stuck: show the recovery lines"),
    ("stories", "Stories: open the fold, then the next question type"),
    ("preflight", "Preflight: the checks before a round"),
)
ACTION_NAMES = tuple(name for name, _ in ACTIONS)

# Ctrl+Alt plus a letter or PageUp/PageDown: not taken by GNOME, KDE, Xfce or Cinnamon
# by default (Ctrl+Alt+arrows switch workspaces on several desktops, so they are avoided),
# except Ctrl+Alt+T: Ubuntu's GNOME opens a terminal with it, so the grab fails there and
# the Hotkeys dialog says so (rebind it). Opacity is I and O, side by side on QWERTY,
# QWERTZ and AZERTY; the brackets (the card's own opacity keys) need AltGr on German,
# French and other layouts, where the grab finds no key for them.
DEFAULTS: dict[str, str] = {
    "show-card": "ctrl+alt+C",
    "next-step": "ctrl+alt+PageDown",
    "previous-step": "ctrl+alt+PageUp",
    "start-end-round": "ctrl+alt+S",
    "glance": "ctrl+alt+G",
    "ghost": "ctrl+alt+T",
    "opacity-up": "ctrl+alt+O",
    "opacity-down": "ctrl+alt+I",
    "recovery": "ctrl+alt+R",
    "stories": "ctrl+alt+Y",
    "preflight": "ctrl+alt+P",
}

MODIFIERS = ("ctrl", "alt", "shift", "super")
_MODIFIER_ALIASES = {
    "ctrl": "ctrl",
    "control": "ctrl",
    "alt": "alt",
    "mod1": "alt",
    "shift": "shift",
    "super": "super",
    "meta": "super",
    "win": "super",
    "logo": "super",
    "mod4": "super",
}

#: key name (as written in the notation) -> X keysym
_NAMED_KEYS: dict[str, int] = {
    "Left": 0xFF51,
    "Up": 0xFF52,
    "Right": 0xFF53,
    "Down": 0xFF54,
    "PageUp": 0xFF55,
    "PageDown": 0xFF56,
    "Home": 0xFF50,
    "End": 0xFF57,
    "Insert": 0xFF63,
    "Delete": 0xFFFF,
    "Return": 0xFF0D,
    "Escape": 0xFF1B,
    "Tab": 0xFF09,
    "BackSpace": 0xFF08,
    "Space": 0x20,
    "Pause": 0xFF13,
    "BracketLeft": 0x5B,
    "BracketRight": 0x5D,
}
for _n in range(1, 25):
    _NAMED_KEYS[f"F{_n}"] = 0xFFBE + _n - 1

# other spellings (Qt's QKeySequence text among them) -> the name above
_KEY_ALIASES = {
    "pgup": "PageUp",
    "prior": "PageUp",
    "pgdown": "PageDown",
    "pgdn": "PageDown",
    "next": "PageDown",
    "enter": "Return",
    "esc": "Escape",
    "del": "Delete",
    "ins": "Insert",
    "backspace": "BackSpace",
    "[": "BracketLeft",
    "]": "BracketRight",
}
_BY_LOWER = {name.lower(): name for name in _NAMED_KEYS}

#: the XDG shortcuts spec's modifier names (portal ``preferred_trigger``)
_PORTAL_MODIFIERS = {"ctrl": "CTRL", "alt": "ALT", "shift": "SHIFT", "super": "LOGO"}


class HotkeyError(ValueError):
    """A key combination that cannot be used; the message is one line."""


@dataclass(frozen=True)
class Combo:
    modifiers: frozenset[str]
    key: str  # canonical key name: "C", "7", "PageDown", "F5"

    def __str__(self) -> str:
        mods = [m for m in MODIFIERS if m in self.modifiers]
        return "+".join([*mods, self.key])

    @property
    def keysym(self) -> int:
        if len(self.key) == 1:
            return ord(self.key.lower())
        return _NAMED_KEYS[self.key]

    def mask(self, bits: dict[str, int]) -> int:
        """The modifiers as one bit mask, each modifier's bit from ``bits`` (X11's,
        Win32's, Carbon's)."""
        mask = 0
        for name in self.modifiers:
            mask |= bits[name]
        return mask

    def portal_trigger(self) -> str:
        """The combination in the XDG shortcuts notation, e.g. ``CTRL+ALT+Page_Down``."""
        mods = [_PORTAL_MODIFIERS[m] for m in MODIFIERS if m in self.modifiers]
        key = self.key.lower() if len(self.key) == 1 else _XKB_NAMES.get(self.key, self.key)
        return "+".join([*mods, key])


_XKB_NAMES = {
    "PageUp": "Prior",
    "PageDown": "Next",
    "Space": "space",
    "BracketLeft": "bracketleft",
    "BracketRight": "bracketright",
}
#: how a key is written for people (the ghost mark, hints)
_SHOWN_KEYS = {"BracketLeft": "[", "BracketRight": "]"}
_SHOWN_MODIFIERS = {"ctrl": "Ctrl", "alt": "Alt", "shift": "Shift", "super": "Super"}


def _key_name(text: str) -> str | None:
    if len(text) == 1 and (text.isascii() and text.isalnum()):
        return text.upper()
    lower = text.lower()
    if lower in _KEY_ALIASES:
        return _KEY_ALIASES[lower]
    return _BY_LOWER.get(lower)


def parse_combo(text: str) -> Combo:
    """``"Ctrl+Alt+right"`` -> Combo; raises HotkeyError with a one-line reason."""
    if not isinstance(text, str) or not text.strip():
        raise HotkeyError("empty key combination")
    parts = [p.strip() for p in text.strip().split("+")]
    if any(not p for p in parts):
        raise HotkeyError(f"{text!r}: empty part (write keys like ctrl+alt+Right)")
    *mod_parts, key_part = parts
    mods: set[str] = set()
    for part in mod_parts:
        mod = _MODIFIER_ALIASES.get(part.lower())
        if mod is None:
            raise HotkeyError(f"{text!r}: unknown modifier {part!r} (use ctrl, alt, shift, super)")
        if mod in mods:
            raise HotkeyError(f"{text!r}: {mod} given twice")
        mods.add(mod)
    if key_part.lower() in _MODIFIER_ALIASES:
        raise HotkeyError(f"{text!r}: ends with a modifier; add a key, e.g. ctrl+alt+G")
    key = _key_name(key_part)
    if key is None:
        raise HotkeyError(
            f"{text!r}: unknown key {key_part!r} (letters, digits, F1-F24, arrows, "
            "PageUp, PageDown, Home, End, Space, Return...)"
        )
    if not mods & {"ctrl", "alt", "super"} and not key.startswith("F"):
        raise HotkeyError(f"{text!r}: needs ctrl, alt or super, or it would swallow typing")
    return Combo(frozenset(mods), key)


def shown(keys: str) -> str:
    """``ctrl+alt+BracketLeft`` -> ``Ctrl+Alt+[``, as people read it ("" for "")."""
    if not keys:
        return ""
    combo = parse_combo(keys)
    mods = [_SHOWN_MODIFIERS[m] for m in MODIFIERS if m in combo.modifiers]
    return "+".join([*mods, _SHOWN_KEYS.get(combo.key, combo.key)])


def normalise(text: str) -> str:
    """The canonical spelling, e.g. ``"Control+ALT+pgdown"`` -> ``"ctrl+alt+PageDown"``."""
    return str(parse_combo(text))


@dataclass
class Bindings:
    """The hotkeys in force: action -> canonical combination (unbound actions absent)."""

    enabled: bool = True
    keys: dict[str, str] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)

    def in_force(self) -> dict[str, str]:
        return dict(self.keys) if self.enabled else {}

    def action_for(self, combo: str) -> str | None:
        for action, keys in self.keys.items():
            if keys == combo:
                return action
        return None


def _stored(prefs_value: Any) -> tuple[bool, dict[str, Any], list[str]]:
    problems: list[str] = []
    if prefs_value is None:
        return True, {}, problems
    if not isinstance(prefs_value, dict):
        return True, {}, [f"prefs {PREFS_KEY}: not an object; using the default hotkeys"]
    enabled = prefs_value.get("enabled", True)
    if not isinstance(enabled, bool):
        problems.append(f"prefs {PREFS_KEY}.enabled: {enabled!r} is not true/false; hotkeys on")
        enabled = True
    stored = prefs_value.get("bindings", {})
    if not isinstance(stored, dict):
        problems.append(f"prefs {PREFS_KEY}.bindings: not an object; using the defaults")
        stored = {}
    return enabled, stored, problems


def load_bindings(prefs_value: Any) -> Bindings:
    """Defaults overlaid with the stored overrides. A bad stored value is reported in
    ``problems`` (one line each) and its action keeps the default."""
    enabled, stored, problems = _stored(prefs_value)
    for name in stored:
        if name not in ACTION_NAMES:
            problems.append(f"prefs {PREFS_KEY}.bindings.{name}: unknown action; ignored")
    keys: dict[str, str] = {}
    for action in ACTION_NAMES:
        value = stored.get(action, DEFAULTS[action])
        if value in ("", None):
            continue
        try:
            keys[action] = normalise(value)
        except HotkeyError as exc:
            problems.append(f"prefs {PREFS_KEY}.bindings.{action}: {exc}; using the default")
            keys[action] = DEFAULTS[action]
    seen: dict[str, str] = {}
    for action in ACTION_NAMES:
        combo = keys.get(action)
        if combo is None:
            continue
        if combo in seen:
            problems.append(
                f"prefs {PREFS_KEY}.bindings.{action}: {combo} is already used by "
                f"{seen[combo]}; {action} is unbound"
            )
            del keys[action]
        else:
            seen[combo] = action
    return Bindings(enabled, keys, problems)


def bindings_in_force(prefs) -> Bindings:
    """Read from a :class:`companion.core.prefs.Prefs` (anything with ``get``)."""
    return load_bindings(prefs.get(PREFS_KEY))


def stored_value(bindings: dict[str, str], enabled: bool) -> dict[str, Any]:
    """The JSON value to keep: only what differs from the defaults ("" = unbound)."""
    overrides = {
        action: bindings.get(action, "")
        for action in ACTION_NAMES
        if bindings.get(action, "") != DEFAULTS[action]
    }
    return {"enabled": bool(enabled), "bindings": overrides}


def store_bindings(prefs, keys: dict[str, str], enabled: bool) -> None:
    """Keep ``keys`` (every action's, as the dialog has them) and the on/off switch."""
    prefs.set(PREFS_KEY, stored_value(keys, enabled))


def rebind(prefs, action: str, keys: str) -> str:
    """Set one action's keys ("" unbinds) and return the canonical text; raises
    HotkeyError for an unknown action, bad keys, or keys another action uses."""
    if action not in ACTION_NAMES:
        raise HotkeyError(f"unknown action {action!r} (one of {', '.join(ACTION_NAMES)})")
    current = bindings_in_force(prefs)
    combo = normalise(keys) if keys.strip() else ""
    other = current.action_for(combo) if combo else None
    if other is not None and other != action:
        raise HotkeyError(f"{combo} is already bound to {other}")
    wanted = dict(current.keys)
    if combo:
        wanted[action] = combo
    else:
        wanted.pop(action, None)
    prefs.set(PREFS_KEY, stored_value(wanted, current.enabled))
    return combo


def set_enabled(prefs, enabled: bool) -> None:
    current = bindings_in_force(prefs)
    prefs.set(PREFS_KEY, stored_value(current.keys, enabled))


def reset(prefs) -> None:
    current = bindings_in_force(prefs)
    prefs.set(PREFS_KEY, stored_value(dict(DEFAULTS), current.enabled))


def describe(action: str) -> str:
    return dict(ACTIONS)[action]


def problems_notice(problems: list[str]) -> list[str]:
    """The notices for hotkey problems: the keys another program holds as one line (a
    second copy of the app on another data folder holds all eleven: eleven bars pushed
    the page off the window), every other problem on its own."""
    taken = [p[: -len(TAKEN)] for p in problems if p.endswith(TAKEN)]
    others = [p for p in problems if not p.endswith(TAKEN)]
    if len(taken) <= 1:
        return [p + TAKEN for p in taken] + others
    return [
        f"{len(taken)} hotkeys are already taken by another program: {', '.join(taken)}. "
        "Choose others under the cue card's ⋯ > Global hotkeys…",
        *others,
    ]
