"""How the card shows itself: glance mode, the voice lines' place, opacity and text
size, its window flags and its place on the screen, and the parts tests and hotkeys read.
A part of :class:`companion.ui.cue.window.CueCardWindow` (a mixin over its parts)."""

from __future__ import annotations

from PySide6.QtCore import Qt

from companion.core.cue import card as cue_card
from companion.core.cue import rounds as cue_rounds
from companion.ui.cue import voice as voice_line
from companion.ui.cue.pages import RoundPages
from companion.ui.cue.style import style_sheet


class CardLook:
    @property
    def title(self):
        return self.header.title

    @property
    def clock(self):
        return self.header.clock

    @property
    def start_button(self):
        return self.header.start_button

    @property
    def glance_button(self):
        return self.header.glance_button

    @property
    def round_buttons(self):
        return self.tabs.buttons

    @property
    def stack(self) -> RoundPages:
        return self.pages

    @property
    def banner_text(self):
        return self.banner.text

    @property
    def glance_text(self):
        return self.glance.text

    def _apply_flags(self) -> None:
        flags = Qt.WindowType.Tool | Qt.WindowType.WindowStaysOnTopHint
        if self.state.frameless:
            flags |= Qt.WindowType.FramelessWindowHint
        self.setWindowFlags(flags | self.ghost.flags())

    def set_glance(self, on: bool) -> None:
        if self.state.glance != on:
            self.state.glance = on
            self.memory.change("glance")
            self.save_geometry(glance=not on)
        self._apply_glance()
        if self.placement.ready:
            self.restore_geometry()

    def toggle_glance(self) -> None:
        self.set_glance(not self.state.glance)

    def _apply_glance(self) -> None:
        on = self.state.glance
        self.header.set_glance(on)
        for widget in (self.tabs, self.pages, self.hint):
            widget.setVisible(not on)
        for strip in (self.banner, self.reminder):  # hidden for the glance, not dismissed
            strip.reveal(not on)
        self.glance.setVisible(on)
        self._show_voice()
        self._update_glance()

    def _sync_voice(self, state) -> None:
        voice_line.render(
            self.voice,
            # the opt-in is kept per page, as the toggle shows it: a custom type's page
            cue_card.page_for(self._day_round, self.infos)[0] if self._day_round else None,
            state.page,
            self.isVisible(),
        )
        self._show_voice()

    def _show_voice(self) -> None:
        """Glance mode keeps the voice line only while the mic listens (its nudge), the
        pitch-following line only while it follows."""
        want = not self.state.glance or self.voice.mic_open
        if self.voice.isVisibleTo(self) != want:
            self.voice.setVisible(want)
        voice_line.render_follow(self.follow, self.card, self.isVisible(), self.state.glance)

    def _update_glance(self) -> None:
        if not self.state.glance or self.card is None:
            return
        page = self._current_page()
        sections = page.sections if page is not None else []
        step = cue_rounds.step_view(cue_rounds.stepper_section(sections), self.card.step)
        question = cue_rounds.next_question(sections)
        big, small = cue_rounds.glance_text(
            self.card.tooltip or self.card.title, step, self.card.page_status, question
        )
        self.glance.render(big, small)

    def _apply_look(self) -> None:
        self.setWindowOpacity(self.ghost.shown_opacity(self.state.opacity) / 100)
        self.menu.render(self.state.opacity, self.state.frameless)
        self.setStyleSheet(style_sheet(self.state.font_pt))

    def restore_geometry(self) -> bool:
        return self.placement.restore(self.state.glance)

    def save_geometry(self, glance: bool | None = None) -> None:
        self._geometry_timer.stop()
        self.placement.save(self.state.glance if glance is None else glance)

    def _screens_changed(self, *_args) -> None:
        self.placement.rescue()

    def moveEvent(self, event) -> None:  # noqa: N802 (Qt API)
        super().moveEvent(event)
        if self.placement.ready:
            self._geometry_timer.start()

    def resizeEvent(self, event) -> None:  # noqa: N802 (Qt API)
        super().resizeEvent(event)
        if self.placement.ready:
            self._geometry_timer.start()
