"""The round pages of the card: one scrollable page per round type (and the generic page
of a custom type), built when first shown and kept until the data behind it changes.

Interface: ``show(info)`` puts a page up; ``render(card_state)`` gives its stepper, its
timebox and the pitch fold their slice of the card state; ``bring_into_view(what)``
scrolls a changed block into sight. Signals: ``step_moved``, ``collapsed_changed``,
``topic_changed``, ``length_changed(type id, minutes)``. The pages never read the window.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtWidgets import QStackedWidget

from companion.core.cue import rounds as cue_rounds
from companion.core.cue import timebox
from companion.core.cue.card import CardState
from companion.core.cue.opening import pitch_outline_open
from companion.ui.cue.sections import RoundPage
from companion.ui.weak_calls import held_weakly

PITCH = "@pitch-outline"


class RoundPages(QStackedWidget):
    step_moved = Signal(int)
    collapsed_changed = Signal(str, bool)
    topic_changed = Signal(str)
    length_changed = Signal(str, int)

    def __init__(self, build: Callable[[cue_rounds.RoundInfo], RoundPage], parent=None):
        super().__init__(parent)
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self._build = held_weakly(build)  # sections for a type, from the window's data
        self._pages: dict[str, RoundPage] = {}
        self._stale: set[str] = set()

    # --- pages ------------------------------------------------------------------------

    def page(self, info: cue_rounds.RoundInfo) -> RoundPage:
        page = self._pages.get(info.id)
        if page is not None and info.id not in self._stale:
            return page
        new = self._build(info)
        new.collapsed_changed.connect(self._on_collapsed)
        new.step_moved.connect(self.step_moved)
        new.topic_changed.connect(self._on_topic)
        new.length_changed.connect(lambda m, rid=info.id: self.length_changed.emit(rid, m))
        if page is not None:
            self.removeWidget(page)
            page.deleteLater()
        self._stale.discard(info.id)
        self._pages[info.id] = new
        self.addWidget(new)
        return new

    def show(self, info: cue_rounds.RoundInfo) -> RoundPage:  # noqa: A003 - the part's verb
        page = self.page(info)
        if self.currentWidget() is not page:
            self.setCurrentWidget(page)
        return page

    def current(self) -> RoundPage | None:
        widget = self.currentWidget()
        return widget if isinstance(widget, RoundPage) else None

    def pages(self) -> list[RoundPage]:
        return list(self._pages.values())

    def mark_stale(self) -> None:
        self._stale.update(self._pages)

    def prebuild(self, infos: list[cue_rounds.RoundInfo]) -> None:
        """Build the other round pages ahead of time, one per event-loop turn, so the
        first switch to each is as quick as the later ones."""
        pending = [i for i in infos if i.id not in self._pages]
        if not pending:
            return
        self.page(pending[0]).setVisible(False)
        # with ``self`` as context: Qt drops the call if the card is deleted before it
        QTimer.singleShot(0, self, lambda: self.prebuild(infos))

    # --- rendering --------------------------------------------------------------------

    def render(self, state: CardState, nudges: list[timebox.Nudge] | None = None) -> None:
        """The shown page's stepper, timebox and pitch fold, as ``state`` says."""
        page = self.current()
        if page is None:
            return
        self.show_step(page, state.step)
        if page.timebox is not None:
            if state.page_status is None:
                if nudges is not None:
                    page.timebox.set_schedule(nudges)
                page.timebox.show_idle(state.minutes)
            else:
                page.timebox.show_status(state.page_status, state.minutes)
        self._fold_pitch(page, state)

    def show_time(self, state: CardState) -> None:
        """Each second of a running round: the shown page's countdown and the nudge due
        now (the timebox), nothing else of the page."""
        page = self.current()
        if page is not None and page.timebox is not None and state.page_status is not None:
            page.timebox.show_status(state.page_status, state.minutes)

    def show_step(self, page: RoundPage, index: int) -> cue_rounds.StepView:
        view = cue_rounds.step_view(cue_rounds.stepper_section(page.sections), index)
        if page.stepper is not None:
            page.stepper.show_view(view)
        return view

    def _fold_pitch(self, page: RoundPage, state: CardState) -> None:
        """The pitch outline folds once the running round is past its opening (and opens
        for the next); a fold the user made by hand is left alone."""
        block = page.blocks.get(PITCH)
        if block is None or getattr(self, "_user_folded_pitch", False):
            return
        elapsed = state.page_status.elapsed if state.page_status is not None else None
        collapsed = not pitch_outline_open(elapsed)
        if block.collapsed != collapsed:
            block.blockSignals(True)  # the day's fold, not the user's: not saved
            block.set_collapsed(collapsed)
            block.blockSignals(False)

    def set_user_folds(self, collapsed: list[str]) -> None:
        self._user_folded_pitch = PITCH in collapsed

    def bring_into_view(self, what: str) -> bool:
        """Scroll the shown page so ``what`` (the stepper, or a block id) is in sight."""
        page = self.current()
        if page is None:
            return False
        if what == "stepper" and page.stepper is not None:
            # as much of the stepper as fits, and always its position and current step
            targets = [page.stepper.next, page.stepper.position, page.stepper.current]
        else:
            block = page.blocks.get(what)
            if block is None:
                return False
            targets = [block.body, block.header]
        for widget in targets:
            page.scroll.ensureWidgetVisible(widget, 0, 0)
        return True

    # --- folds and the topic, the same on every page ------------------------------------

    def _on_collapsed(self, section_id: str, collapsed: bool) -> None:
        for page in self._pages.values():  # the same section folds in every round
            block = page.blocks.get(section_id)
            if block is not None and block.collapsed != collapsed:
                block.blockSignals(True)
                block.set_collapsed(collapsed)
                block.blockSignals(False)
        self.collapsed_changed.emit(section_id, collapsed)

    def _on_topic(self, topic: str) -> None:
        for page in self._pages.values():
            page.set_topic(topic)
        self.topic_changed.emit(topic)

    def collapse_all(self, collapsed: bool) -> None:
        page = self.current()
        if page is not None:
            page.set_all_collapsed(collapsed)
