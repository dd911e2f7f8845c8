"""The cue card's content for a round: its round types, the sections it shows, the
stepper through them, and the one line glance mode shows.

The window (``companion.ui.cue.window``) only renders what these functions decide.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from companion.core.content.items import Section
from companion.core.content.lengths import nudges_section, type_items, type_minutes
from companion.core.content.loader import Content
from companion.core.cue.timebox import (
    TimeboxStatus,
    format_clock,
    format_minutes,
    timebox_nudges,
)
from companion.core.selfcheck.planner import audience_title

TOPIC_PLACEHOLDER = "[topic]"


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
    also: tuple[str, ...] = ()  # other words an invitation names it by


def round_infos(content: Content) -> list[RoundInfo]:
    """Every round type in content order; those without a free `key:` get the next free one."""
    extras = type_items(content)
    infos: list[RoundInfo] = []
    used: set[int] = set()
    for rt in content.round_types():
        item = extras.get(rt.id)
        nudges = nudges_section(content, rt.id, item)
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
                minutes=type_minutes(content, rt.id, item),
                also=rt.also,
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
    intro: str = ""  # the pack section's introduction (plain text), for the fold's header


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
            # the guide gives one step time (the coding setup); the rest are the project's
            whose = "guide" if item.get("minutes_by") == "guide" else "ours"
            lines.append(
                CardLine(
                    item.text,
                    detail=item.get("detail", "") or "",
                    say=item.get("say", "") or "",
                    meta=f"{minutes} min ({whose})" if minutes else "",
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
                CardSection(
                    sid,
                    "Your pitch outline",
                    "pitch-outline",
                    lines,
                    note=pitch_note,
                    intro=" ".join(pitch.intro.split()) if pitch else "",
                )
            )
        elif sid == "@planned-questions":
            lines = tuple(planned or ())
            note = planned_note
            if not lines:
                lines, note = content_pick(content, info.audience)
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
                    intro=" ".join(section.intro.split()),
                )
            )
    return _intros_once(out)


def _intros_once(sections: list[CardSection]) -> list[CardSection]:
    """Each pack introduction on the first block that carries it only: the opening card
    lists the pitch outline and the pitch itself, which share the pitch's intro."""
    said: set[str] = set()
    out = []
    for section in sections:
        if section.intro and section.intro in said:
            section = replace(section, intro="")
        said.add(section.intro)
        out.append(section)
    return out


def standing_rule(sections: Sequence[CardSection]) -> str:
    """The reminder pinned to the card (the design move's rule), if the round has one."""
    for section in sections:
        if section.rule:
            return section.rule
    return ""


def next_question(sections: Sequence[CardSection]) -> CardLine | None:
    """The first question to ask of a round's page (planned ones first, as listed)."""
    for kind in ("planned-questions", "questions"):
        for section in sections:
            if section.kind == kind and section.lines:
                return section.lines[0]
    return None


def stepper_section(sections: Sequence[CardSection]) -> CardSection | None:
    for section in sections:
        if section.kind == "steps" and section.lines:
            return section
    return None


def content_pick(content: Content, audience: Sequence[str]) -> tuple[tuple[CardLine, ...], str]:
    """The pack's questions for a round's interviewers, no more than its pick (``pick:
    3-4``), and the note over them: whom they are for, by the pack's own name for that
    interviewer, and the pack's rule, said once."""
    rules = content.planner_rules()
    lines = tuple(content_questions(content, audience)[: rules.max_questions])
    if not lines:
        return (), ""
    titles = content.round_titles()  # the round types are named after the interviewers
    names = ", ".join(titles.get(who) or audience_title(who) for who in audience)
    return lines, f"{names} questions from the content. {rules.rule}".strip()


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


# --------------------------------------------------------------------------- glance


def glance_text(
    round_title: str,
    step: StepView,
    status: TimeboxStatus | None,
    question: CardLine | None = None,
) -> tuple[str, str]:
    """(large text, small caption) for glance mode: a fresh nudge first, then the current
    step, then the next question to ask (a round with no steps), then the last nudge,
    then the round title."""
    if status is not None and status.current is not None and status.fresh:
        return status.current_text, f"Nudge · {format_clock(status.remaining)} left"
    if step.current is not None:
        caption = f"Step {step.index + 1}/{step.count}"
        if step.next is not None:
            caption += f" · next: {step.next.text}"
        return step.current.text, caption
    if question is not None:
        left = f" · {format_clock(status.remaining)} left" if status is not None else ""
        return question.text, f"Next question to ask{left}"
    if status is not None:
        text = status.current_text or round_title
        return text, f"{format_clock(status.remaining)} left"
    return round_title, "Glance mode: press G to leave"
