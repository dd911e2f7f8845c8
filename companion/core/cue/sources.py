"""Where the cue card's personal lines come from, and how it records a round.

The pitch outline comes from the About-me one-pager and the questions to ask from the
planner; when the user has written neither, the card shows the content's own lines.
"""

from __future__ import annotations

import datetime as dt

from companion.core.about.pitch import pitch_outline
from companion.core.about.store import load_text, words_per_minute
from companion.core.cue.rounds import CardLine, RoundInfo
from companion.core.cue.state import CueState
from companion.core.day import loops
from companion.core.selfcheck.planner import planned_for
from companion.core.timeutil import to_stored


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


def start_round(db, state: CueState, info: RoundInfo, now: dt.datetime, minutes: int) -> int:
    """Record the round's start in the journal and start the timer; returns the round id.

    A round of this type scheduled for today in the loop and not yet started is reused,
    so the journal does not get a duplicate row.
    """
    loop_id = resolve_loop_id(db, state, now.date())
    scheduled = None
    if loop_id is not None:
        for rnd in loops.list_rounds(db, loop_id):
            when = rnd.scheduled
            if (
                rnd.type == info.id
                and not rnd.started_at
                and when is not None
                and when.astimezone(now.tzinfo).date() == now.date()
            ):
                scheduled = rnd.id
                break
    round_id = loops.start_round(
        db,
        info.id,
        now,
        loop_id=loop_id,
        round_id=scheduled,
        interviewer_role=info.audience[0] if info.audience else "",
    )
    state.round_id = round_id
    state.running_type = info.id
    state.started_at = to_stored(now)
    state.running_minutes = minutes
    state.seen_nudge_at = -1.0
    return round_id


def end_round(db, state: CueState, now: dt.datetime) -> int | None:
    """Record the round's end and stop the timer; returns the round id (None if the card
    had no recorded round, e.g. the row was deleted meanwhile)."""
    round_id = state.round_id
    if round_id is not None and loops.get_round(db, round_id) is not None:
        loops.end_round(db, round_id, now)
    else:
        round_id = None
    state.round_id = None
    state.running_type = ""
    state.started_at = ""
    state.seen_nudge_at = -1.0
    return round_id
