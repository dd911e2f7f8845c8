"""Typed views of the numbers and rules a content pack holds, for the rest of the app.

The pitch budgets and target, the planner's question count, the capture and thank-you
windows, the before-round offsets, round lengths and the timer's own nudges, and the
reminder texts are content: a user pack can change any of them, and every part of the
app reads them through these functions (as methods of :class:`Content`).

Each function falls back to a code default ONLY when the pack lacks a valid value (a
deleted or broken section); the constants named ``FALLBACK_*`` are those defaults and
say so. The shipped pack sets every value explicitly. Values reaching here have passed
``fields.check_section``, so they are well formed.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import TYPE_CHECKING

from companion.core.content.fields import DEFAULT_PITCH_TARGET, PITCH_SEGMENT_IDS, parse_range
from companion.core.content.items import Item, Section

if TYPE_CHECKING:
    from companion.core.content.loader import Content


@dataclass(frozen=True)
class PlanSegment:
    id: str  # one of PITCH_SEGMENT_IDS
    title: str  # the label on the card, the About-me analysis and the CLI
    seconds: int  # the budget
    holds: str = ""


@dataclass(frozen=True)
class PitchPlan:
    segments: tuple[PlanSegment, ...]
    target: tuple[int, int]  # whole pitch, seconds

    def segment(self, segment_id: str) -> PlanSegment | None:
        return next((s for s in self.segments if s.id == segment_id), None)

    @property
    def target_text(self) -> str:
        lo, hi = self.target
        return f"{lo}-{hi}" if lo != hi else f"{lo}"


@dataclass(frozen=True)
class PlannerRules:
    min_questions: int
    max_questions: int
    rule: str  # the rule as the pack words it
    intro: str = ""  # the questions section's introduction

    @property
    def count_text(self) -> str:
        lo, hi = self.min_questions, self.max_questions
        return f"{_number_word(lo)} or {_number_word(hi)}" if lo != hi else _number_word(lo)


@dataclass(frozen=True)
class BeforeStep:
    minutes: int  # before the round starts
    text: str
    link: str = ""
    first_round_only: bool = False  # the guide's morning items (`rounds: first`)


@dataclass(frozen=True)
class SilenceNudge:
    seconds: int  # of silence before the card's nudge
    text: str  # the nudge


@dataclass(frozen=True)
class RoundDefaults:
    minutes: int  # length of a round whose type gives none
    wrap_up_before_end: int  # the timer's own wrap-up nudge, minutes before the end
    wrap_up: str  # its text; "{minutes}" is the minutes left
    time_up: str  # the nudge at the end
    take_over_within: int = 5  # minutes a press takes over a round the clock started


# Fallbacks, used only when the pack has no valid value (see the module docstring).
FALLBACK_PITCH = PitchPlan(
    (
        PlanSegment("identity", "Who I am", 10, "Role, years on production systems, current focus"),
        PlanSegment(
            "evidence",
            "Strongest evidence",
            30,
            "One project: scale, problem, the part you owned, the outcome as a number",
        ),
        PlanSegment(
            "depth", "Current depth", 20, "What you work on now, in this role's vocabulary"
        ),
        PlanSegment("why-role", "Why this role", 20, "Tied to this team's specific mandate"),
        PlanSegment("hand-back", "Hand back", 10, "An invitation for them to steer"),
    ),
    DEFAULT_PITCH_TARGET,
)
FALLBACK_PLANNER = PlannerRules(3, 4, "Pick three or four questions across the whole loop.")
FALLBACK_CAPTURE_HOURS = 1.0
FALLBACK_THANK_YOU_HOURS = 24.0
FALLBACK_BEFORE_ROUND = (BeforeStep(10, "Warm-up: pitch aloud once, one answer aloud."),)
FALLBACK_SILENCE = SilenceNudge(20, "Narrate.")
FALLBACK_ROUND = RoundDefaults(
    45, 2, "{minutes} minutes left: wrap up.", "Time is up: close with your question."
)


def pitch_plan(content: Content) -> PitchPlan:
    """The pitch section's segments in order, with labels and budgets, and its target."""
    sections = content.by_kind("pitch")
    if not sections:
        return FALLBACK_PITCH  # no pitch section in the pack at all
    section = sections[0]
    segments = []
    for item in section.items:
        sid, seconds = item.get("id") or "", item.int("seconds")
        if sid in PITCH_SEGMENT_IDS and seconds > 0 and sid not in {s.id for s in segments}:
            label = item.get("heading") or item.text
            segments.append(PlanSegment(sid, label, seconds, item.get("holds", "") or ""))
    if not segments:
        return FALLBACK_PITCH  # a pitch section without one usable segment
    target = parse_range(section.meta.get("target")) or FALLBACK_PITCH.target
    return PitchPlan(tuple(segments), target)


