"""The cue card's rules, free of Qt: which sections a round shows, the stepper, the
timebox and its nudges, the saved state, and the geometry rescue arithmetic.

The window (``companion.ui.cue.window``) only renders what these functions decide,
so every rule here is tested with plain pytest.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field, fields
from typing import Any, Protocol

from companion.core.content import Content, Item, Section
from companion.core.content_plans import FALLBACK_ROUND, RoundDefaults

DEFAULT_MINUTES = 45  # fallback only: the pack's rounds `minutes:` (Content.round_defaults)
MIN_MINUTES, MAX_MINUTES = 5, 240
OPACITY_MIN, OPACITY_MAX = 30, 100
FONT_MIN, FONT_MAX, DEFAULT_FONT = 8, 32, 11
NEAR_END_MINUTES = 2  # fallback only: the pack's rounds `wrap_up_before_end:`
FRESH_NUDGE_SECONDS = 120  # how long a nudge counts as new (glance mode shows it first)
TOPIC_PLACEHOLDER = "[topic]"

STATE_KEY = "cue.state"
GEOMETRY_KEY = "cue.geometry"


# --------------------------------------------------------------------------- round types


@dataclass(frozen=True)
class RoundInfo:
    """A round type as the card needs it: the content's fields plus its timebox."""

    id: str
    title: str
    short: str  # button label: the title up to a colon
    key: int  # 1-9, or 0 when there are more than nine
    audience: tuple[str, ...]
    sections: tuple[str, ...]
    nudges: str  # id of a `nudges` section, "" for none
    minutes: int  # default round length


def round_infos(content: Content) -> list[RoundInfo]:
    """Every round type in content order; those without a free `key:` get the next free one."""
    extras: dict[str, Item] = {}
    for section in content.by_kind("rounds"):
        for item in section.items:
            extras.setdefault(item.get("id") or "", item)
    infos: list[RoundInfo] = []
    used: set[int] = set()
    for rt in content.round_types():
        item = extras.get(rt.id)
        nudges = (item.get("nudges") if item else None) or ""
        if not nudges and content.section(f"{rt.id}-nudges"):
            nudges = f"{rt.id}-nudges"
        if nudges and (s := content.section(nudges)) is not None and s.kind != "nudges":
            nudges = ""
        minutes = item.int("minutes", 0) if item else 0
        if not minutes and nudges:
            minutes = _int(content.section(nudges).meta.get("minutes"), 0)  # type: ignore[union-attr]
        key = rt.key if 1 <= rt.key <= 9 and rt.key not in used else 0
        if key:
            used.add(key)
        infos.append(
            RoundInfo(
                id=rt.id,
                title=rt.title,
                short=rt.title.split(":", 1)[0].strip() or rt.title,
                key=key,
                audience=rt.audience,
                sections=rt.sections,
                nudges=nudges,
                minutes=clamp_minutes(minutes or content.round_defaults().minutes),
            )
        )
    free = [k for k in range(1, 10) if k not in used]
    for n, info in enumerate(infos):
        if info.key == 0 and free:
            infos[n] = _replace(info, key=free.pop(0))
    return infos


def find_round(infos: Sequence[RoundInfo], round_id: str | None) -> RoundInfo | None:
    for info in infos:
        if info.id == round_id:
            return info
    return None


def round_for_key(infos: Sequence[RoundInfo], key: int) -> RoundInfo | None:
    for info in infos:
        if info.key == key:
            return info
    return None


def _replace(info: RoundInfo, **changes) -> RoundInfo:
    from dataclasses import replace

    return replace(info, **changes)


# --------------------------------------------------------------------------- sections


@dataclass(frozen=True)
class CardLine:
    text: str
    detail: str = ""  # smaller text under the line
    say: str = ""  # precise wording, shown quoted
    meta: str = ""  # a timing such as "3-5 min" or "10 s"


@dataclass(frozen=True)
class CardSection:
    """One block of the card. ``kind`` is a content kind, or for the built-ins
    ``pitch-outline``, ``planned-questions``, ``timebox``, ``closing-topic``."""

    id: str
    title: str
    kind: str
    lines: tuple[CardLine, ...] = ()
    rule: str = ""  # a standing reminder (the design move's "come back to ...")
    note: str = ""  # where the lines came from, when it matters


def fill_closing(template: str, topic: str) -> str:
    """The closing line with its ``{topic}`` slot filled (a visible placeholder if empty)."""
    return template.replace("{topic}", topic.strip() or TOPIC_PLACEHOLDER)


