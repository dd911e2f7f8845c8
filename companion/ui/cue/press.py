"""Start/End on the card: what the card state says the next press does
(:attr:`companion.core.cue.card.CardState.next_press`), with its two guards: a click
just after the button changed its meaning is ignored (a double click), and a press that
must be confirmed arms the button for :data:`ARMED_FOR`.

Interface: ``StartEnd(day, captures, memory, banner, now, compute=, render=, running=)``;
``press()``, ``armed(now)`` (the card state reads it), ``follow(state)`` after each render.
"""

from __future__ import annotations

import datetime as dt
import logging

from PySide6.QtCore import QTimer

from companion.core.cue import card as cue_card
from companion.ui.weak_calls import held_weakly

log = logging.getLogger(__name__)

ARMED_FOR = cue_card.ARMED_FOR  # the second of two presses, within this


class StartEnd:
    def __init__(self, day, captures, memory, banner, now, *, compute, render, running):
        self.day = day  # the session's day service: it starts and ends rounds
        self.captures = captures  # the open captures ("focus-capture" brings one forward)
        self.memory = memory  # saved before a Start: the length box the day's rule reads
        self.banner = banner  # says a round the journal refused
        self.now = now
        # the card's own calls, held weakly (the card keeps this part)
        self.compute = held_weakly(compute)
        self.render = held_weakly(render)
        self.running = held_weakly(running)  # the day's running round, or None
        self._armed_at: dt.datetime | None = None
        self._settle = cue_card.Settle()

    def armed(self, now: dt.datetime) -> bool:
        return self._armed_at is not None and now - self._armed_at <= ARMED_FOR

    def follow(self, state: cue_card.CardState) -> None:
        """The card shows ``state``: a change of the button's meaning starts the wait."""
        self._settle = self._settle.follow(state.press_text, self.now())

    def press(self) -> None:
        if self._settle.ignores(self.now()):
            return  # the second click of a double click, on a button that just changed
        self._settle = self._settle.press(self.now())
        state = self.compute()
        press = state.next_press
        if press == "focus-capture":
            self.captures.bring_forward()
            self.render()
            return
        if press in ("confirm-unscheduled", "confirm-end"):
            self._armed_at = self.now()
            self.render()
            wait = int(ARMED_FOR.total_seconds() * 1000) + 50
            QTimer.singleShot(wait, self.banner, self.render)  # gone with the card
            return
        self._armed_at = None
        try:
            running = self.running()
            if press == "end" and running is not None:
                self.day.end_round(running.id)
            elif press in ("start", "start-now"):
                self._start(state)
        except Exception as exc:  # the database refused: say so on the card
            log.warning("could not record the round: %s", exc)
            text = f"Could not record the round in the journal: {exc}"
            self.banner.say(text, problem=True, glance=self.memory.state.glance)
        if self.running() is None:
            self.banner.dismiss_nudge()
        self.render()

    def _start(self, state: cue_card.CardState) -> None:
        """The round's length is the day's rule (core/content/lengths.py), not the card's:
        the card only saves its length box first, which that rule reads."""
        self.memory.save_now()
        if state.start_round_id:
            self.day.start_round(round_id=state.start_round_id)
        elif state.page and state.page != cue_card.GENERIC:
            self.day.start_round(round_type=state.page)
