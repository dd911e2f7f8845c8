"""What the user does on the card besides Start/End: the stepper, the keys, the look's
options (opacity, text size, frame, folds), the closing topic and a round's length.
A part of :class:`companion.ui.cue.window.CueCardWindow` (a mixin over its parts)."""

from __future__ import annotations

from PySide6.QtCore import QTimer
from PySide6.QtGui import QKeyEvent

from companion.core.content import lengths
from companion.core.cue import rounds as cue_rounds
from companion.core.cue import timebox
from companion.ui.cue.look import card_key
from companion.ui.preflight.window import open_preflight


class CardControls:
    def move_step(self, delta: int) -> None:
        if self.follow.step(delta):  # following the pitch: back/next correct it
            return
        page = self._current_page()
        if page is None or page.stepper is None:
            return
        section = cue_rounds.stepper_section(page.sections)
        count = len(section.lines) if section else 0
        before = self.state.step(page.round_id)
        if self.state.move_step(page.round_id, delta, count) != before:
            self.memory.change("steps")
        self.render()
        self._bring_into_view("stepper")

    def _bring_into_view(self, what: str) -> None:
        """Now, and once more after the layout settles (a block just unfolded)."""
        self.pages.bring_into_view(what)
        QTimer.singleShot(0, lambda: self.pages.bring_into_view(what))

    def show_recovery(self) -> bool:
        """For "I'm stuck": leave glance mode, open the recovery lines and scroll to them
        (a global hotkey; the card does not take the focus). False if the round has none."""
        if self.state.glance:
            self.set_glance(False)
        page = self._current_page()
        block = page.blocks.get("recovery") if page is not None else None
        if block is None:
            return False
        block.set_collapsed(False)
        self._bring_into_view("recovery")
        return True

    def show_stories(self) -> bool:
        """The stories hotkey: open the Stories fold, or step its filter to the next
        question type. False when the round on screen has no Stories fold."""
        if self.state.glance:
            self.set_glance(False)
        if not self.stories.fold.isVisibleTo(self):
            return False
        self.stories.next_filter()
        return True

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 (Qt API)
        found = card_key(event.key(), event.modifiers())
        if found is None:
            super().keyPressEvent(event)
            return
        name, value = found
        if name == "round":
            info = cue_rounds.round_for_key(self.infos, value)
            if info is not None:
                self.set_round(info.id)
        elif name == "press":
            self.toggle_round()
        elif name == "step":
            self.move_step(value)
        elif name == "glance":
            self.toggle_glance()
        elif name == "leave-glance":  # Esc leaves glance mode; it never hides the card
            if self.state.glance:
                self.set_glance(False)
        elif name == "font":
            self.appearance.change_font(value)
        elif name == "opacity":
            self.set_opacity(self.state.opacity + value)
        elif name == "story-told":
            self.stories.fold.mark_current()
        elif name == "stories":
            self.show_stories()
        event.accept()

    def open_preflight(self) -> None:
        open_preflight(self.ctx, self.bus, self.day.dnd, self)

    def _collapse_all(self, collapsed: bool) -> None:
        self.pages.collapse_all(collapsed)

    def _on_collapsed(self, section_id: str, collapsed: bool) -> None:
        names = set(self.state.collapsed)
        if collapsed:
            names.add(section_id)
        else:
            names.discard(section_id)
        self.state.collapsed = sorted(names)
        self.memory.change("collapsed")
        self.pages.set_user_folds(self.state.collapsed)

    def _on_topic(self, topic: str) -> None:
        self.state.closing_topic = topic
        self.memory.change("closing_topic")

    def _on_length(self, round_id: str, minutes: int) -> None:
        minutes = lengths.clamp_minutes(minutes)
        self.state.minutes[round_id] = minutes
        self.memory.change("minutes")
        info = cue_rounds.find_round(self.infos, round_id)
        rnd = self._day_round
        if rnd is not None and rnd.type == round_id and rnd.minutes != minutes:
            self.day.set_length(rnd.id, minutes)  # the day's length: the day recomputes
            return
        nudges = None
        if info is not None:
            content = self.ctx.content
            section = content.section(info.nudges) if info.nudges else None
            nudges = timebox.timebox_nudges(section, minutes, content.round_defaults())
        state = self.compute()
        self.card = state
        self.pages.render(state, nudges)
