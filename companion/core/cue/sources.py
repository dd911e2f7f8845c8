"""Where the cue card's personal lines come from, and how it records a round.

The pitch outline comes from the About-me one-pager and the questions to ask from the
planner; when the user has written neither, the card shows the content's own lines.
"""

from __future__ import annotations

import datetime as dt

from companion.core.about.pitch import pitch_outline
from companion.core.about.store import load_text, words_per_minute
from companion.core.cue.rounds import CardLine
from companion.core.cue.state import CueState
from companion.core.day import loops
from companion.core.selfcheck.planner import planned_for


def pitch_outline_lines(db, plan=None) -> tuple[list[CardLine], str]:
    """The user's pitch outline from About me as card lines, with segment timings against
    the content's ``plan`` (a PitchPlan): ([], "") when there is none yet (the card then
    shows the content's pitch)."""
    text = load_text(db)
    if not text or not text.strip():
        return [], ""
    segments = pitch_outline(text, words_per_minute(db), plan)
    lines = []
    total = 0.0
    for seg in segments:
        est, budget = float(seg.estimated_seconds), float(seg.budget_seconds)
        total += est
        meta = f"{est:.0f} s / {budget:.0f} s" if budget else f"{est:.0f} s"
        lines.append(CardLine(seg.title, detail=seg.first_line, meta=meta))
    if not lines:
        return [], ""
    return lines, f"From About me: about {total:.0f} s spoken."


def planned_question_lines(db, loop_id: int | None, audience: tuple[str, ...]) -> list[CardLine]:
    """Questions planned for this interviewer and not yet asked ([] if none)."""
    if loop_id is None or not audience:
        return []
    return [
        CardLine(q.text)
        for who in audience
        for q in planned_for(db, loop_id, who)
        if not q.asked_at
    ]


def resolve_loop_id(db, state: CueState, today: dt.date) -> int | None:
    """The loop the card records into: the chosen one if it still exists, else today's."""
    if state.loop_id is not None and loops.get_loop(db, state.loop_id) is not None:
        return state.loop_id
    current = loops.current_loop(db, today)
    return current.id if current else None