def planner_rules(content: Content) -> PlannerRules:
    """How many questions to plan across a loop, and the rule's wording."""
    rule, pick, intro = "", None, ""
    for section in content.by_kind("questions"):
        rule = rule or section.meta.get("rule", "")
        pick = pick or parse_range(section.meta.get("pick"))
        intro = intro or " ".join(section.intro.split())
    lo, hi = pick or (FALLBACK_PLANNER.min_questions, FALLBACK_PLANNER.max_questions)
    return PlannerRules(lo, hi, rule or FALLBACK_PLANNER.rule, intro)


def closing_line(content: Content) -> tuple[str, str]:
    """The closing section's introduction (why a specific line) and its line, the
    ``{topic}`` slot left for the caller; ("", "") when the pack has none."""
    for section in content.by_kind("closing"):
        if section.items:
            return " ".join(section.intro.split()), section.items[0].text
    return "", ""


def _linked_item(content: Content, phase: str, link: str) -> Item | None:
    for section in content.checklist(phase):
        for item in section.items:
            if item.get("link") == link:
                return item
    return None


def _hours(item: Item | None, fallback: float) -> dt.timedelta:
    try:
        hours = float(item.get("within_hours") or "") if item is not None else fallback
    except ValueError:
        hours = fallback  # cannot happen after the field check; kept for hand-made Content
    return dt.timedelta(hours=hours if hours > 0 else fallback)


def capture_window(content: Content) -> dt.timedelta:
    """How soon after a round its questions are written down (after-loop `journal-capture`)."""
    item = _linked_item(content, "after-loop", "journal-capture")
    return _hours(item, FALLBACK_CAPTURE_HOURS)


def thank_you_after(content: Content) -> dt.timedelta:
    """How soon after the loop the thank-you is sent (after-loop `thank-you`)."""
    item = _linked_item(content, "after-loop", "thank-you")
    return _hours(item, FALLBACK_THANK_YOU_HOURS)


def before_round_steps(content: Content) -> tuple[BeforeStep, ...]:
    """The before-round items that carry ``minutes_before``, earliest first."""
    steps = [
        BeforeStep(
            item.int("minutes_before"),
            item.text,
            item.get("link", "") or "",
            item.get("rounds") == "first",
        )
        for section in content.checklist("before-round")
        for item in section.items
        if (item.get("minutes_before") or "").isdigit()
    ]
    if not steps:
        return FALLBACK_BEFORE_ROUND  # no timed before-round item in the pack
    return tuple(sorted(steps, key=lambda s: -s.minutes))


def silence_nudge(content: Content) -> SilenceNudge:
    """The recovery item that carries ``silence_seconds:``: the limit, and its ``nudge:``
    (else its text) as the card's words."""
    for section in content.by_kind("recovery"):
        for item in section.items:
            seconds = item.int("silence_seconds")
            if seconds > 0:
                return SilenceNudge(seconds, item.get("nudge") or item.text)
    return FALLBACK_SILENCE


def round_defaults(content: Content) -> RoundDefaults:
    """The default round length and the timer's own wrap-up and time-up nudges."""
    meta: dict[str, str] = {}
    for section in content.by_kind("rounds"):
        for key, value in section.meta.items():
            meta.setdefault(key, value)
    fallback = FALLBACK_ROUND
    return RoundDefaults(
        minutes=_whole(meta.get("minutes"), fallback.minutes),
        wrap_up_before_end=_whole(meta.get("wrap_up_before_end"), fallback.wrap_up_before_end),
        wrap_up=meta.get("wrap_up") or fallback.wrap_up,
        time_up=meta.get("time_up") or fallback.time_up,
        take_over_within=_whole(meta.get("take_over_within"), fallback.take_over_within),
    )


def reminder_text(content: Content, phase: str) -> str:
    """The notification text for a checklist phase: its ``reminder:``, else its intro."""
    for section in content.checklist(phase):
        text = section.meta.get("reminder") or _first_paragraph(section)
        if text:
            return text
    return f"The {phase.replace('-', ' ')} checklist is ready."  # no such checklist in the pack


def start_soon_text(content: Content) -> str:
    """The before-round list's ``start_soon:``: the words a minute before a round."""
    for section in content.checklist("before-round"):
        if section.meta.get("start_soon"):
            return section.meta["start_soon"]
    return ""


def sleep_line(content: Content) -> tuple[str, str]:
    """The night-before item that leads the list after midnight (``after_midnight: first``):
    its text and its why; ("", "") when the pack marks none."""
    for section in content.checklist("night-before"):
        for item in section.items:
            if item.get("after_midnight") == "first":
                return item.text, item.get("why", "") or ""
    return "", ""


def _first_paragraph(section: Section) -> str:
    return " ".join(section.intro.split("\n\n", 1)[0].split())


def _whole(value: str | None, fallback: int) -> int:
    return int(value) if value and value.isdigit() and int(value) > 0 else fallback


_WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")


def _number_word(n: int) -> str:
    return _WORDS[n] if 0 <= n < len(_WORDS) else str(n)