def section_lines(section: Section) -> tuple[CardLine, ...]:
    lines = []
    for item in section.items:
        if section.kind == "pitch":
            seconds = item.int("seconds")
            lines.append(
                CardLine(
                    item.text,
                    detail=item.get("holds", "") or "",
                    say=item.get("example", "") or "",
                    meta=f"{seconds} s" if seconds else "",
                )
            )
        elif section.kind == "steps":
            minutes = item.get("minutes") or ""
            lines.append(
                CardLine(
                    item.text,
                    detail=item.get("detail", "") or "",
                    say=item.get("say", "") or "",
                    meta=f"{minutes} min" if minutes else "",
                )
            )
        elif section.kind == "questions":
            lines.append(CardLine(item.text, meta=item.get("topic", "") or ""))
        elif section.kind == "nudges":
            lines.append(CardLine(item.text))
        else:
            lines.append(
                CardLine(
                    item.text,
                    detail=item.get("why", "") or "",
                    say=item.get("say", "") or "",
                )
            )
    return tuple(lines)


def build_sections(
    content: Content,
    info: RoundInfo,
    *,
    pitch_outline: Sequence[CardLine] | None = None,
    pitch_note: str = "",
    planned: Sequence[CardLine] | None = None,
    planned_note: str = "",
    closing_topic: str = "",
    minutes: int | None = None,
) -> list[CardSection]:
    """The blocks a round type lists, in its order; unknown ids are skipped (the content
    check reports them), so a broken pack still gives a usable card."""
    out: list[CardSection] = []
    for sid in info.sections:
        if sid == "@pitch-outline":
            lines = tuple(pitch_outline or ())
            pitch = _first_of_kind(content, "pitch")
            if not lines and pitch and pitch.id in info.sections:
                # the round shows the content's pitch anyway: point at About me instead
                pitch_note = pitch_note or "Write your own pitch on About me to see it here."
            elif not lines and pitch:
                lines = section_lines(pitch)
                pitch_note = pitch_note or "From the content: write your own on About me."
            out.append(
                CardSection(sid, "Your pitch outline", "pitch-outline", lines, note=pitch_note)
            )
        elif sid == "@planned-questions":
            lines = tuple(planned or ())
            note = planned_note
            if not lines:
                lines = tuple(content_questions(content, info.audience))
                note = note or (
                    "From the content, for " + ", ".join(info.audience) if info.audience else ""
                )
            out.append(CardSection(sid, "Questions to ask", "planned-questions", lines, note=note))
        elif sid == "@timebox":
            nudges = timebox_nudges(
                content.section(info.nudges), minutes or info.minutes, content.round_defaults()
            )
            lines = tuple(CardLine(n.text, meta=f"{format_minutes(n.at)}") for n in nudges)
            out.append(CardSection(sid, "Timebox", "timebox", lines))
        elif sid == "@closing-topic":
            closing = _first_of_kind(content, "closing")
            lines = ()
            if closing and closing.items and "closing" not in _kinds_listed(content, info):
                lines = (CardLine(fill_closing(closing.items[0].text, closing_topic)),)
            out.append(CardSection(sid, "Closing topic", "closing-topic", lines))
        else:
            section = content.section(sid)
            if section is None or section.kind == "rounds":
                continue
            lines = section_lines(section)
            if section.kind == "closing":
                lines = tuple(CardLine(fill_closing(ln.text, closing_topic)) for ln in lines)
            out.append(
                CardSection(
                    section.id,
                    section.title,
                    section.kind,
                    lines,
                    rule=section.meta.get("rule", "") if section.kind == "steps" else "",
                )
            )
    return out


def standing_rule(sections: Sequence[CardSection]) -> str:
    """The reminder pinned to the card (the design move's rule), if the round has one."""
    for section in sections:
        if section.rule:
            return section.rule
    return ""


def stepper_section(sections: Sequence[CardSection]) -> CardSection | None:
    for section in sections:
        if section.kind == "steps" and section.lines:
            return section
    return None


def content_questions(content: Content, audience: Sequence[str]) -> list[CardLine]:
    lines: list[CardLine] = []
    seen: set[str] = set()
    for who in audience:
        for item in content.questions_for(who):
            if item.text not in seen:
                seen.add(item.text)
                lines.append(CardLine(item.text, meta=item.get("topic", "") or ""))
    return lines


def _first_of_kind(content: Content, kind: str) -> Section | None:
    found = content.by_kind(kind)
    return found[0] if found else None


def _kinds_listed(content: Content, info: RoundInfo) -> set[str]:
    return {s.kind for sid in info.sections if (s := content.section(sid)) is not None}


# --------------------------------------------------------------------------- stepper


@dataclass(frozen=True)
class StepView:
    index: int
    count: int
    current: CardLine | None
    next: CardLine | None


def step_view(section: CardSection | None, index: int) -> StepView:
    if section is None or not section.lines:
        return StepView(0, 0, None, None)
    count = len(section.lines)
    index = max(0, min(index, count - 1))
    nxt = section.lines[index + 1] if index + 1 < count else None
    return StepView(index, count, section.lines[index], nxt)


