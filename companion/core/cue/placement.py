"""Where the cue card goes on screen: saved per screen layout, rescued when off-screen.

Plain arithmetic on rectangles, so every rule is tested without a display.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

GEOMETRY_KEY = "cue.geometry"


# --------------------------------------------------------------------------- geometry


@dataclass(frozen=True)
class Rect:
    x: int
    y: int
    w: int
    h: int

    @property
    def right(self) -> int:
        return self.x + self.w

    @property
    def bottom(self) -> int:
        return self.y + self.h

    def overlap(self, other: Rect) -> tuple[int, int]:
        w = min(self.right, other.right) - max(self.x, other.x)
        h = min(self.bottom, other.bottom) - max(self.y, other.y)
        return max(0, w), max(0, h)

    def as_list(self) -> list[int]:
        return [self.x, self.y, self.w, self.h]

    @classmethod
    def from_list(cls, raw: Any) -> Rect | None:
        if (
            isinstance(raw, list | tuple)
            and len(raw) == 4
            and all(isinstance(v, int) and not isinstance(v, bool) for v in raw)
            and raw[2] > 0
            and raw[3] > 0
        ):
            return cls(*raw)
        return None


MIN_VISIBLE = 48  # this much of the card's top strip must be on a screen to grab it
CARD_SIZE = (380, 600)
GLANCE_SIZE = (360, 140)
MARGIN = 24
# the top of the screen that notification popups take: dunst's default origin is the
# top-right corner, 50 px down, and a three-line popup is about 110 px tall at 100 %
NOTIFICATION_BAND = 180
# and its width from the right edge: dunst's 300 px popup, 10 px offset, a little air
NOTIFICATION_BAND_W = 340
MIN_BELOW_BAND = 300  # a shorter room below the band: the card goes to the top margin


def layout_key(screens: Sequence[Rect]) -> str:
    """The saved geometry's key: the set of screen geometries, order-independent."""
    return ";".join(sorted(f"{r.x},{r.y},{r.w}x{r.h}" for r in screens)) or "none"


