"""Glance mode's view: one line in large type (the current step, the nudge due now, or
the next question to ask) and a small caption. Interface: ``render(big, small)``, or
``show_card(card_state, sections)`` with the sections of the page shown."""

from __future__ import annotations

from PySide6.QtWidgets import QVBoxLayout, QWidget

from companion.core.cue import rounds as cue_rounds
from companion.core.cue.card import CardState
from companion.ui.cue.fit_label import FitLabel
from companion.ui.cue.sections import label
from companion.ui.weak_calls import held_weakly


class GlanceView(QWidget):
    def __init__(self, parent=None):
        super().__init__(parent)
        self.setObjectName("cueGlance")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(10, 6, 10, 6)
        self.text = FitLabel("", "glance")  # shrinks to fit, never clipped
        self.text.setAccessibleName("Glance text")
        self.caption = label("", "small")
        layout.addWidget(self.text, 1)
        layout.addWidget(self.caption)
        self.setVisible(False)

    def render(self, big: str, small: str) -> None:
        if self.text.text() != big:
            self.text.setText(big)
        if self.caption.text() != small:
            self.caption.setText(small)

    def show_card(self, card: CardState, sections: list) -> None:
        """The card's glance: its current step, nudge or next question (core/cue/rounds.py)."""
        step = cue_rounds.step_view(cue_rounds.stepper_section(sections), card.step)
        question = cue_rounds.next_question(sections)
        big, small = cue_rounds.glance_text(
            card.tooltip or card.title, step, card.page_status, question
        )
        self.render(big, small)


class GlanceMode:
    """Glance mode on the card: the glance view instead of the widgets only the full card
    shows; the strips hidden for the while, not dismissed; the card's size kept apart
    for each mode (companion/ui/cue/appearance.py). ``switched`` is the card's call to
    redraw what depends on the mode (the mic lines, the glance text)."""

    def __init__(self, memory, appearance, header, view, full, strips, *, switched):
        self.memory = memory  # the mode is kept in the card's saved state
        self.appearance = appearance
        self.header = header
        self.view = view
        self.full = full  # the widgets only the full card shows
        self.strips = strips  # hidden in glance mode, shown again after if still wanted
        self.switched = held_weakly(switched)  # the card's, held weakly (the card keeps this)

    @property
    def on(self) -> bool:
        return self.memory.state.glance

    def set(self, on: bool) -> None:  # noqa: A003 - the part's verb
        if self.on != on:
            self.memory.state.glance = on
            self.memory.change("glance")
            self.appearance.save_geometry(glance=not on)
        self.apply()
        if self.appearance.placed:
            self.appearance.restore_geometry()

    def apply(self) -> None:
        on = self.on
        self.header.set_glance(on)
        for widget in self.full:
            widget.setVisible(not on)
        for strip in self.strips:
            strip.reveal(not on)
        self.view.setVisible(on)
        self.switched()