# --------------------------------------------------------------------------- timebox


@dataclass(frozen=True)
class Nudge:
    at: float  # minutes from the start
    text: str
    builtin: bool = False


def timebox_nudges(
    section: Section | None, minutes: int, defaults: RoundDefaults | None = None
) -> list[Nudge]:
    """The content's nudges placed on a round of ``minutes``, plus the wrap-up and
    time-up nudges of the pack's rounds section (``defaults``), the wrap-up only unless
    the content already nudges in the last minutes."""
    defaults = defaults or FALLBACK_ROUND  # a caller without the content pack
    nudges: list[Nudge] = []
    if section is not None:
        for item in section.items:
            if item.get("at") is not None:
                at = _float(item.get("at"))
            elif item.get("before_end") is not None:
                before = _float(item.get("before_end"))
                at = None if before is None else minutes - before
            else:
                continue
            if at is not None and 0 <= at < minutes:
                nudges.append(Nudge(at, item.text))
    left = defaults.wrap_up_before_end
    near = minutes - left
    if near > 0 and not any(n.at >= near for n in nudges):
        nudges.append(Nudge(near, defaults.wrap_up.replace("{minutes}", str(left)), True))
    nudges.append(Nudge(float(minutes), defaults.time_up, True))
    return sorted(nudges, key=lambda n: n.at)


@dataclass(frozen=True)
class TimeboxStatus:
    elapsed: float  # seconds
    remaining: float  # seconds, negative when over
    due: tuple[Nudge, ...]
    current: Nudge | None  # the latest nudge that is due
    upcoming: Nudge | None
    phase: str  # "running", "near-end", "over"
    fresh: bool  # the current nudge fell due in the last FRESH_NUDGE_SECONDS

    @property
    def current_text(self) -> str:
        """The current nudge, with any other nudge due at the same minute."""
        if self.current is None:
            return ""
        return "\n".join(n.text for n in self.due if n.at == self.current.at)


def timebox_status(
    started: dt.datetime,
    now: dt.datetime,
    minutes: int,
    nudges: Sequence[Nudge],
    near_end_minutes: int = NEAR_END_MINUTES,
) -> TimeboxStatus:
    elapsed = max(0.0, (now - started).total_seconds())
    remaining = minutes * 60 - elapsed
    due = tuple(n for n in nudges if n.at * 60 <= elapsed)
    upcoming = next((n for n in nudges if n.at * 60 > elapsed), None)
    current = due[-1] if due else None
    if remaining <= 0:
        phase = "over"
    elif remaining <= near_end_minutes * 60:
        phase = "near-end"
    else:
        phase = "running"
    fresh = current is not None and elapsed - current.at * 60 < FRESH_NUDGE_SECONDS
    return TimeboxStatus(elapsed, remaining, due, current, upcoming, phase, fresh)


def newly_due(nudges: Sequence[Nudge], seen_at: float, elapsed_seconds: float) -> list[Nudge]:
    """Nudges that fell due after minute ``seen_at`` (the last one already shown)."""
    return [n for n in nudges if seen_at < n.at and n.at * 60 <= elapsed_seconds]


def format_clock(seconds: float) -> str:
    sign = "-" if seconds < 0 else ""
    seconds = int(abs(seconds))
    return f"{sign}{seconds // 60}:{seconds % 60:02d}"


def format_minutes(at: float) -> str:
    return f"{at:g} min"


def clamp_minutes(value: Any) -> int:
    return max(MIN_MINUTES, min(MAX_MINUTES, _int(value, DEFAULT_MINUTES)))


# --------------------------------------------------------------------------- glance


def glance_text(round_title: str, step: StepView, status: TimeboxStatus | None) -> tuple[str, str]:
    """(large text, small caption) for glance mode: a fresh nudge first, then the current
    step, then the last nudge, then the round title."""
    if status is not None and status.current is not None and status.fresh:
        return status.current_text, f"Nudge · {format_clock(status.remaining)} left"
    if step.current is not None:
        caption = f"Step {step.index + 1}/{step.count}"
        if step.next is not None:
            caption += f" · next: {step.next.text}"
        return step.current.text, caption
    if status is not None:
        text = status.current_text or round_title
        return text, f"{format_clock(status.remaining)} left"
    return round_title, "Glance mode: press G to leave"


# --------------------------------------------------------------------------- state


