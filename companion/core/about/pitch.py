"""The spoken pitch inside the About-me one-pager: segments, timing and the numbers check.

A one-pager is Markdown. A heading ties the text under it to a pitch segment, either by
its name ("## Who I am", "### Strongest evidence (30 s)") or by an explicit marker at the
end of any heading ("## Opening line {identity}"). The segment runs until the next heading
of the same or a higher level. A heading named "Three projects" (or marked
``{projects}``) starts the projects section; each sub-heading or top-level list item in it
is one project, and each project should carry at least one number.

Everything here is pure Python and fast enough to run on every pause in typing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from companion.core.about.segments import (
    FENCE,
    HEADING,
    Heading,
    normalise,
    scan_headings,
)
from companion.core.about.spoken import (
    DEFAULT_WPM,
    LIST_ITEM,
    MAX_WPM,
    MIN_WPM,
    SPACES,
    clamp_wpm,
    find_numbers,
    line_words,
    seconds_for,
    spoken_text,
)
from companion.core.content.plans import FALLBACK_PITCH
from companion.core.text import count_of

if TYPE_CHECKING:
    from companion.core.content.plans import PitchPlan

# fallback only: analyze() uses the pack's pitch `target:` (PitchPlan.target)
TARGET_SECONDS = (float(FALLBACK_PITCH.target[0]), float(FALLBACK_PITCH.target[1]))


@dataclass(frozen=True)
class SegmentReport:
    id: str
    title: str
    budget_seconds: int
    present: bool
    words: int
    seconds: float
    first_line: str
    heading_line: int | None  # 0-based line of the heading, None when missing
    end_line: int | None  # 0-based line after the segment's last line

    @property
    def delta_seconds(self) -> float:
        return self.seconds - self.budget_seconds

    @property
    def status(self) -> str:
        """empty, missing, under, ok or over (within 25% of the budget counts as ok)."""
        if not self.present:
            return "missing"
        if self.words == 0:
            return "empty"
        if self.seconds > self.budget_seconds * 1.25:
            return "over"
        if self.seconds < self.budget_seconds * 0.75:
            return "under"
        return "ok"


@dataclass(frozen=True)
class ProjectCheck:
    title: str
    line: int  # 0-based
    numbers: tuple[str, ...]  # the figures found, e.g. ("40%", "3 engineers")

    @property
    def has_number(self) -> bool:
        return bool(self.numbers)


@dataclass(frozen=True)
class PitchAnalysis:
    words_per_minute: float
    segments: tuple[SegmentReport, ...]
    projects: tuple[ProjectCheck, ...]
    projects_section: bool
    total_words: int
    document_words: int
    warnings: tuple[str, ...] = field(default=())
    target: tuple[float, float] = TARGET_SECONDS  # the pack's whole-pitch range, seconds

    @property
    def total_seconds(self) -> float:
        return sum(s.seconds for s in self.segments)

    @property
    def timing_status(self) -> str:
        """empty, short, ok or long against the pack's target (60-90 s as shipped)."""
        if self.total_words == 0:
            return "empty"
        if self.total_seconds > self.target[1]:
            return "long"
        if self.total_seconds < self.target[0]:
            return "short"
        return "ok"

    @property
    def projects_without_numbers(self) -> tuple[ProjectCheck, ...]:
        return tuple(p for p in self.projects if not p.has_number)

    def segment(self, segment_id: str) -> SegmentReport:
        for report in self.segments:
            if report.id == segment_id:
                return report
        raise KeyError(segment_id)


@dataclass(frozen=True)
class OutlineSegment:
    """One line of the pitch outline the cue card shows for the opening round."""

    id: str
    title: str
    first_line: str  # "" when the one-pager has no text for this segment
    budget_seconds: int
    estimated_seconds: float


def _first_line(lines: list[str]) -> str:
    """The first sentence of the first paragraph (a paragraph may wrap over lines)."""
    paragraph: list[str] = []
    for line in lines:
        text = SPACES.sub(" ", spoken_text(line)).strip()
        if text:
            paragraph.append(text)
        elif paragraph:
            break
    joined = " ".join(paragraph)
    sentence = re.split(r"(?<=[.!?])\s+(?=[A-Z\[\"'“])", joined, maxsplit=1)[0]
    return sentence if len(sentence) <= 160 else sentence[:157].rstrip() + "..."