def is_reachable(rect: Rect, screens: Sequence[Rect]) -> bool:
    """True if the card's top strip (where the drag handle is) is on some screen enough
    to grab it."""
    strip = Rect(rect.x, rect.y, rect.w, min(rect.h, MIN_VISIBLE))
    for screen in screens:
        w, h = strip.overlap(screen)
        if w >= min(MIN_VISIBLE, rect.w) and h >= min(MIN_VISIBLE // 2, rect.h):
            return True
    return False


def default_rect(screen: Rect, glance: bool = False, min_size: tuple[int, int] = (0, 0)) -> Rect:
    """The right edge of the screen, next to where a video call usually is not, below
    the band where notification popups appear (dunst's top-right corner): a reminder
    never covers the card's title line. ``min_size`` is the card's smallest size (a
    larger scale makes it taller). If the card cannot fit below the band, it goes to the
    top, left of the band; only a screen too narrow for that keeps it at the top margin."""
    w, h = GLANCE_SIZE if glance else CARD_SIZE
    min_w, min_h = min_size
    w = max(min(w, screen.w - 2 * MARGIN), min(min_w, screen.w))
    need = max(min_h, MIN_BELOW_BAND)
    if screen.h - NOTIFICATION_BAND - MARGIN >= need:
        top = NOTIFICATION_BAND
        x = screen.right - w - MARGIN
    elif screen.w - NOTIFICATION_BAND_W - MARGIN >= w:
        top = MARGIN if screen.h - 2 * MARGIN >= min_h else 0
        x = screen.right - NOTIFICATION_BAND_W - w
    else:
        top, x = MARGIN, screen.right - w - MARGIN
    h = max(min(h, screen.h - top - MARGIN), min(min_h, screen.h - top))
    return Rect(max(x, screen.x), screen.y + top, max(w, 1), max(h, 1))


def rescue_rect(rect: Rect, screens: Sequence[Rect]) -> Rect:
    """``rect`` if it can still be grabbed; otherwise the same size moved fully onto the
    nearest screen (shrunk if that screen is smaller)."""
    if not screens or is_reachable(rect, screens):
        return rect  # partly off-screen but grabbable: keep it where the user put it
    return onto_screen(rect, screens)


def onto_screen(rect: Rect, screens: Sequence[Rect]) -> Rect:
    """``rect`` moved fully onto the nearest screen, shrunk if that screen is smaller."""
    target = min(screens, key=lambda s: (rect.w > s.w or rect.h > s.h, _distance2(rect, s)))
    w, h = min(rect.w, target.w), min(rect.h, target.h)
    x = min(max(rect.x, target.x), target.right - w)
    y = min(max(rect.y, target.y), target.bottom - h)
    return Rect(x, y, w, h)


def fit_rect(rect: Rect, min_w: int, min_h: int, screens: Sequence[Rect]) -> Rect:
    """``rect`` grown to the card's minimum size and, if that makes it stick out of the
    screen it is on, moved back inside (a larger font or scale can widen the card)."""
    w, h = max(rect.w, min_w), max(rect.h, min_h)
    if not screens:
        return Rect(rect.x, rect.y, w, h)
    grown = Rect(rect.x, rect.y, w, h)
    screen = min(screens, key=lambda s: _distance2(grown, s))
    x = max(screen.x, min(rect.x, screen.right - w))
    y = max(screen.y, min(rect.y, screen.bottom - h))
    return Rect(x, y, w, h)


def _distance2(rect: Rect, screen: Rect) -> int:
    cx, cy = rect.x + rect.w // 2, rect.y + rect.h // 2
    dx = max(screen.x - cx, 0, cx - screen.right)
    dy = max(screen.y - cy, 0, cy - screen.bottom)
    return dx * dx + dy * dy


def restore_rect(
    saved: Any,
    screens: Sequence[Rect],
    glance: bool = False,
    usable: Sequence[Rect] | None = None,
    min_size: tuple[int, int] = (0, 0),
) -> tuple[Rect, bool]:
    """Where to open the card: (rect, was_rescued). ``saved`` is the stored mapping
    ``{"<layout>|<mode>": [x, y, w, h], "last|<mode>": [...]}``. The geometry saved for
    this exact screen layout wins; else the last one used anywhere, rescued on screen;
    else the default corner of the first screen. ``usable`` are the screens' available
    areas (without panels), used for placing; the key uses the full ``screens``.
    ``min_size`` is the card's smallest size, for the default place."""
    usable = list(usable or screens)
    mode = "glance" if glance else "card"
    saved = saved if isinstance(saved, dict) else {}
    exact = Rect.from_list(saved.get(f"{layout_key(screens)}|{mode}"))
    last = Rect.from_list(saved.get(f"last|{mode}"))
    if exact is None and last is None:
        first = usable[0] if usable else Rect(0, 0, 1280, 800)
        return default_rect(first, glance, min_size), False
    if exact is not None:
        fits = not usable or any(exact.w <= s.w and exact.h <= s.h for s in usable)
        # the user's own place here: kept if grabbable, unless no screen can show it whole
        rescued = rescue_rect(exact, usable) if fits else onto_screen(exact, usable)
        return rescued, rescued != exact
    # a place from another layout (another scale or screen): wholly on this one, never
    # taller than it (380 x 600 from 100 % ran off an 800 x 500 screen at 200 %)
    moved = onto_screen(last, usable) if usable else last
    return moved, moved != last


def remember_rect(saved: Any, screens: Sequence[Rect], rect: Rect, glance: bool = False) -> dict:
    """The stored mapping with ``rect`` recorded for this layout (and as the last used)."""
    mode = "glance" if glance else "card"
    out = dict(saved) if isinstance(saved, dict) else {}
    out[f"{layout_key(screens)}|{mode}"] = rect.as_list()
    out[f"last|{mode}"] = rect.as_list()
    return out
