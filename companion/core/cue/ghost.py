"""Ghost mode, as data: on or off, the opacity per screen layout for the card and for
ghost mode, the one-time "still visible in screen shares" notice, and which way the
window is made transparent for input on this platform.

No Qt here. Stored in settings under ``cue.ghost``::

    {"told": true,
     "opacity": {"0,0,1280x800|ghost": 50, "last|ghost": 50, "0,0,1280x800|card": 90}}

The keys are :func:`companion.core.cue.placement.layout_key`, the same the position is
kept under, so the card comes back on a screen layout where it was, as opaque as it was.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from companion.core.cue.placement import Rect, layout_key
from companion.core.cue.state import OPACITY_MIN, clamp_opacity

GHOST_KEY = "cue.ghost"
DEFAULT_GHOST_OPACITY = 50
OPACITY_STEP = 10
MODES = ("card", "ghost")

#: said once, the first time ghost mode is used
NOTICE = (
    "Ghost mode lets clicks through to the window beneath. It does not hide the card: "
    "it still shows in screen shares and recordings."
)

# How the card lets clicks through (see FINDINGS.md, "Ghost mode on X11"):
#: the window stays managed and gets an empty input shape: enough where the compositor
#: honours the client's input shape (mutter with XWayland, Wayland itself)
INPUT_SHAPE = "input-shape"
#: the window is also taken away from the window manager (override-redirect), whose
#: frame would take the click otherwise (openbox); given back when ghost mode ends
BYPASS_WM = "bypass-wm"


def strategy(platform: str, env: Mapping[str, str]) -> str:
    """Which way to make the card transparent for input. Under a plain X11 session the
    window manager's frame takes clicks, so the card leaves the WM while it is a ghost;
    under XWayland (WAYLAND_DISPLAY set) the compositor honours the input shape and the
    card stays managed, keeping its "above" state and place in the stacking order."""
    if platform != "xcb":
        return INPUT_SHAPE
    if env.get("WAYLAND_DISPLAY") or env.get("XDG_SESSION_TYPE") == "wayland":
        return INPUT_SHAPE
    return BYPASS_WM


def mark_text(keys: str) -> str:
    """The small mark on a ghost card, with the key as bound (``keys`` as shown to people,
    "" when unbound)."""
    return f"ghost \u00b7 {keys}" if keys else "ghost"


def step_opacity(pct: int, delta: int) -> int:
    """One step more opaque (``delta`` > 0) or more see-through, on the 10% grid the
    card's menu offers, within the card's limits."""
    steps = -(-pct // OPACITY_STEP) if delta < 0 else pct // OPACITY_STEP  # snap first
    return clamp_opacity((steps + (1 if delta > 0 else -1)) * OPACITY_STEP)


@dataclass
class GhostMemory:
    """What ghost mode keeps across restarts."""

    told: bool = False  # the screen-share notice was shown
    opacity: dict[str, int] = field(default_factory=dict)
    layout: str = ""  # the screen layout the card's opacity was last kept on

    @classmethod
    def from_dict(cls, raw: Any) -> GhostMemory:
        """Tolerant: a bad value falls back to the default, never fails."""
        if not isinstance(raw, dict):
            return cls()
        told = raw.get("told") is True
        stored = raw.get("opacity")
        opacity = {}
        if isinstance(stored, dict):
            for key, value in stored.items():
                if isinstance(key, str) and isinstance(value, int) and not isinstance(value, bool):
                    opacity[key] = clamp_opacity(value)
        layout = raw.get("layout")
        return cls(told, opacity, layout if isinstance(layout, str) else "")

    def to_dict(self) -> dict[str, Any]:
        return {"told": self.told, "opacity": dict(self.opacity), "layout": self.layout}

    def opacity_for(self, screens: Sequence[Rect], mode: str) -> int | None:
        """The opacity kept for ``mode`` on this screen layout, else the last one used in
        that mode anywhere; None if never set (the card's own opacity applies)."""
        _check(mode)
        exact = self.opacity.get(f"{layout_key(screens)}|{mode}")
        return exact if exact is not None else self.opacity.get(f"last|{mode}")

    def remember(self, screens: Sequence[Rect], mode: str, pct: int) -> bool:
        """Keep ``pct`` for ``mode`` on this layout (and as the last used); True if that
        changed anything (so the caller saves only then)."""
        _check(mode)
        pct = clamp_opacity(pct)
        before = dict(self.opacity)
        self.opacity[f"{layout_key(screens)}|{mode}"] = pct
        self.opacity[f"last|{mode}"] = pct
        changed = self.opacity != before
        if mode == "card" and self.layout != layout_key(screens):
            self.layout, changed = layout_key(screens), True
        return changed

    def card_opacity_back(self, screens: Sequence[Rect]) -> int | None:
        """The card's opacity to bring back on this screen layout: the one kept for it,
        when the card was last adjusted on another layout. None when the card's own
        opacity is the newer (set here, or on the Cue page) or nothing was kept."""
        key = layout_key(screens)
        if key == self.layout:
            return None
        return self.opacity.get(f"{key}|card")


def _check(mode: str) -> None:
    if mode not in MODES:
        raise ValueError(f"unknown opacity mode {mode!r} (one of {', '.join(MODES)})")


@dataclass
class Ghost:
    """Ghost mode on or off, and what turning it on must do once."""

    memory: GhostMemory = field(default_factory=GhostMemory)
    on: bool = False
    #: the screen-share notice is on show (from the first time on until ghost mode ends)
    telling: bool = False

    def set(self, on: bool) -> bool:
        """Turn ghost mode on or off; True if that changed the memory (the first use)."""
        if on == self.on:
            return False
        self.on = on
        if not on:
            self.telling = False
            return False
        if self.memory.told:
            return False
        self.memory.told = True
        self.telling = True
        return True

    @property
    def mode(self) -> str:
        return "ghost" if self.on else "card"

    def opacity(self, screens: Sequence[Rect], card_opacity: int) -> int:
        """The opacity the card shows now: ghost mode's kept value (or the default, never
        more opaque than the card itself), else the card's."""
        if not self.on:
            return clamp_opacity(card_opacity)
        kept = self.memory.opacity_for(screens, "ghost")
        if kept is not None:
            return kept
        return max(OPACITY_MIN, min(DEFAULT_GHOST_OPACITY, clamp_opacity(card_opacity)))