def _body_lines(lines: list[str], start: int, end: int) -> list[str]:
    """Spoken lines in [start, end): not inside fences, not headings (structure, not
    speech), not HTML comments."""
    body: list[str] = []
    in_fence = False
    for line in lines[start:end]:
        if FENCE.match(line):
            in_fence = not in_fence
            continue
        if in_fence or line.lstrip().startswith("<!--") or HEADING.match(line):
            continue
        body.append(line)
    return body


def _section_end(headings: list[Heading], index: int, total_lines: int) -> int:
    own = headings[index]
    for later in headings[index + 1 :]:
        if later.level <= own.level or later.segment is not None:
            return later.line
    return total_lines


def _plan(plan: PitchPlan | None) -> PitchPlan:
    if plan is not None:
        return plan
    return FALLBACK_PITCH  # callers without a content pack (fuzzing, bare tests)


def analyze(
    text: str, words_per_minute: float = DEFAULT_WPM, plan: PitchPlan | None = None
) -> PitchAnalysis:
    """Words and speaking seconds per segment, the projects' numbers, and warnings; the
    segments, their labels and budgets and the target come from the pack's ``plan``."""
    plan = _plan(plan)
    wpm = clamp_wpm(words_per_minute)
    lines = text.splitlines()
    headings = scan_headings(lines, {normalise(s.title): s.id for s in plan.segments})
    found: dict[str, tuple[int, int]] = {}
    projects_span: tuple[int, int, int] | None = None  # start, end, heading level
    for index, heading in enumerate(headings):
        if heading.segment is None:
            continue
        end = _section_end(headings, index, len(lines))
        if heading.segment == "projects":
            if projects_span is None:
                projects_span = (heading.line, end, heading.level)
        elif heading.segment not in found:
            found[heading.segment] = (heading.line, end)

    reports = []
    for spec in plan.segments:
        if spec.id in found:
            start, end = found[spec.id]
            body = _body_lines(lines, start + 1, end)
            words = sum(line_words(line) for line in body)
            reports.append(
                SegmentReport(
                    spec.id,
                    spec.title,
                    spec.seconds,
                    True,
                    words,
                    seconds_for(words, wpm),
                    _first_line(body),
                    start,
                    end,
                )
            )
        else:
            reports.append(
                SegmentReport(spec.id, spec.title, spec.seconds, False, 0, 0.0, "", None, None)
            )

    projects: tuple[ProjectCheck, ...] = ()
    if projects_span is not None:
        projects = tuple(_projects(lines, headings, *projects_span))

    result = PitchAnalysis(
        wpm,
        tuple(reports),
        projects,
        projects_span is not None,
        sum(r.words for r in reports),
        sum(line_words(line) for line in lines),
        target=(float(plan.target[0]), float(plan.target[1])),
    )
    return replace(result, warnings=tuple(_warnings(result)))


def _warnings(result: PitchAnalysis) -> list[str]:
    warnings: list[str] = []
    present = [s for s in result.segments if s.present]
    if not present:
        headings = ", ".join(f"'## {s.title}'" for s in result.segments)
        warnings.append(
            f"No pitch segments found. Use headings such as {headings} (or end any "
            "heading with a marker like {identity})."
        )
    else:
        missing = [s.title for s in result.segments if not s.present]
        if missing:
            warnings.append(
                ("Missing segment: " if len(missing) == 1 else "Missing segments: ")
                + ", ".join(missing)
                + "."
            )
    status = result.timing_status
    total = result.total_seconds
    if status == "long":
        warnings.append(
            f"The pitch runs {total:.0f} s, over the {result.target[1]:.0f} s limit: cut about "
            f"{(total - result.target[1]) * result.words_per_minute / 60:.0f} words."
        )
    elif status == "short" and present:
        warnings.append(
            f"The pitch runs {total:.0f} s, under the {result.target[0]:.0f} s minimum: add about "
            f"{(result.target[0] - total) * result.words_per_minute / 60:.0f} words of evidence."
        )
    if not result.projects_section:
        warnings.append("No 'Three projects' section found.")
    else:
        count = len(result.projects)
        if count != 3:
            warnings.append(
                f"The projects section lists {count_of(count, 'project')}; aim for three."
            )
        for project in result.projects_without_numbers:
            warnings.append(
                f"Project '{project.title}' (line {project.line + 1}) has no number: add a "
                "count, percentage, money, latency or scale."
            )
    return warnings