@dataclass
class CueState:
    """Everything the card remembers across restarts."""

    round_type: str = ""
    steps: dict[str, int] = field(default_factory=dict)  # stepper index per round type
    minutes: dict[str, int] = field(default_factory=dict)  # user's round length per type
    loop_id: int | None = None  # None: the current loop of the day
    round_id: int | None = None  # the round being recorded
    running_type: str = ""  # the round type whose timer runs
    started_at: str = ""  # ISO start of the running round
    running_minutes: int = DEFAULT_MINUTES
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
        state.running_minutes = clamp_minutes(state.running_minutes)
        if state.started and state.running_type == "":
            state.started_at = ""
        return state

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @property
    def started(self) -> dt.datetime | None:
        if not self.started_at:
            return None
        try:
            moment = dt.datetime.fromisoformat(self.started_at)
        except ValueError:
            return None
        return moment if moment.tzinfo else moment.astimezone()

    @property
    def running(self) -> bool:
        return self.started is not None

    def step(self, round_type: str) -> int:
        return max(0, self.steps.get(round_type, 0))

    def move_step(self, round_type: str, delta: int, count: int) -> int:
        """Advance (``delta`` > 0) or go back, staying within ``count`` steps."""
        index = max(0, min(self.step(round_type) + delta, max(count - 1, 0)))
        self.steps[round_type] = index
        return index

    def round_minutes(self, info: RoundInfo) -> int:
        if self.running and self.running_type == info.id:
            return self.running_minutes
        return clamp_minutes(self.minutes.get(info.id, info.minutes))

    def needs_share_reminder(self, today: dt.date) -> bool:
        return self.reminder_shown_on != today.isoformat()


def merge_state(fresh: CueState, mine: CueState, changed: set[str]) -> CueState:
    """``fresh`` (just read from storage) with the fields this window ``changed`` taken
    from ``mine``: the card and the Cue page both edit the state without overwriting
    each other's newer values."""
    data = fresh.to_dict()
    own = mine.to_dict()
    for name in changed:
        if name in own:
            data[name] = own[name]
    return CueState.from_dict(data)


def clamp_opacity(value: Any) -> int:
    return max(OPACITY_MIN, min(OPACITY_MAX, _int(value, OPACITY_MAX)))


def clamp_font(value: Any) -> int:
    return max(FONT_MIN, min(FONT_MAX, _int(value, DEFAULT_FONT)))


class KeyValueStore(Protocol):
    def get(self, key: str, default: Any = None) -> Any: ...
    def set(self, key: str, value: Any) -> None: ...


def load_state(store: KeyValueStore) -> CueState:
    return CueState.from_dict(store.get(STATE_KEY))


def save_state(store: KeyValueStore, state: CueState) -> None:
    store.set(STATE_KEY, state.to_dict())


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


def default_rect(screen: Rect, glance: bool = False) -> Rect:
    """Top-right corner of the screen, next to where a video call usually is not."""
    w, h = GLANCE_SIZE if glance else CARD_SIZE
    w, h = min(w, screen.w - 2 * MARGIN), min(h, screen.h - 2 * MARGIN)
    return Rect(screen.right - w - MARGIN, screen.y + MARGIN, max(w, 1), max(h, 1))


def rescue_rect(rect: Rect, screens: Sequence[Rect]) -> Rect:
    """``rect`` if it can still be grabbed; otherwise the same size moved fully onto the
    nearest screen (shrunk if that screen is smaller)."""
    if not screens or is_reachable(rect, screens):
        return rect  # partly off-screen but grabbable: keep it where the user put it
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
) -> tuple[Rect, bool]:
    """Where to open the card: (rect, was_rescued). ``saved`` is the stored mapping
    ``{"<layout>|<mode>": [x, y, w, h], "last|<mode>": [...]}``. The geometry saved for
    this exact screen layout wins; else the last one used anywhere, rescued on screen;
    else the default corner of the first screen. ``usable`` are the screens' available
    areas (without panels), used for placing; the key uses the full ``screens``."""
    usable = list(usable or screens)
    mode = "glance" if glance else "card"
    saved = saved if isinstance(saved, dict) else {}
    exact = Rect.from_list(saved.get(f"{layout_key(screens)}|{mode}"))
    last = Rect.from_list(saved.get(f"last|{mode}"))
    candidate = exact or last
    if candidate is None:
        return default_rect(usable[0] if usable else Rect(0, 0, 1280, 800), glance), False
    rescued = rescue_rect(candidate, usable)
    return rescued, rescued != candidate


def remember_rect(saved: Any, screens: Sequence[Rect], rect: Rect, glance: bool = False) -> dict:
    """The stored mapping with ``rect`` recorded for this layout (and as the last used)."""
    mode = "glance" if glance else "card"
    out = dict(saved) if isinstance(saved, dict) else {}
    out[f"{layout_key(screens)}|{mode}"] = rect.as_list()
    out[f"last|{mode}"] = rect.as_list()
    return out


# --------------------------------------------------------------------------- helpers


def _int(value: Any, default: int) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        return default


def _float(value: Any) -> float | None:
    try:
        return float(value)
    except (TypeError, ValueError):
        return None
