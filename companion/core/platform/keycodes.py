"""A key combination (:class:`companion.core.hotkeys.Combo`) in each desktop's own codes:
Win32 virtual keys and ``RegisterHotKey`` modifiers, macOS virtual key codes (kVK_*, the
ANSI layout's positions) and Carbon modifiers. Qt's Ctrl is Command on macOS, so "ctrl"
is Command there, "super" is Control, as everywhere else in a Qt app on a Mac."""

from __future__ import annotations

from companion.core.hotkeys import Combo

# --- Windows (WinUser.h) ---
MOD_ALT, MOD_CONTROL, MOD_SHIFT, MOD_WIN, MOD_NOREPEAT = 0x1, 0x2, 0x4, 0x8, 0x4000
_WIN_MODIFIERS = {"alt": MOD_ALT, "ctrl": MOD_CONTROL, "shift": MOD_SHIFT, "super": MOD_WIN}
_WIN_KEYS = {
    "Left": 0x25, "Up": 0x26, "Right": 0x27, "Down": 0x28, "PageUp": 0x21, "PageDown": 0x22,
    "Home": 0x24, "End": 0x23, "Insert": 0x2D, "Delete": 0x2E, "Return": 0x0D,
    "Escape": 0x1B, "Tab": 0x09, "BackSpace": 0x08, "Space": 0x20, "Pause": 0x13,
    "BracketLeft": 0xDB, "BracketRight": 0xDD,  # VK_OEM_4, VK_OEM_6 (US layout)
    **{f"F{n}": 0x70 + n - 1 for n in range(1, 25)},
}  # fmt: skip

# --- macOS (Carbon Events.h, HIToolbox) ---
CMD_KEY, SHIFT_KEY, OPTION_KEY, CONTROL_KEY = 0x100, 0x200, 0x800, 0x1000
_MAC_MODIFIERS = {"ctrl": CMD_KEY, "shift": SHIFT_KEY, "alt": OPTION_KEY, "super": CONTROL_KEY}
_MAC_LETTERS = "ASDFHGZXCV?BQWERYT"  # kVK_ANSI_A = 0x00 ... kVK_ANSI_T = 0x11 (0x0A unused)
_MAC_KEYS = {
    **{c: i for i, c in enumerate(_MAC_LETTERS) if c != "?"},
    "O": 0x1F, "U": 0x20, "I": 0x22, "P": 0x23, "L": 0x25, "J": 0x26, "K": 0x28,
    "N": 0x2D, "M": 0x2E,
    "1": 0x12, "2": 0x13, "3": 0x14, "4": 0x15, "6": 0x16, "5": 0x17, "9": 0x19,
    "7": 0x1A, "8": 0x1C, "0": 0x1D,
    "BracketRight": 0x1E, "BracketLeft": 0x21, "Return": 0x24, "Tab": 0x30, "Space": 0x31,
    "BackSpace": 0x33, "Escape": 0x35, "Insert": 0x72, "Home": 0x73, "PageUp": 0x74,
    "Delete": 0x75, "End": 0x77, "PageDown": 0x79, "Left": 0x7B, "Right": 0x7C,
    "Down": 0x7D, "Up": 0x7E,
    "F1": 0x7A, "F2": 0x78, "F3": 0x63, "F4": 0x76, "F5": 0x60, "F6": 0x61, "F7": 0x62,
    "F8": 0x64, "F9": 0x65, "F10": 0x6D, "F11": 0x67, "F12": 0x6F, "F13": 0x69,
    "F14": 0x6B, "F15": 0x71, "F16": 0x6A, "F17": 0x40, "F18": 0x4F, "F19": 0x50,
    "F20": 0x5A,
}  # fmt: skip


def windows_hotkey(combo: Combo) -> tuple[int, int] | None:
    """(modifiers, virtual key) for ``RegisterHotKey``, or None for a key Windows lacks."""
    key = ord(combo.key) if len(combo.key) == 1 else _WIN_KEYS.get(combo.key)
    if key is None:
        return None
    # MOD_NOREPEAT: a held key fires once, as the X grab and the portal do
    return MOD_NOREPEAT | combo.mask(_WIN_MODIFIERS), key


def mac_hotkey(combo: Combo) -> tuple[int, int] | None:
    """(Carbon modifiers, virtual key code) for ``RegisterEventHotKey``, or None."""
    key = _MAC_KEYS.get(combo.key)
    if key is None:
        return None
    return combo.mask(_MAC_MODIFIERS), key
