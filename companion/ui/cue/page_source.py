"""What a round page is built from: the content, the user's pitch outline (About me) and
the questions planned for the loop's interviewer (journal), read once and kept until the
data changes. Interface: ``build(info, state)`` -> RoundPage; ``forget()``; ``loop_id()``."""

from __future__ import annotations

import logging

from companion.core.cue import rounds as cue_rounds
from companion.core.cue.sources import pitch_outline_lines, planned_question_lines, resolve_loop_id
from companion.core.cue.state import CueState
from companion.ui.cue.sections import RoundPage

log = logging.getLogger(__name__)


class PageSource:
    def __init__(self, ctx):
        self.ctx = ctx
        self._pitch: tuple[list[cue_rounds.CardLine], str] | None = None
        self._loop_id: int | None = None
        self._loop_known = False

    def forget(self) -> None:
        """About me, the planner or the journal changed: read them again when needed."""
        self._pitch = None
        self._loop_known = False

    def loop_id(self, state: CueState) -> int | None:
        """The loop the card records into: the chosen one, else today's."""
        if not self._loop_known:
            try:
                self._loop_id = resolve_loop_id(self.ctx.db, state, self.ctx.now().date())
                self._loop_known = True
            except Exception as exc:
                log.warning("no current loop: %s", exc)
        return self._loop_id

    def _pitch_lines(self) -> tuple[list[cue_rounds.CardLine], str]:
        if self._pitch is None:
            self._pitch = pitch_outline_lines(self.ctx.db, self.ctx.content.pitch_plan())
        return self._pitch

    def build(self, info: cue_rounds.RoundInfo, state: CueState) -> RoundPage:
        content = self.ctx.content
        pitch, pitch_note = self._pitch_lines() if "@pitch-outline" in info.sections else ([], "")
        planned: list[cue_rounds.CardLine] = []
        if "@planned-questions" in info.sections:
            planned = planned_question_lines(self.ctx.db, self.loop_id(state), info.audience)
        minutes = state.round_minutes(info)
        sections = cue_rounds.build_sections(
            content,
            info,
            pitch_outline=pitch,
            pitch_note=pitch_note,
            planned=planned,
            planned_note="Planned for this interviewer" if planned else "",
            closing_topic=state.closing_topic,
            minutes=minutes,
        )
        closing = content.by_kind("closing")
        template = closing[0].items[0].text if closing and closing[0].items else ""
        return RoundPage(
            info.id,
            sections,
            collapsed=set(state.collapsed),
            topic=state.closing_topic,
            minutes=minutes,
            closing_template=template,
        )
