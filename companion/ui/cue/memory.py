"""The card window's copy of what it keeps between runs (its look, steps, lengths, folds;
core/cue/state.py): a change is handed a moment later to the state's one owner,
:class:`companion.core.cue.state.CardMemory`, naming only the fields the card changed.

Interface: ``state`` (the card's :class:`~companion.core.cue.state.CueState`),
``change(*fields)``, ``save_now()``, ``reload()``, and ``remember(card_state)``: what
the card has seen (the round, its nudge, the page) as the card state says.
"""

from __future__ import annotations

import datetime as dt
import logging

from PySide6.QtCore import QObject, QTimer

from companion.core.cue import state as cue_state
from companion.core.cue.card import GENERIC, CardState, Seen

log = logging.getLogger(__name__)

SAVE_DELAY_MS = 400


class CardStateCopy(QObject):
    """The card's :class:`CueState` between saves, and the fields it changed since."""

    def __init__(self, settings, parent=None):
        super().__init__(parent)
        self.settings = settings
        self.state = cue_state.load_state(settings)
        self._changed: set[str] = set()
        self._timer = QTimer(self, singleShot=True, interval=SAVE_DELAY_MS)
        self._timer.timeout.connect(self.save_now)

    def change(self, *names: str) -> None:
        """Mark fields as changed by the card and save soon (merged with other writers)."""
        self._changed.update(names)
        self._timer.start()

    def save_now(self) -> None:
        self._timer.stop()
        if not self._changed:
            return
        try:
            mine = {name: getattr(self.state, name) for name in self._changed}
            self.state = cue_state.CardMemory(self.settings).change(**mine)  # the one writer
            self._changed.clear()
        except Exception as exc:  # a locked or broken database must not break the card
            log.warning("could not save the cue card state: %s", exc)

    def reload(self) -> None:
        """Pick up what the Cue page (or another window) saved, keeping our own edits."""
        fresh = cue_state.load_state(self.settings)
        self.state = cue_state.merge_state(fresh, self.state, self._changed)

    def remember(self, card: CardState) -> None:
        """Keep what the card state says the card has now seen."""
        state = self.state
        if card.reset and card.round is not None:
            state.steps[card.round.page] = 0  # Start resets the stepper
            self.change("steps")
        seen = card.seen
        if (seen.round_id, seen.nudge_at) != (state.round_id, state.seen_nudge_at):
            state.round_id = seen.round_id
            state.seen_nudge_at = seen.nudge_at
            self.change("round_id", "seen_nudge_at")
        if card.page and card.page != GENERIC and state.round_type != card.page:
            state.round_type = card.page
            self.change("round_type")

    def card_inputs(self) -> dict:
        """What the card state reads from the saved state (core/cue/card.py card_state)."""
        state = self.state
        return {
            "seen": Seen(state.round_id, state.seen_nudge_at),
            "steps": state.steps,
            "minutes": state.minutes,
            "last_type": state.round_type,
        }

    def reminder_due(self, today: dt.date) -> bool:
        """The screen-sharing reminder is due (once a day): True, and counted as shown."""
        if not self.state.needs_share_reminder(today):
            return False
        self.state.reminder_shown_on = today.isoformat()
        self.change("reminder_shown_on")
        return True
