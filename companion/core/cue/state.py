"""The cue card's saved state: round, loop, step per round, look, timer; kept in the
database's settings under ``cue.state``, owned by :class:`CardMemory` (its one writer)."""

from __future__ import annotations

import datetime as dt
from dataclasses import asdict, dataclass, field, fields
from typing import Any, Protocol

from companion.core.content.lengths import as_int, clamp_minutes
from companion.core.cue.rounds import RoundInfo

OPACITY_MIN, OPACITY_MAX = 30, 100
FONT_MIN, FONT_MAX, DEFAULT_FONT = 8, 32, 11
STATE_KEY = "cue.state"


# --------------------------------------------------------------------------- state


@dataclass
class CueState:
    """Everything the card remembers across restarts."""

    round_type: str = ""
    steps: dict[str, int] = field(default_factory=dict)  # stepper index per round type
    minutes: dict[str, int] = field(default_factory=dict)  # user's round length per type
    loop_id: int | None = None  # None: the current loop of the day
    # which round runs, since when and for how long is the day's (core/day/model.py);
    # the card only remembers which nudges of that round it has shown
    round_id: int | None = None  # the running round the nudges below belong to
    seen_nudge_at: float = -1.0  # minute of the last nudge already flashed
    opacity: int = 95
    font_pt: int = DEFAULT_FONT
    glance: bool = False
    frameless: bool = True
    collapsed: list[str] = field(default_factory=list)
    closing_topic: str = ""
    reminder_shown_on: str = ""  # ISO date the screen-share reminder was last shown

    @classmethod
    def from_dict(cls, raw: Any) -> CueState:
        """Tolerant: unknown keys are ignored, bad values fall back to defaults."""
        state = cls()
        if not isinstance(raw, dict):
            return state
        defaults = asdict(state)
        for f in fields(cls):
            if f.name not in raw:
                continue
            value, default = raw[f.name], defaults[f.name]
            if f.name in ("loop_id", "round_id"):
                state.__dict__[f.name] = value if isinstance(value, int) and value > 0 else None
            elif isinstance(default, bool):
                if isinstance(value, bool):
                    state.__dict__[f.name] = value
            elif isinstance(default, float):
                if isinstance(value, int | float) and not isinstance(value, bool):
                    state.__dict__[f.name] = float(value)
            elif isinstance(default, int):
                if isinstance(value, int) and not isinstance(value, bool):
                    state.__dict__[f.name] = value
            elif isinstance(default, str):
                if isinstance(value, str):
                    state.__dict__[f.name] = value
            elif isinstance(default, dict):
                if isinstance(value, dict):
                    state.__dict__[f.name] = {
                        str(k): v
                        for k, v in value.items()
                        if isinstance(v, int) and not isinstance(v, bool)
                    }
            elif isinstance(default, list) and isinstance(value, list):
                state.__dict__[f.name] = [v for v in value if isinstance(v, str)]
        state.opacity = clamp_opacity(state.opacity)
        state.font_pt = clamp_font(state.font_pt)
        return state

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    def step(self, round_type: str) -> int:
        return max(0, self.steps.get(round_type, 0))

    def move_step(self, round_type: str, delta: int, count: int) -> int:
        """Advance (``delta`` > 0) or go back, staying within ``count`` steps."""
        index = max(0, min(self.step(round_type) + delta, max(count - 1, 0)))
        self.steps[round_type] = index
        return index

    def round_minutes(self, info: RoundInfo) -> int:
        """The length the card offers for a type: the user's own, else the content's."""
        return offered_minutes(self.minutes, info)

    def needs_share_reminder(self, today: dt.date) -> bool:
        return self.reminder_shown_on != today.isoformat()


def offered_minutes(minutes: dict[str, int], info: RoundInfo) -> int:
    """The one rule for the card's length box of a type not running: the user's own
    length for it (``minutes``), else the content's."""
    return clamp_minutes(minutes.get(info.id, info.minutes))


#: fields kept per round type: a change names its entries, the others' stay as stored
PER_TYPE = ("steps", "minutes")


def merge_state(fresh: CueState, mine: CueState, changed: set[str]) -> CueState:
    """``fresh`` (just read from storage) with the fields this window ``changed`` taken
    from ``mine`` (a per-type field entry by entry): what the card shows between its
    saves, without another writer's newer values lost."""
    return _with(fresh, {name: getattr(mine, name) for name in changed if hasattr(mine, name)})


def _with(state: CueState, fields: dict[str, Any]) -> CueState:
    data = state.to_dict()
    for name, value in fields.items():
        if name in PER_TYPE and isinstance(value, dict):
            data[name] = {**data[name], **value}
        else:
            data[name] = value
    return CueState.from_dict(data)  # clamped and checked as if read back


class CardMemory:
    """The one owner of the card's saved state. The card and the Cue page each change it
    through :meth:`change`, naming only the fields (and, of ``steps`` and ``minutes``,
    only the round types) they change: the stored state is read fresh and written at
    once, so neither writes the other's fields, or another type's length, back."""

    def __init__(self, settings: KeyValueStore):
        self._settings = settings

    def load(self) -> CueState:
        return load_state(self._settings)

    def change(self, **fields: Any) -> CueState:
        """Store ``fields`` over what is stored now; return the state as stored."""
        state = _with(self.load(), fields)
        self._settings.set(STATE_KEY, state.to_dict())
        return state


def clamp_opacity(value: Any) -> int:
    return max(OPACITY_MIN, min(OPACITY_MAX, as_int(value, OPACITY_MAX)))


def clamp_font(value: Any) -> int:
    return max(FONT_MIN, min(FONT_MAX, as_int(value, DEFAULT_FONT)))


class KeyValueStore(Protocol):
    def get(self, key: str, default: Any = None) -> Any: ...
    def set(self, key: str, value: Any) -> None: ...


def load_state(settings: KeyValueStore) -> CueState:
    return CueState.from_dict(settings.get(STATE_KEY))