def _projects(lines: list[str], headings: list[Heading], start: int, end: int, level: int):
    """Projects are the sub-headings of the section or, failing that, its top-level items."""
    subs = [h for h in headings if start < h.line < end and h.level > level]
    if subs:
        top = min(h.level for h in subs)
        subs = [h for h in subs if h.level == top]
        for i, heading in enumerate(subs):
            stop = subs[i + 1].line if i + 1 < len(subs) else end
            body = "\n".join([heading.text, *_body_lines(lines, heading.line + 1, stop)])
            yield ProjectCheck(heading.text or f"Project {i + 1}", heading.line, find_numbers(body))
        return
    items: list[tuple[int, list[str]]] = []
    for number in range(start + 1, end):
        line = lines[number]
        match = LIST_ITEM.match(line)
        if match:
            items.append((number, [match.group(1)]))
        elif items and (line.startswith((" ", "\t")) or not line.strip()):
            items[-1][1].append(line)
    for number, body in items:
        title = re.sub(r"\s+", " ", spoken_text(body[0])).strip()
        title = re.split(r"(?<=[.:;!?])\s|\s[-–—]\s", title, maxsplit=1)[0].strip(" :.-–—")
        yield ProjectCheck(
            title[:80] or f"Item on line {number + 1}", number, find_numbers("\n".join(body))
        )


def pitch_outline(
    text: str, words_per_minute: float = DEFAULT_WPM, plan: PitchPlan | None = None
) -> list[OutlineSegment]:
    """The pack's segments in speaking order with each one's first line and timing, for the
    cue card. Segments the one-pager lacks come back with an empty ``first_line``."""
    analysis = analyze(text, words_per_minute, plan)
    return [
        OutlineSegment(s.id, s.title, s.first_line, s.budget_seconds, round(s.seconds, 1))
        for s in analysis.segments
    ]


def calibrated_rate(words: int, seconds: float) -> float:
    """Words per minute from one timed read-aloud; ValueError with a readable reason when
    the reading cannot be right (too short, or an implausible rate)."""
    if words < 20:
        raise ValueError(f"The pitch has only {words} words; write at least 20 before calibrating.")
    if seconds < 5:
        raise ValueError(f"{seconds:.1f} s is too short for a reading; read the whole pitch aloud.")
    rate = words * 60.0 / seconds
    if not MIN_WPM <= rate <= MAX_WPM:
        raise ValueError(
            f"That reading gives {rate:.0f} words per minute, outside the plausible "
            f"{MIN_WPM:.0f}-{MAX_WPM:.0f}; try again, reading at your interview pace."
        )
    return round(rate, 1)


def format_report(analysis: PitchAnalysis) -> str:
    """A plain-text table of the analysis, for the command line."""
    rows = [f"{'segment':<20} {'words':>5} {'seconds':>7} {'budget':>6}  status"]
    for s in analysis.segments:
        seconds = f"{s.seconds:.0f}" if s.present else "-"
        rows.append(f"{s.title:<20} {s.words:>5} {seconds:>7} {s.budget_seconds:>6}  {s.status}")
    lo, hi = analysis.target
    rows.append(
        f"{'whole pitch':<20} {analysis.total_words:>5} {analysis.total_seconds:>7.0f} "
        f"{f'{lo:.0f}-{hi:.0f}':>6}  {analysis.timing_status}"
    )
    rows.append(f"speaking rate: {analysis.words_per_minute:.0f} words per minute")
    missing = analysis.projects_without_numbers
    if not analysis.projects_section:
        rows.append("projects: no 'Three projects' section")
    elif missing:
        rows.append("projects lacking a number:")
        rows.extend(f"  - {p.title} (line {p.line + 1})" for p in missing)
    else:
        rows.append(f"projects: all {len(analysis.projects)} carry a number")
    if analysis.warnings:
        rows.append("warnings:")
        rows.extend(f"  - {w}" for w in analysis.warnings)
    return "\n".join(rows)
