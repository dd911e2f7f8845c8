"""What the user changes on a round's page, each kept in the card's saved state: the
step (the pitch-following line takes back/next first while it follows), the folds, the
closing topic and the round's length box.

Interface: ``PageControls(memory, pages, follow, day, content, infos, render=)``;
``step(delta)``, ``open_recovery()``, ``fold(section_id, collapsed)``, ``topic(text)``,
``set_length(round_id, minutes, running)`` and ``nudges(round_id)``.
"""

from __future__ import annotations

from PySide6.QtCore import QTimer

from companion.core.content import lengths
from companion.core.cue import rounds as cue_rounds
from companion.core.cue import timebox
from companion.ui.weak_calls import held_weakly


class PageControls:
    def __init__(self, memory, pages, follow, day, content, infos, *, render):
        self.memory = memory  # the card's saved state (companion/ui/cue/memory.py)
        self.pages = pages  # the round pages (companion/ui/cue/pages.py)
        self.follow = follow  # the pitch-following line (companion/ui/cue/voice.py)
        self.day = day  # the session's day service: a running round's length is the day's
        self.content = content
        self.infos = infos
        self.render = held_weakly(render)  # the card's, held weakly (the card keeps this)

    def step(self, delta: int) -> None:
        if self.follow.step(delta):  # following the pitch: back/next correct it
            return
        page = self.pages.current()
        if page is None or page.stepper is None:
            return
        section = cue_rounds.stepper_section(page.sections)
        count = len(section.lines) if section else 0
        state = self.memory.state
        before = state.step(page.round_id)
        if state.move_step(page.round_id, delta, count) != before:
            self.memory.change("steps")
        self.render()
        self._bring_into_view("stepper")

    def open_recovery(self) -> bool:
        """Unfold the recovery lines and scroll to them; False if the round has none."""
        page = self.pages.current()
        block = page.blocks.get("recovery") if page is not None else None
        if block is None:
            return False
        block.set_collapsed(False)
        self._bring_into_view("recovery")
        return True

    def _bring_into_view(self, what: str) -> None:
        """Now, and once more after the layout settles (a block just unfolded)."""
        self.pages.bring_into_view(what)
        pages = self.pages
        QTimer.singleShot(0, pages, lambda: pages.bring_into_view(what))

    def fold(self, section_id: str, collapsed: bool) -> None:
        state = self.memory.state
        names = set(state.collapsed)
        if collapsed:
            names.add(section_id)
        else:
            names.discard(section_id)
        state.collapsed = sorted(names)
        self.memory.change("collapsed")
        self.pages.set_user_folds(state.collapsed)

    def topic(self, topic: str) -> None:
        self.memory.state.closing_topic = topic
        self.memory.change("closing_topic")

    def set_length(self, round_id: str, minutes: int, running) -> bool:
        """Keep the length box's minutes; True when they are the running round's, which
        the day takes (and recomputes)."""
        minutes = lengths.clamp_minutes(minutes)
        self.memory.state.minutes[round_id] = minutes
        self.memory.change("minutes")
        if running is not None and running.type == round_id and running.minutes != minutes:
            self.day.set_length(running.id, minutes)
            return True
        return False

    def nudges(self, round_id: str) -> list[timebox.Nudge] | None:
        """The round type's nudges for the length in its box."""
        info = cue_rounds.find_round(self.infos, round_id)
        if info is None:
            return None
        minutes = self.memory.state.minutes[round_id]
        section = self.content.section(info.nudges) if info.nudges else None
        return timebox.timebox_nudges(section, minutes, self.content.round_defaults())
